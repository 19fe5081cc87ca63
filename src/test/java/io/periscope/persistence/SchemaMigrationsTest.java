package io.periscope.persistence;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.typesafe.config.Config;
import io.periscope.testing.InProcessService;
import io.periscope.testing.NeedsPostgres;
import io.periscope.testing.ScratchDatabase;
import io.periscope.testing.TestJournals;
import io.periscope.testing.TestWatches;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * The tables Periscope owns are versioned by migrations: a fresh database gets them from version 1
 * on, and a database as release 0.1.0 left it (the same tables and rows, no version table) is
 * baselined and keeps every row, on the embedded H2 journal and on PostgreSQL.
 */
public class SchemaMigrationsTest {
  private static final String WATCH =
      TestWatches.body("kept")
          .condition("c")
          .feed("https://example.org/feed.xml")
          .threshold(0.7)
          .json();

  @Test
  public void aReleaseZeroOneDatabaseIsAdoptedWithEveryRowOnH2() throws Exception {
    var dir = Files.createTempDirectory("periscope-migrations");
    adoptsReleaseZeroOne(() -> TestJournals.embedded(dir));
  }

  @Test
  @Category(NeedsPostgres.class)
  public void aReleaseZeroOneDatabaseIsAdoptedWithEveryRowOnPostgres() throws Exception {
    try (ScratchDatabase database = ScratchDatabase.create("periscope_migrations")) {
      adoptsReleaseZeroOne(() -> TestJournals.postgres(database));
    }
  }

  private void adoptsReleaseZeroOne(Supplier<Config> journal) throws Exception {
    Config config = journal.get();
    try (InProcessService first = new InProcessService(config)) {
      first.account("alice", "user", "a-passphrase");
      String token = first.login("alice", "a-passphrase");
      assertEquals(201, first.send("POST", "/watches", token, WATCH, Map.of()).statusCode());
      awaitWakeUp(config);
    }
    try (Connection c = TestJournals.connect(config)) {
      assertEquals(
          "a fresh database runs every migration",
          List.of("1 SQL true", "2 JDBC true"),
          history(c).stream().filter(h -> h.contains(" SQL ") || h.contains(" JDBC ")).toList());
      // What release 0.1.0 left: the same tables (version 1 is its schema), no version record.
      try (Statement s = c.createStatement()) {
        s.execute("DROP TABLE \"" + SchemaMigrations.HISTORY_TABLE + "\"");
      }
    }
    Map<String, List<String>> before = rowsOfEveryTable(config);
    assertTrue(before.toString(), before.get("periscope_wakeups").size() == 1);

    // What a node runs at start before anything else touches the database.
    ActorTestKit starting = ActorTestKit.create(journal.get());
    try {
      JournalSchema.create(starting.system());
    } finally {
      starting.shutdownTestKit();
    }
    try (Connection c = TestJournals.connect(config)) {
      assertEquals(
          "adopted at version 1, the later ones run on it",
          List.of("1 BASELINE true", "2 JDBC true"),
          history(c).stream().filter(h -> !h.contains(" TABLE ")).toList());
    }
    Map<String, List<String>> after = rowsOfEveryTable(config);
    assertTrue("the version table is added", after.remove(SchemaMigrations.HISTORY_TABLE) != null);
    assertEquals("every table keeps every row as it was", before, after);

    try (InProcessService second = new InProcessService(journal.get())) {
      String token = second.login("alice", "a-passphrase");
      assertEquals(200, second.send("GET", "/watches/kept", token, null, Map.of()).statusCode());
    }
  }

  /** The watch's schedule reached the wake-up index through its projection. */
  private static void awaitWakeUp(Config config) throws Exception {
    for (int i = 0; i < 200; i++) {
      try (Connection c = TestJournals.connect(config);
          Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT count(*) FROM periscope_wakeups")) {
        rs.next();
        if (rs.getInt(1) > 0) return;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("the watch never reached the wake-up index");
  }

  /**
   * Each entry of the history: "version type success", in order (Flyway also records the history
   * table's creation, type TABLE).
   */
  private static List<String> history(Connection c) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT \"version\", \"type\", \"success\" FROM \""
                    + SchemaMigrations.HISTORY_TABLE
                    + "\" ORDER BY \"installed_rank\"")) {
      while (rs.next()) rows.add(rs.getString(1) + " " + rs.getString(2) + " " + rs.getBoolean(3));
    }
    return rows;
  }

  /** Every table of the database's schema, by lower-case name, with each row as text. */
  private static Map<String, List<String>> rowsOfEveryTable(Config config) throws SQLException {
    Map<String, List<String>> tables = new TreeMap<>();
    try (Connection c = TestJournals.connect(config)) {
      List<String> names = new ArrayList<>();
      try (ResultSet rs =
          c.getMetaData().getTables(null, c.getSchema(), "%", new String[] {"TABLE"})) {
        while (rs.next()) names.add(rs.getString("TABLE_NAME"));
      }
      for (String name : names) {
        List<String> rows = new ArrayList<>();
        try (Statement s = c.createStatement();
            ResultSet rs = s.executeQuery("SELECT * FROM \"" + name + "\"")) {
          ResultSetMetaData columns = rs.getMetaData();
          while (rs.next()) {
            StringBuilder row = new StringBuilder();
            for (int i = 1; i <= columns.getColumnCount(); i++) {
              // the bytes of a binary column: H2 shows its blobs by a handle that changes
              Object value =
                  rs.getObject(i) instanceof java.sql.Blob || rs.getObject(i) instanceof byte[]
                      ? java.util.Arrays.toString(rs.getBytes(i))
                      : rs.getObject(i);
              row.append(value).append('|');
            }
            rows.add(row.toString());
          }
        }
        tables.put(name.toLowerCase(java.util.Locale.ROOT), rows);
      }
    }
    return tables;
  }
}
