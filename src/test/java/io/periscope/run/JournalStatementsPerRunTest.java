package io.periscope.run;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.typesafe.config.Config;
import io.periscope.testing.ClockedRuns;
import io.periscope.testing.CountingJdbc;
import io.periscope.testing.CountingJdbc.Counts;
import io.periscope.testing.ScratchDatabase;
import io.periscope.testing.TestJournals;
import java.nio.file.Files;
import java.time.Instant;
import java.util.List;
import org.junit.Test;

/**
 * The SQL one scheduled run costs, counted at the JDBC driver ({@link CountingJdbc}) through the
 * whole service, on both journals: round trips (a statement, a batch, a commit, a validity check)
 * and statements, by their SQL. A judged and alerted run and a nothing-new run are measured one at
 * a time (one watch due a minute). What a node with nothing due runs by itself over as long (the
 * read journal's and the wake-up poller's polls) is counted apart and left out of the run's; the
 * counts are a guard against a run asking more of its database than it must (docs/performance.md,
 * "Journal writes per run").
 */
public class JournalStatementsPerRunTest {
  /** Measured runs of each kind. */
  private static final int RUNS = 3;

  /** How long a run is measured for: the key pool writes its uses within 5 s. */
  private static final long SETTLE_MILLIS = 6_000;

  /** What a node does to its database in a run's measuring window, and what the run does. */
  private record PerRun(Counts judged, Counts quiet, Counts idle) {}

  private interface Run {
    void run() throws Exception;
  }

  private Counts measured(Run run) throws Exception {
    Counts start = CountingJdbc.counts();
    run.run();
    Thread.sleep(SETTLE_MILLIS);
    return CountingJdbc.counts().minus(start);
  }

  private PerRun measure(Config journal, String name) throws Exception {
    try (ClockedRuns runs = new ClockedRuns(CountingJdbc.counted(journal))) {
      Instant hour = runs.hour();
      runs.create("judged", runs.upstream.feedUrl("judged"), "*/2 * * * *"); // even minutes
      runs.create("quiet", runs.upstream.staticFeedUrl("quiet"), "1-59/2 * * * *"); // odd minutes
      // The first run of each: the static feed's one item is judged once; nothing-new from then on.
      String quietBefore = runs.run("quiet", hour.plusSeconds(60), null, "alert");
      String judgedBefore = runs.run("judged", hour.plusSeconds(120), null, "alert");
      Thread.sleep(SETTLE_MILLIS);
      // Nothing due (the next run is at minute 3): the node's own polls over a run's window.
      runs.clock.set(hour.plusSeconds(150));
      Counts idle = measured(() -> {});
      Counts judged = Counts.NONE;
      Counts quiet = Counts.NONE;
      for (int i = 0; i < RUNS; i++) {
        Instant odd = hour.plusSeconds(60L * (3 + 2 * i));
        String[] ids = new String[2];
        String q = quietBefore;
        String j = judgedBefore;
        quiet = quiet.plus(measured(() -> ids[0] = runs.run("quiet", odd, q, "nothing-new")));
        judged =
            judged.plus(
                measured(() -> ids[1] = runs.run("judged", odd.plusSeconds(60), j, "alert")));
        quietBefore = ids[0];
        judgedBefore = ids[1];
      }
      assertEquals(
          RUNS + 1,
          runs.upstream.alerts().stream().filter(a -> a.watchId().equals("judged")).count());
      PerRun perRun = new PerRun(judged.without(idle), quiet.without(idle), idle);
      System.out.println(name + ", nothing due, " + SETTLE_MILLIS + " ms: " + idle.perRun(1));
      System.out.println(name + ", judged and alerted run: " + perRun.judged().perRun(RUNS));
      System.out.println(name + ", nothing-new run: " + perRun.quiet().perRun(RUNS));
      return perRun;
    }
  }

  /**
   * What every run on either journal keeps to: nothing read (the entities answer from memory), a
   * journal statement a persist, and the wake-up projection's index rows and offset, one
   * transaction a group of events (a judged run's two persists may fall in two groups).
   */
  private static void assertRunsAskOnlyWhatTheyMust(PerRun perRun, int judgedInserts) {
    Counts judged = perRun.judged();
    Counts quiet = perRun.quiet();
    for (Counts run : List.of(judged, quiet)) assertEquals(run.perRun(RUNS), 0, run.reads());
    assertEquals(quiet.perRun(RUNS), RUNS, quiet.statementsOf("periscope_wakeups"));
    assertEquals(quiet.perRun(RUNS), RUNS, quiet.statementsOf("pekko_projection_offset_store"));
    long groups = judged.statementsOf("pekko_projection_offset_store");
    assertTrue(judged.perRun(RUNS), groups >= RUNS && groups <= 2L * RUNS);
    assertEquals(judged.perRun(RUNS), groups, judged.tripsOf("batch: update periscope_wakeups"));
    assertEquals(judged.perRun(RUNS), (long) judgedInserts * RUNS, judged.tripsOf("event_journal"));
  }

  @Test
  public void onTheEmbeddedJournal() throws Exception {
    PerRun perRun =
        measure(
            TestJournals.embedded(Files.createTempDirectory("periscope-journal-statements")), "H2");
    assertRunsAskOnlyWhatTheyMust(perRun, 8);
    // a commit a persist, and the projection's
    Counts judged = perRun.judged();
    assertEquals(
        judged.perRun(RUNS),
        5L * RUNS + judged.statementsOf("pekko_projection_offset_store"),
        judged.tripsOf("commit on"));
    assertEquals(perRun.quiet().perRun(RUNS), 2L * RUNS, perRun.quiet().tripsOf("commit on"));
  }

  @Test
  public void onPostgres() throws Exception {
    try (ScratchDatabase database = ScratchDatabase.create("periscope_statements")) {
      PerRun perRun = measure(TestJournals.postgres(database), "PostgreSQL");
      assertRunsAskOnlyWhatTheyMust(perRun, 5);
      // each persist one autocommitted statement (events and tags), the projection a commit a group
      Counts judged = perRun.judged();
      assertEquals(
          judged.perRun(RUNS),
          judged.statementsOf("pekko_projection_offset_store"),
          judged.tripsOf("commit on"));
      assertEquals(perRun.quiet().perRun(RUNS), 1L * RUNS, perRun.quiet().tripsOf("commit on"));
    }
  }
}
