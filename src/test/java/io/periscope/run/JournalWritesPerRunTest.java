package io.periscope.run;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.typesafe.config.Config;
import io.micrometer.core.instrument.MeterRegistry;
import io.periscope.metrics.Metrics;
import io.periscope.testing.ClockedRuns;
import io.periscope.testing.FakeUpstream;
import io.periscope.testing.TestJournals;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

/**
 * What one scheduled run writes, through the whole service on the embedded H2 file journal as it
 * runs by default: the journal's commits (write batches), its rows and their bytes by entity type,
 * snapshots, and the H2 file's own writes (every commit of the journal, the snapshot store and the
 * wake-up index with its projection's offset). A judged and alerted run and a nothing-new run are
 * measured one at a time (one watch due a minute), so each commit counted is theirs; the counts are
 * a guard against a run writing more than it must (docs/performance.md, "Journal writes per run").
 */
public class JournalWritesPerRunTest {
  /** Measured runs of each kind. */
  private static final int RUNS = 4;

  private ClockedRuns runs;
  private Config db;

  @Before
  public void start() throws Exception {
    Config journal = TestJournals.embedded(Files.createTempDirectory("periscope-journal-writes"));
    db = journal.getConfig("pekko-persistence-jdbc.shared-databases.periscope.db");
    runs = new ClockedRuns(journal);
  }

  @After
  public void stop() throws Exception {
    if (runs != null) runs.close();
  }

  /** What the node has written so far. */
  private record Written(
      long commits,
      long events,
      Map<String, Long> rows,
      Map<String, Long> bytes,
      long snapshots,
      long snapshotBytes,
      long fileWrites,
      long fileBytes) {

    Written minus(Written before) {
      Map<String, Long> r = new TreeMap<>(rows);
      before.rows.forEach((k, v) -> r.merge(k, -v, Long::sum));
      Map<String, Long> b = new TreeMap<>(bytes);
      before.bytes.forEach((k, v) -> b.merge(k, -v, Long::sum));
      r.values().removeIf(v -> v == 0);
      b.values().removeIf(v -> v == 0);
      return new Written(
          commits - before.commits,
          events - before.events,
          r,
          b,
          snapshots - before.snapshots,
          snapshotBytes - before.snapshotBytes,
          fileWrites - before.fileWrites,
          fileBytes - before.fileBytes);
    }

    Written plus(Written other) {
      Map<String, Long> r = new TreeMap<>(rows);
      other.rows.forEach((k, v) -> r.merge(k, v, Long::sum));
      Map<String, Long> b = new TreeMap<>(bytes);
      other.bytes.forEach((k, v) -> b.merge(k, v, Long::sum));
      return new Written(
          commits + other.commits,
          events + other.events,
          r,
          b,
          snapshots + other.snapshots,
          snapshotBytes + other.snapshotBytes,
          fileWrites + other.fileWrites,
          fileBytes + other.fileBytes);
    }

    static final Written NONE = new Written(0, 0, Map.of(), Map.of(), 0, 0, 0, 0);

    String perRun(int runs) {
      Map<String, String> r = new TreeMap<>();
      rows.forEach((k, v) -> r.put(k, String.format("%.2f", v / (double) runs)));
      Map<String, Long> b = new TreeMap<>();
      bytes.forEach((k, v) -> b.put(k, v / runs));
      return String.format(
          "per run: %.2f journal commits, %.2f events %s, %.0f bytes of events %s;"
              + " %.2f snapshots (%.0f bytes); H2 file: %.2f writes, %.0f bytes",
          commits / (double) runs,
          events / (double) runs,
          r,
          bytes.values().stream().mapToLong(Long::longValue).sum() / (double) runs,
          b,
          snapshots / (double) runs,
          snapshotBytes / (double) runs,
          fileWrites / (double) runs,
          fileBytes / (double) runs);
    }
  }

