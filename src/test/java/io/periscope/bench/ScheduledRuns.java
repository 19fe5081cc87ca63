package io.periscope.bench;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.periscope.metrics.Metrics;
import io.periscope.testing.CountingJdbc;
import io.periscope.testing.FakeUpstream;
import io.periscope.testing.InProcessService;
import io.periscope.testing.MutableClock;
import io.periscope.testing.TestJournals;
import io.periscope.testing.TestWatches;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

/**
 * The CPU of a nothing-new run as the service pays it, in one process: {@link NothingNewRuns} with
 * the scheduler's path added. The whole service ({@link InProcessService}, the H2 file journal, its
 * scheduler's tick and read journal's poll as a lone node has them) with {@code --watches} (200)
 * watches due every minute, each on a loopback feed that never changes; a clock the bench moves a
 * minute at a time makes them due, the wake-up poller sends their fires through sharding, their
 * entities run and the projection writes their next fire times to the index. A minute's window
 * ({@code --window} seconds, 10) lasts until every watch's next fire time is in the index and then
 * the rest of it; the node's CPU over as long with nothing due is subtracted, and what is left,
 * divided by the runs, is printed after {@code --warm} (5) minutes for {@code --minutes} (10), with
 * the JIT's share and by group of threads (ms a run, the fakes' among them, for the window with
 * nothing due too); the loopback fakes' threads are left out of the totals. The feed answers at
 * once, or after {@code --feed-latency-ms} as {@link ScheduleBench}'s does (50), which spreads a
 * minute's runs over more of its window and so into more journal batches. {@code --jfr <file>}
 * records the measured minutes; {@code --count} counts the SQL of a run and of a window with
 * nothing due ({@link CountingJdbc}, which costs CPU of its own) (docs/performance.md, "CPU per
 * run"). What the journal's database wrote in the measured minutes is printed per run: the journal
 * plugin's write batches and H2's file writes (one a commit of the journal, the snapshot store or
 * the wake-up index) and their bytes.
 *
 * <pre>
 * java -cp "target/periscope.jar:target/test-classes:$(cat target/bench.classpath)" \
 *   io.periscope.bench.ScheduledRuns --watches 200 --minutes 10
 * </pre>
 */
public final class ScheduledRuns {
  private static final String PASSWORD = "scheduled-runs-passphrase";

  private ScheduledRuns() {}

  public static void main(String[] args) throws Exception {
    int watches = InProcessRuns.option(args, "--watches", 200);
    int warm = InProcessRuns.option(args, "--warm", 5);
    int minutes = InProcessRuns.option(args, "--minutes", 10);
    long window = InProcessRuns.option(args, "--window", 10) * 1000L;
    boolean count = List.of(args).contains("--count");
    Duration feedLatency = Duration.ofMillis(InProcessRuns.option(args, "--feed-latency-ms", 0));
    MutableClock clock =
        new MutableClock(Instant.now().truncatedTo(ChronoUnit.HOURS).plusSeconds(30));
    try (FakeUpstream upstream = new FakeUpstream(feedLatency, Duration.ZERO, true, 1)) {
      Config journal = TestJournals.embedded(Files.createTempDirectory("periscope-scheduled-runs"));
      Config config =
          ConfigFactory.parseMap(
                  Map.of(
                      "periscope.quotas.min-interval",
                      "1m",
                      "periscope.quotas.max-watches",
                      0,
                      "periscope.fetch.allow-private-networks",
                      true,
                      "periscope.model.base-url",
                      upstream.base() + "/v1",
                      "periscope.model.api-keys",
                      "sk-scheduled-runs-bench-0001"))
              .withFallback(count ? CountingJdbc.counted(journal) : journal)
              .resolve();
      try (InProcessService service = new InProcessService(config, clock)) {
        service.account("sam", "user", PASSWORD);
        String token = service.login("sam", PASSWORD);
        for (int i = 0; i < watches; i++) {
          String id = "quiet-" + i;
          String body =
              TestWatches.feedBody(
                  id,
                  upstream.staticFeedUrl(id),
                  "* * * * *",
                  List.of("webhook:" + upstream.hookUrl(id)));
          HttpResponse<String> created = service.call("POST", "/watches", token, body);
          while (created.statusCode() == 429) { // the owner's rate limit: its next minute
            clock.set(clock.instant().plusSeconds(60));
            created = service.call("POST", "/watches", token, body);
          }
          InProcessService.json(created, 201);
        }
        try (Connection db = TestJournals.connect(service.system.settings().config())) {
          Instant minute = clock.instant().truncatedTo(ChronoUnit.MINUTES);
          // the first minute judges the feed's one item; nothing-new from then on
          for (int i = 0; i <= warm; i++) {
            minute = minute.plusSeconds(60);
            minute(clock, db, minute, window);
          }
          InProcessRuns.Cpu idle = new InProcessRuns.Cpu(List.of("MockWebServer"));
          CountingJdbc.Counts idleCounts = CountingJdbc.counts();
          clock.set(minute.plusSeconds(30)); // nothing due until the next minute
          Thread.sleep(window * minutes / 2);
          double idleNanosPerWindow = idle.nanos() / (minutes / 2.0);
          System.out.print(
              "nothing due by thread, a window per run:\n" + idle.byThread(watches * minutes / 2));
          idleCounts = CountingJdbc.counts().minus(idleCounts);
          CountingJdbc.Counts counts = CountingJdbc.counts();
          Written written = Written.of(service, db);
          AutoCloseable recording = InProcessRuns.record(args);
          InProcessRuns.Cpu cpu = new InProcessRuns.Cpu(List.of("MockWebServer"));
          long late = 0;
          for (int i = 0; i < minutes; i++) {
            minute = minute.plusSeconds(60);
            late += minute(clock, db, minute, window);
          }
          long nanos = cpu.nanos();
          int runs = watches * minutes;
          String jitAndGc = cpu.jitAndGc(runs);
          System.out.print("measured minutes by thread:\n" + cpu.byThread(runs));
          recording.close();
          System.out.println(Written.of(service, db).since(written, runs));
          if (count) {
            counts = CountingJdbc.counts().minus(counts);
            System.out.println(
                "nothing due, per window: " + idleCounts.perRun(Math.max(1, minutes / 2)));
            System.out.println("measured minutes, per run: " + counts.perRun(runs));
          }
          System.out.println(
              InProcessRuns.format(
                  "scheduled nothing-new runs=%d cpu-ms-per-run=%.3f idle-cpu-ms-per-window=%.1f"
                      + " marginal-ms-per-run=%.3f windows-overrun-ms=%d load-average=%.2f %s",
                  runs,
                  nanos / 1e6 / runs,
                  idleNanosPerWindow / 1e6,
                  (nanos - idleNanosPerWindow * minutes) / 1e6 / runs,
                  late,
                  InProcessRuns.Cpu.loadAverage(),
                  jitAndGc));
        }
      }
    }
  }

