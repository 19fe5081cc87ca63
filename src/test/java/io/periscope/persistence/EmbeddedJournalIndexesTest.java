package io.periscope.persistence;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import com.typesafe.config.Config;
import io.periscope.testing.TestJournals;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.Test;

/**
 * A journal as the release before made it on H2 (the plugin's script, then migration 1) takes
 * migration 2 without losing a row, and keeps what the plugin relies on: {@code ordering} unique
 * once, each event's tag once, the tags' foreign key and its {@code ON DELETE CASCADE}, new events
 * numbered after the old.
 */
public class EmbeddedJournalIndexesTest {
  private static final String INSERT_EVENT =
      "INSERT INTO \"event_journal\" (\"persistence_id\", \"sequence_number\", \"writer\","
          + " \"write_timestamp\", \"adapter_manifest\", \"event_payload\", \"event_ser_id\","
          + " \"event_ser_manifest\") VALUES (?, ?, 'w', 0, '', ?, 1, 'M')";

  @Test
  public void aPreviousReleasesJournalKeepsEveryRowAndWhatThePluginReliesOn() throws Exception {
    Config config = TestJournals.embedded(Files.createTempDirectory("periscope-h2-indexes"));
    try (Connection c = TestJournals.connect(config);
        Statement s = c.createStatement()) {
      String script;
      try (InputStream in =
          getClass().getClassLoader().getResourceAsStream("schema/h2/h2-create-schema.sql")) {
        script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      for (String sql : script.split(";")) if (!sql.isBlank()) s.execute(sql);
    }
    SchemaMigrations.apply(config, "1");
    List<Long> orderings = new ArrayList<>();
    try (Connection c = TestJournals.connect(config)) {
      for (int i = 1; i <= 40; i++) orderings.add(insertEvent(c, "Watch|w" + (i % 3), i));
      for (long o : orderings) tag(c, o, "schedule");
      tag(c, orderings.get(0), "run");
    }
    String eventsBefore = rows(config, "SELECT * FROM \"event_journal\" ORDER BY \"ordering\"");
    String tagsBefore = rows(config, "SELECT * FROM \"event_tag\" ORDER BY 1, 2");
    assertEquals(List.of("ordering", "ordering"), orderingIndexes(config));

    SchemaMigrations.apply(config);

    assertEquals(eventsBefore, rows(config, "SELECT * FROM \"event_journal\" ORDER BY 1"));
    assertEquals(tagsBefore, rows(config, "SELECT * FROM \"event_tag\" ORDER BY 1, 2"));
    assertEquals("ordering unique once", List.of("ordering"), orderingIndexes(config));
    assertEquals(
        "the foreign key's index and the tag queries' index",
        "[event_id] [tag, event_id]",
        rows(
            config,
            "SELECT LISTAGG(COLUMN_NAME, ', ') WITHIN GROUP (ORDER BY ORDINAL_POSITION) FROM"
                + " INFORMATION_SCHEMA.INDEX_COLUMNS WHERE TABLE_NAME = 'event_tag' GROUP BY"
                + " INDEX_NAME ORDER BY 1"));
    assertEquals(
        "" + EmbeddedJournalIndexes.ORDERING_CACHE,
        rows(
            config,
            "SELECT IDENTITY_CACHE FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_NAME ="
                + " 'event_journal' AND COLUMN_NAME = 'ordering'"));
    try (Connection c = TestJournals.connect(config)) {
      long next = insertEvent(c, "Watch|w0", 100);
      assertTrue("numbered after the old events: " + next, next > orderings.get(39));
      try (Statement s = c.createStatement()) {
        try {
          s.execute(
              "UPDATE \"event_journal\" SET \"ordering\" = "
                  + orderings.get(1)
                  + " WHERE"
                  + " \"ordering\" = "
                  + next);
          fail("a second event with one ordering was written");
        } catch (SQLException expected) {
          // the column's UNIQUE constraint
        }
        try {
          tag(c, orderings.get(1), "schedule");
          fail("an event's tag was written twice");
        } catch (SQLException expected) {
          // the unique (tag, event_id) index in the primary key's place
        }
        try {
          tag(c, next + 1_000_000, "schedule");
          fail("a tag of no event was written");
        } catch (SQLException expected) {
          // the foreign key
        }
        s.execute("DELETE FROM \"event_journal\" WHERE \"ordering\" = " + orderings.get(0));
      }
    }
    assertEquals(
        "the tags of a deleted event go with it (ON DELETE CASCADE)",
        "0",
        rows(
            config, "SELECT COUNT(*) FROM \"event_tag\" WHERE \"event_id\" = " + orderings.get(0)));
    SchemaMigrations.apply(config);
    assertEquals("ordering unique once, run twice", List.of("ordering"), orderingIndexes(config));
  }

  private static long insertEvent(Connection c, String id, long seq) throws SQLException {
    try (PreparedStatement p = c.prepareStatement(INSERT_EVENT, new String[] {"ordering"})) {
      p.setString(1, id);
      p.setLong(2, seq);
      p.setBytes(3, ("event " + seq).getBytes(StandardCharsets.UTF_8));
      p.executeUpdate();
      try (ResultSet keys = p.getGeneratedKeys()) {
        keys.next();
        return keys.getLong(1);
      }
    }
  }

  private static void tag(Connection c, long ordering, String tag) throws SQLException {
    try (PreparedStatement p = c.prepareStatement("INSERT INTO \"event_tag\" VALUES (?, ?)")) {
      p.setLong(1, ordering);
      p.setString(2, tag);
      p.executeUpdate();
    }
  }

  /** The first column of each index on the journal that holds {@code ordering}. */
  private static List<String> orderingIndexes(Config config) throws SQLException {
    List<String> columns = new ArrayList<>();
    try (Connection c = TestJournals.connect(config);
        Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT c.COLUMN_NAME FROM INFORMATION_SCHEMA.INDEX_COLUMNS c JOIN"
                    + " INFORMATION_SCHEMA.INDEXES i ON i.INDEX_NAME = c.INDEX_NAME WHERE"
                    + " c.TABLE_NAME = 'event_journal' AND c.COLUMN_NAME = 'ordering' AND"
                    + " i.INDEX_TYPE_NAME = 'UNIQUE INDEX'")) {
      while (r.next()) columns.add(r.getString(1));
    }
    return columns;
  }

  private static String rows(Config config, String sql) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Connection c = TestJournals.connect(config);
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery(sql)) {
      int n = r.getMetaData().getColumnCount();
      while (r.next()) {
        StringBuilder row = new StringBuilder();
        for (int i = 1; i <= n; i++) {
          Object v = r.getObject(i);
          row.append(
                  v instanceof byte[] || v instanceof java.sql.Blob
                      ? java.util.Arrays.toString(r.getBytes(i))
                      : v)
              .append(n > 1 ? "|" : "");
        }
        rows.add(n == 1 && sql.contains("LISTAGG") ? "[" + row + "]" : row.toString());
      }
    }
    return String.join(" ", rows);
  }
}