  private Written written() throws Exception {
    MeterRegistry registry = Metrics.get(runs.service.system).registry();
    var timer = registry.find("periscope.journal.write").tag("result", "ok").timer();
    var events = registry.find("periscope.journal.events.written").counter();
    Map<String, Long> rows = new TreeMap<>();
    Map<String, Long> bytes = new TreeMap<>();
    long snapshots = 0;
    long snapshotBytes = 0;
    long fileWrites = 0;
    long fileBytes = 0;
    try (Connection c =
            DriverManager.getConnection(
                db.getString("url"), db.getString("user"), db.getString("password"));
        Statement s = c.createStatement()) {
      try (ResultSet r =
          s.executeQuery(
              "SELECT \"persistence_id\", OCTET_LENGTH(\"event_payload\") FROM"
                  + " \"event_journal\"")) {
        while (r.next()) {
          String type = r.getString(1).substring(0, r.getString(1).indexOf('|'));
          rows.merge(type, 1L, Long::sum);
          bytes.merge(type, r.getLong(2), Long::sum);
        }
      }
      // snapshots are replaced (the newest two kept): their sequence numbers count them
      try (ResultSet r =
          s.executeQuery(
              "SELECT COUNT(*), COALESCE(SUM(OCTET_LENGTH(\"snapshot_payload\")), 0)"
                  + " FROM \"snapshot\"")) {
        r.next();
        snapshots = r.getLong(1);
        snapshotBytes = r.getLong(2);
      }
      try (ResultSet r =
          s.executeQuery(
              "SELECT setting_name, setting_value FROM information_schema.settings"
                  + " WHERE setting_name IN ('info.FILE_WRITE', 'info.FILE_WRITE_BYTES')")) {
        while (r.next()) {
          long value = Long.parseLong(r.getString(2));
          if (r.getString(1).equals("info.FILE_WRITE")) fileWrites = value;
          else fileBytes = value;
        }
      }
    }
    return new Written(
        timer == null ? 0 : timer.count(),
        events == null ? 0 : (long) events.count(),
        rows,
        bytes,
        snapshots,
        snapshotBytes,
        fileWrites,
        fileBytes);
  }

  /**
   * Runs the watch due at {@code minute} (the clock moved just past it) and measures what the node
   * wrote for it, once the writes that follow a run (the key pool's uses, within 5 s) are in.
   */
  private Written measure(String watchId, Instant minute, String before, String outcome)
      throws Exception {
    Written start = written();
    runs.run(watchId, minute, before, outcome);
    Thread.sleep(6_000);
    return written().minus(start);
  }

  @Test
  public void aJudgedRunAndANothingNewRunWriteWhatTheyMust() throws Exception {
    Instant hour = runs.hour();
    FakeUpstream upstream = runs.upstream;
    runs.create("judged", upstream.feedUrl("judged"), "*/2 * * * *"); // even minutes
    runs.create("quiet", upstream.staticFeedUrl("quiet"), "1-59/2 * * * *"); // odd minutes
    // The first run of each: the static feed's one item is judged once; nothing-new from then on.
    measure("quiet", hour.plusSeconds(60), null, "alert");
    Written first = measure("judged", hour.plusSeconds(120), null, "alert");
    String judgedBefore = runs.nextRun("judged", null).get("runId").asText();
    String quietBefore = runs.nextRun("quiet", null).get("runId").asText();
    Written judged = Written.NONE;
    Written quiet = Written.NONE;
    for (int i = 0; i < RUNS; i++) {
      Instant odd = hour.plusSeconds(60L * (3 + 2 * i));
      quiet = quiet.plus(measure("quiet", odd, quietBefore, "nothing-new"));
      quietBefore = runs.nextRun("quiet", null).get("runId").asText();
      judged = judged.plus(measure("judged", odd.plusSeconds(60), judgedBefore, "alert"));
      judgedBefore = runs.nextRun("judged", null).get("runId").asText();
    }
    // Nothing due: what the node writes meanwhile by itself, over as long as a run is measured.
    runs.clock.set(hour.plusSeconds(60L * (2 + 2 * RUNS) + 30));
    Written start = written();
    Thread.sleep(8_000);
    Written idle = written().minus(start);

    // A burst: one account's watches due together, their first runs judged and alerted at once.
    int burst = 8;
    for (int i = 0; i < burst; i++)
      runs.create("burst-" + i, upstream.feedUrl("burst-" + i), "0 * * * *");
    start = written();
    runs.clock.set(hour.plusSeconds(3600 + 5));
    for (int i = 0; i < burst; i++) runs.nextRun("burst-" + i, null);
    Thread.sleep(6_000);
    // the judged and the quiet watch were due as well
    Written together = written().minus(start);

    System.out.println("first judged run " + first.perRun(1));
    System.out.println("judged and alerted run " + judged.perRun(RUNS));
    System.out.println("nothing-new run " + quiet.perRun(RUNS));
    System.out.println("nothing due, 8 s " + idle.perRun(1));
    System.out.println(
        burst
            + " judged and alerted runs of one account due together, 1 judged, 1 nothing-new "
            + together.perRun(burst + 2));
    assertEquals(
        RUNS + 2, upstream.alerts().stream().filter(a -> a.watchId().equals("judged")).count());
    // A nothing-new run: its record and schedule, one commit.
    assertEquals(RUNS, quiet.commits());
    assertEquals(Long.valueOf(2L * RUNS), quiet.rows().get("Watch"));
    // A judged run: quota, usage, the watch's two (record before the alert, deliveries after it),
    // and at most one of the key pool's.
    assertTrue(judged.perRun(RUNS), judged.commits() <= 5L * RUNS);
    assertEquals(Long.valueOf(5L * RUNS), judged.rows().get("Watch"));
  }
}
