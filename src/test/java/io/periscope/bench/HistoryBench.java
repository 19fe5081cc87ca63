package io.periscope.bench;

import com.typesafe.config.Config;
import io.periscope.cli.Cli;
import io.periscope.history.WatchEvents;
import io.periscope.persistence.JournalSchema;
import io.periscope.testing.ScratchDatabase;
import io.periscope.testing.TestJournals;
import io.periscope.watch.RunRecord;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;

/**
 * {@code periscope history} on a PostgreSQL journal of {@code --watches} (1,000) watches of {@code
 * --runs} (1,000) runs each, one run an hour per watch, the newest in the last hour: a million run
 * events. The events are copied in SQL from one {@code RunRecorded} the journal plugin wrote (so
 * they read back as the service's own), with their run id and start changed.
 *
 * <p>For {@code history --since 1h}, {@code history -n 20}, one watch's full replay and the whole
 * instance's replay (what {@code --since} read before it was pushed down): the time to the first
 * line and to the last, the journal rows PostgreSQL read ({@code pg_stat_user_tables}), and the
 * heap's peak; then the query that finds where each watch's reading starts, with and without the
 * index on the write time ({@code EXPLAIN ANALYZE}, the index dropped in a transaction rolled
 * back).
 *
 * <pre>
 * scripts/history-bench.sh --watches 1000 --runs 1000
 * </pre>
 *
 * It works in a scratch database of the test server, dropped at the end.
 */
public final class HistoryBench {
  private HistoryBench() {}

  public static void main(String[] argv) throws Exception {
    Map<String, String> options = new HashMap<>(Map.of("--watches", "1000", "--runs", "1000"));
    for (int i = 0; i + 1 < argv.length; i += 2) options.put(argv[i], argv[i + 1]);
    int watches = Integer.parseInt(options.get("--watches"));
    int runs = Integer.parseInt(options.get("--runs"));
    try (ScratchDatabase database = ScratchDatabase.create("periscope_history_bench")) {
      Config config = TestJournals.postgres(database);
      fill(config, watches, runs);
      // the profile is chosen by the environment; its settings read the process environment,
      // which a running JVM cannot change: they are given as system properties instead
      Map<String, String> env = Map.of("DATABASE_URL", database.url());
      System.setProperty("periscope.database.url", database.url());
      System.setProperty("periscope.database.user", database.user());
      System.setProperty(
          "periscope.data-dir", Files.createTempDirectory("history-bench").toString());
      com.typesafe.config.ConfigFactory.invalidateCaches();
      // the same command once, unreported: the JIT warms up as in a service's long life, not a
      // CLI's
      measure(config, env, List.of("--owner", "bench", "--watch", "w0001"), false);
      System.out.printf(
          Locale.ROOT,
          "%-34s %10s %10s %10s %12s %10s%n",
          "history",
          "first ms",
          "last ms",
          "lines",
          "rows read",
          "peak MiB");
      for (List<String> args :
          List.<List<String>>of(
              List.of("--since", "1h"),
              List.of("-n", "20"),
              List.of(
                  "--owner", "bench", "--watch", String.format(Locale.ROOT, "w%04d", watches / 2)),
              List.of())) measure(config, env, args, true);
      explain(config, watches);
    }
  }