  /** The journal plugin's write batches and H2's file writes and bytes, so far. */
  private record Written(long batches, long fileWrites, long fileBytes) {
    static Written of(InProcessService service, Connection db) throws Exception {
      var timer =
          Metrics.get(service.system)
              .registry()
              .find("periscope.journal.write")
              .tag("result", "ok")
              .timer();
      long writes = 0;
      long bytes = 0;
      try (PreparedStatement settings =
              db.prepareStatement(
                  "SELECT setting_name, setting_value FROM information_schema.settings"
                      + " WHERE setting_name IN ('info.FILE_WRITE', 'info.FILE_WRITE_BYTES')");
          ResultSet r = settings.executeQuery()) {
        while (r.next()) {
          if (r.getString(1).equals("info.FILE_WRITE")) writes = Long.parseLong(r.getString(2));
          else bytes = Long.parseLong(r.getString(2));
        }
      }
      return new Written(timer == null ? 0 : timer.count(), writes, bytes);
    }

    String since(Written start, int runs) {
      return InProcessRuns.format(
          "written per run: journal-batches=%.3f h2-file-writes=%.3f h2-file-bytes=%.0f",
          (batches - start.batches) / (double) runs,
          (fileWrites - start.fileWrites) / (double) runs,
          (fileBytes - start.fileBytes) / (double) runs);
    }
  }

  /**
   * Moves the clock into {@code minute}, waits for every watch's next fire time to be in the index
   * and then for the rest of the window.
   *
   * @return how long past the window the index took
   */
  private static long minute(MutableClock clock, Connection db, Instant minute, long window)
      throws Exception {
    long start = System.currentTimeMillis();
    clock.set(minute.plusSeconds(5));
    try (PreparedStatement due =
        db.prepareStatement("SELECT COUNT(*) FROM periscope_wakeups WHERE due_at <= ?")) {
      due.setLong(1, minute.plusSeconds(5).toEpochMilli());
      while (true) {
        try (ResultSet rs = due.executeQuery()) {
          rs.next();
          if (rs.getLong(1) == 0) break;
        }
        if (System.currentTimeMillis() - start > 120_000)
          throw new IllegalStateException("watches still due after two minutes");
        Thread.sleep(500);
      }
    }
    long left = window - (System.currentTimeMillis() - start);
    if (left > 0) Thread.sleep(left);
    return Math.max(0, -left);
  }
}
