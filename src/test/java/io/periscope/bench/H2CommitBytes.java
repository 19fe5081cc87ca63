package io.periscope.bench;

import com.typesafe.config.Config;
import io.periscope.persistence.SchemaMigrations;
import io.periscope.testing.TestJournals;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Random;
import org.h2.engine.SessionLocal;
import org.h2.jdbc.JdbcConnection;
import org.h2.mvstore.MVStore;

/**
 * What an H2 commit writes as the journal grows: {@code --runs} (16,000) nothing-new runs of {@code
 * --watches} (200) watches written as the service writes them (two events and a tag in one commit;
 * the wake-up row and the projection's offset in a second; a snapshot every 100 events), through
 * JDBC on the plugin's H2 schema and Periscope's migrations, {@code WRITE_DELAY=0}. Every 2,000
 * runs: the file's bytes per commit (H2's {@code info.FILE_WRITE_BYTES}), the chunks' fill, the
 * layout map's entries and the file's size. {@code --compact-every} runs (0: never) it compacts the
 * store as H2's background writer would (the sparsest chunks rewritten, then a commit), the bytes
 * that writes counted apart; {@code --schema-version} 1 measures the schema as the release before
 * left it. The runs take seconds, not the hours their schedule would: H2 keeps a replaced chunk
 * {@code --retention} ms (its 45 s by default), so that is shortened in the same proportion (200 ms
 * for 16,000 runs of 200 watches a minute, 80 minutes).
 *
 * <pre>
 * java -cp target/test-classes:target/classes:$(cat target/bench.classpath) \
 *   io.periscope.bench.H2CommitBytes --compact-every 200
 * </pre>
 */
public final class H2CommitBytes {
  private static final String EVENT =
      "INSERT INTO \"event_journal\" (\"persistence_id\", \"sequence_number\", \"writer\","
          + " \"write_timestamp\", \"adapter_manifest\", \"event_payload\", \"event_ser_id\","
          + " \"event_ser_manifest\") VALUES (?, ?, 'w', ?, '', ?, 33, 'M')";

  private H2CommitBytes() {}

  public static void main(String[] args) throws Exception {
    int runs = InProcessRuns.option(args, "--runs", 16_000);
    int watches = InProcessRuns.option(args, "--watches", 200);
    int compactEvery = InProcessRuns.option(args, "--compact-every", 0);
    int retention = InProcessRuns.option(args, "--retention", 200);
    int version = InProcessRuns.option(args, "--schema-version", 0);
    Config config = TestJournals.embedded(Files.createTempDirectory("periscope-h2-commits"));
    try (Connection c = TestJournals.connect(config);
        Statement s = c.createStatement()) {
      try (InputStream in =
          H2CommitBytes.class
              .getClassLoader()
              .getResourceAsStream("schema/h2/h2-create-schema.sql")) {
        for (String sql : new String(in.readAllBytes(), StandardCharsets.UTF_8).split(";"))
          if (!sql.isBlank()) s.execute(sql);
      }
      SchemaMigrations.apply(config, version == 0 ? "latest" : "" + version);
      s.execute("SET RETENTION_TIME " + retention);
      s.execute("CREATE TABLE offsets (projection VARCHAR(255) PRIMARY KEY, at BIGINT)");
      MVStore store =
          ((SessionLocal) ((JdbcConnection) c).getSession()).getDatabase().getStore().getMvStore();
      PreparedStatement event = c.prepareStatement(EVENT, new String[] {"ordering"});
      PreparedStatement tag = c.prepareStatement("INSERT INTO \"event_tag\" VALUES (?, ?)");
      PreparedStatement wake =
          c.prepareStatement("MERGE INTO periscope_wakeups KEY (entity_id) VALUES (?, ?)");
      PreparedStatement offset =
          c.prepareStatement("MERGE INTO offsets KEY (projection) VALUES ('wake-ups', ?)");
      PreparedStatement snapshot =
          c.prepareStatement(
              "MERGE INTO \"snapshot\" KEY (\"persistence_id\", \"sequence_number\") VALUES (?, ?,"
                  + " 0, 1, 'S', ?, NULL, NULL, NULL)");
      c.setAutoCommit(false);
      Random random = new Random(1);
      long[] sequence = new long[watches];
      long commits = 0;
      long compacted = 0;
      long bytes = bytesWritten(config);
      for (int run = 1; run <= runs; run++) {
        int w = run % watches;
        String id = "Watch|" + w;
        long ordering = 0;
        for (int e = 0; e < 2; e++) {
          byte[] payload = new byte[375];
          random.nextBytes(payload);
          event.setString(1, id);
          event.setLong(2, ++sequence[w]);
          event.setLong(3, run);
          event.setBytes(4, payload);
          event.executeUpdate();
          try (ResultSet keys = event.getGeneratedKeys()) {
            keys.next();
            ordering = keys.getLong(1);
          }
        }
        tag.setLong(1, ordering);
        tag.setString(2, "schedule");
        tag.executeUpdate();
        c.commit();
        commits++;
        if (sequence[w] % 100 < 2) {
          byte[] payload = new byte[2_000];
          random.nextBytes(payload);
          snapshot.setString(1, id);
          snapshot.setLong(2, sequence[w]);
          snapshot.setBytes(3, payload);
          snapshot.executeUpdate();
          c.commit();
          commits++;
        }
        wake.setString(1, id);
        wake.setLong(2, run * 60_000L);
        wake.executeUpdate();
        offset.setLong(1, ordering);
        offset.executeUpdate();
        c.commit();
        commits++;
        if (compactEvery > 0 && run % compactEvery == 0) {
          long before = bytesWritten(config);
          store.compact(80, 1 << 20);
          store.commit();
          compacted += bytesWritten(config) - before;
        }
        if (run % 2_000 == 0) {
          long now = bytesWritten(config);
          System.out.printf(
              "%,d runs: %,.0f bytes a commit (of which compaction %,.0f), chunks %d %% full,"
                  + " layout %,d entries, file %.1f MB%n",
              run,
              (now - bytes) / (double) commits,
              compacted / (double) commits,
              store.getFileStore().getChunksFillRate(),
              store.getLayoutMap().size(),
              store.getFileStore().size() / 1e6);
          commits = 0;
          compacted = 0;
          bytes = now;
        }
      }
    }
  }

  private static long bytesWritten(Config config) throws Exception {
    return TestJournals.number(
        config,
        "SELECT CAST(setting_value AS BIGINT) FROM information_schema.settings"
            + " WHERE setting_name = 'info.FILE_WRITE_BYTES'");
  }
}