  /** Writes one run with the plugin, then copies it in SQL into {@code watches × runs} events. */
  private static void fill(Config config, int watches, int runs) throws Exception {
    ActorTestKit kit = ActorTestKit.create(config);
    try {
      JournalSchema.create(kit.system());
      new WatchEvents(kit)
          .write(
              "bench",
              "template",
              WatchEvents.recorded(
                  WatchEvents.record(
                      "RUNID0000",
                      RunRecord.TRIGGER_SCHEDULE,
                      RunRecord.NO_MATCH,
                      Instant.parse("2000-01-01T00:00:00Z"),
                      "Nothing in today's items meets the condition about the price of the product",
                      "The items mention the product but none announces a price change; the"
                          + " closest says a sale may come later this year.",
                      null,
                      "below-threshold",
                      List.of(
                          new RunRecord.Evidence(
                              "https://example.com/news/1", "Product news", "a sale may come")),
                      List.of())));
    } finally {
      kit.shutdownTestKit();
    }
    long now = System.currentTimeMillis();
    long started = System.nanoTime();
    try (Connection c = TestJournals.connect(config);
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE TEMP TABLE template AS SELECT writer, adapter_manifest, event_ser_id,"
              + " event_ser_manifest, convert_from(event_payload, 'UTF8') AS payload FROM"
              + " event_journal WHERE persistence_id = 'Watch|bench:template'");
      try (ResultSet t = s.executeQuery("SELECT payload FROM template")) {
        t.next();
        String payload = t.getString(1);
        if (!payload.contains("RUNID0000") || !payload.contains("2000-01-01T00:00:00Z"))
          throw new IllegalStateException("the template run reads otherwise: " + payload);
      }
      s.execute("DELETE FROM event_journal WHERE persistence_id = 'Watch|bench:template'");
      int chunk = Math.max(1, 100_000 / watches);
      for (int from = 1; from <= runs; from += chunk) {
        try (PreparedStatement insert =
            c.prepareStatement(
                "INSERT INTO event_journal (persistence_id, sequence_number, deleted, writer,"
                    + " write_timestamp, adapter_manifest, event_ser_id, event_ser_manifest,"
                    + " event_payload) SELECT 'Watch|bench:w' || lpad(w::text, 4, '0'), k, false,"
                    + " t.writer, s.at + 5000, t.adapter_manifest, t.event_ser_id,"
                    + " t.event_ser_manifest, convert_to(replace(replace(t.payload, 'RUNID0000',"
                    + " 'w' || w || '-' || k), '2000-01-01T00:00:00Z', to_char(to_timestamp(s.at /"
                    + " 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')), 'UTF8')"
                    + " FROM template t, generate_series(?, ?) k, generate_series(0, ? - 1) w,"
                    + " LATERAL (SELECT (? - (? - k + 1)::bigint * 3600000 + w * 3000)::bigint AS"
                    + " at) s ORDER BY k, w")) {
          insert.setInt(1, from);
          insert.setInt(2, Math.min(runs, from + chunk - 1));
          insert.setInt(3, watches);
          insert.setLong(4, now);
          insert.setInt(5, runs);
          insert.executeUpdate();
        }
      }
      s.execute("ANALYZE event_journal");
      try (ResultSet size =
          s.executeQuery(
              "SELECT count(*), pg_size_pretty(pg_total_relation_size('event_journal'))"
                  + " FROM event_journal")) {
        size.next();
        System.out.printf(
            Locale.ROOT,
            "journal: %,d events of %,d watches, %s with indexes, written in %d s%n%n",
            size.getLong(1),
            watches,
            size.getString(2),
            (System.nanoTime() - started) / 1_000_000_000);
      }
    }
  }

  /** One history command, in this process as the jar runs it; what it cost. */
  private static void measure(
      Config config, Map<String, String> env, List<String> args, boolean report) throws Exception {
    long rowsBefore = rowsRead(config);
    System.gc();
    List<MemoryPoolMXBean> heap =
        ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(p -> p.getType() == MemoryType.HEAP)
            .toList();
    heap.forEach(MemoryPoolMXBean::resetPeakUsage);
    Lines out = new Lines();
    java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
    long start = System.nanoTime();
    List<String> argv = new java.util.ArrayList<>(List.of("history"));
    argv.addAll(args);
    int exit =
        Cli.run(
            argv.toArray(String[]::new),
            env,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    long end = System.nanoTime();
    if (exit != 0)
      throw new IllegalStateException("history " + args + " exited " + exit + ": " + err);
    long peak = heap.stream().mapToLong(p -> p.getPeakUsage().getUsed()).sum();
    if (!report) return;
    // statistics reach pg_stat_user_tables when the closed connections flush them
    Thread.sleep(1500);
    System.out.printf(
        Locale.ROOT,
        "%-34s %10d %10d %,10d %,12d %10d%n",
        String.join(" ", args),
        out.first == 0 ? -1 : (out.first - start) / 1_000_000,
        (end - start) / 1_000_000,
        out.lines,
        rowsRead(config) - rowsBefore,
        peak >> 20);
  }

  /** Rows of the journal PostgreSQL has read so far, by scans and by index fetches. */
  private static long rowsRead(Config config) throws Exception {
    return TestJournals.number(
        config,
        "SELECT coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0)"
            + " FROM pg_stat_user_tables WHERE relname = 'event_journal'");
  }

  /** Where each watch's reading starts for {@code --since 1h}: with the index, and without. */
  private static void explain(Config config, int watches) throws Exception {
    String query =
        "EXPLAIN (ANALYZE, BUFFERS) SELECT persistence_id, MIN(sequence_number),"
            + " MAX(sequence_number) FROM event_journal WHERE persistence_id LIKE 'Watch|%'"
            + " AND ordering <= 9223372036854775807 AND write_timestamp >= "
            + (System.currentTimeMillis() - 3_600_000L)
            + " GROUP BY persistence_id";
    try (Connection c = TestJournals.connect(config);
        Statement s = c.createStatement()) {
      System.out.println("\nthe start of each watch's reading, --since 1h, with the index:");
      print(s, query);
      c.setAutoCommit(false);
      s.execute("DROP INDEX event_journal_write_timestamp_idx");
      System.out.println("\nand without it:");
      print(s, query);
      c.rollback();
    }
  }

  private static void print(Statement s, String query) throws Exception {
    try (ResultSet plan = s.executeQuery(query)) {
      while (plan.next()) System.out.println("  " + plan.getString(1));
    }
  }

  /** Standard output counted: lines, and when the first came. */
  private static final class Lines extends OutputStream {
    long first;
    long lines;

    @Override
    public void write(int b) {
      if (first == 0) first = System.nanoTime();
      if (b == '\n') lines++;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      if (len > 0 && first == 0) first = System.nanoTime();
      for (int i = off; i < off + len; i++) if (b[i] == '\n') lines++;
    }
  }
}
