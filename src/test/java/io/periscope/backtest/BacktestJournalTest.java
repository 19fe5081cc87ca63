package io.periscope.backtest;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.typesafe.config.Config;
import io.periscope.entity.EntityRefusal;
import io.periscope.llm.ModelUsage;
import io.periscope.persistence.JournalSchema;
import io.periscope.run.RunAllJob;
import io.periscope.testing.JobsInFlight;
import io.periscope.testing.NeedsPostgres;
import io.periscope.testing.TestJournals;
import io.periscope.testing.TestWatches;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.SerializationTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.pattern.StatusReply;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * Backtest jobs on the real journals: a finished job's runs, summary and usage survive a restart of
 * the actor system (so any node answers them), a job its system died under ends as interrupted with
 * the runs it tried, one runs at a time per owner, a job is found under its own watch only, and the
 * jobs kept are bounded.
 */
public class BacktestJournalTest {

  @Test
  public void jobsSurviveARestartOnH2() throws Exception {
    jobsSurviveARestart(TestJournals.h2());
  }

  @Test
  @Category(NeedsPostgres.class)
  public void jobsSurviveARestartOnPostgres() throws Exception {
    jobsSurviveARestart(TestJournals.postgres());
  }

  private static Backtest.Replay replay(String runId, String recorded, String candidate) {
    return new Backtest.Replay(
        runId,
        Instant.parse("2026-11-01T10:00:00Z"),
        Backtest.REPLAYED,
        new Backtest.Judgement(recorded, 0.9, "recorded " + runId, "threshold"),
        new Backtest.Judgement(candidate, 0.4, "tried " + runId, "threshold"),
        !recorded.equals(candidate),
        List.of("https://example.org/" + runId),
        "useful",
        null);
  }

  private void jobsSurviveARestart(Config journal) throws Exception {
    String owner = "o-" + UUID.randomUUID();
    var inFlight = new JobsInFlight<Backtester.Progress, Backtest>();
    BacktestEntity.Runner runner = (watch, runs, progress) -> inFlight.started(progress);
    Backtest.Replay r2 = replay("r2", "alert", "no-alert");
    Backtest.Replay r1 = replay("r1", "no-alert", "no-alert");
    ModelUsage spent = new ModelUsage(2, 1200, 0, 80, new BigDecimal("0.0031"));
    Backtest result = Backtest.of(List.of(r2, r1), spent);

    ActorTestKit first = ActorTestKit.create(journal);
    String finishedJob;
    String interruptedJob;
    try {
      JournalSchema.create(first.system());
      var entity = spawn(first, owner, runner);
      finishedJob = start(first, entity, owner).getValue().id();
      var run = inFlight.awaitStarted();
      run.progress().listed(2);
      run.progress().tried(r2);
      // the second run is only in the result: the job still keeps it, after the first
      run.result().complete(result);
      awaitStatus(first, entity, finishedJob, RunAllJob.DONE);

      interruptedJob = start(first, entity, owner).getValue().id();
      run = inFlight.awaitStarted();
      assertEquals(
          BacktestEntity.ALREADY_RUNNING, start(first, entity, owner).getError().getMessage());
      run.progress().listed(2);
      run.progress().tried(r2);
      for (int i = 0; i < 300 && job(first, entity, interruptedJob).runs().isEmpty(); i++)
        Thread.sleep(10);
    } finally {
      first.shutdownTestKit(); // the node dies with the second backtest in flight
    }

    ActorTestKit second = ActorTestKit.create(journal);
    try {
      var entity = spawn(second, owner, runner);
      BacktestJob done = job(second, entity, finishedJob);
      assertEquals(RunAllJob.DONE, done.status());
      assertEquals("acme", done.watchId());
      assertEquals(List.of(r2, r1), done.runs());
      assertEquals(2, done.total());
      assertEquals(result.summary(), done.summary());
      assertEquals(spent, done.usage());

      BacktestJob interrupted = job(second, entity, interruptedJob);
      assertEquals(RunAllJob.FAILED, interrupted.status());
      assertEquals(BacktestEntity.INTERRUPTED, interrupted.error());
      assertEquals(List.of(r2), interrupted.runs());
      // a job is its watch's: another watch's id does not find it
      TestProbe<StatusReply<BacktestJob>> other = second.createTestProbe();
      entity.tell(new BacktestEntity.GetBacktestJob("other", finishedJob, other.ref()));
      StatusReply<BacktestJob> refused = other.receiveMessage(Duration.ofSeconds(10));
      assertTrue(EntityRefusal.is(refused.getError(), EntityRefusal.Code.NO_SUCH_JOB));
      // the snapshot a long job's events lead to reads back as it was written
      new SerializationTestKit(second.system())
          .verifySerialization(new BacktestEntity.State(List.of(done, interrupted)), true);

      // the bound: the newest JOBS_KEPT jobs, the oldest forgotten
      List<String> later =
          inFlight.runInTurn(
              BacktestEntity.JOBS_KEPT,
              () -> start(second, entity, owner).getValue().id(),
              Backtest.of(List.of(), ModelUsage.NONE),
              id -> job(second, entity, id).status(),
              RunAllJob.DONE);
      assertTrue(read(second, entity, finishedJob).isError());
      assertTrue(read(second, entity, interruptedJob).isError());
      for (String id : later) assertTrue(read(second, entity, id).isSuccess());
    } finally {
      second.shutdownTestKit();
    }
  }

  @Test
  public void aFailedBacktestSaysWhyAndAFinishedOneIsForgottenAfterItsKeepingTime()
      throws Exception {
    ActorTestKit kit = ActorTestKit.create(TestJournals.h2());
    try {
      JournalSchema.create(kit.system());
      String owner = "t-" + UUID.randomUUID();
      var inFlight = new JobsInFlight<Backtester.Progress, Backtest>();
      var entity =
          kit.spawn(
              BacktestEntity.create(
                  owner,
                  (watch, runs, progress) -> inFlight.started(progress),
                  kit.createTestProbe(BacktestEntity.Command.class).ref(),
                  Duration.ofMillis(500)));
      String id = start(kit, entity, owner).getValue().id();
      inFlight
          .awaitStarted()
          .result()
          .completeExceptionally(
              new io.periscope.entity.Refusal(
                  io.periscope.entity.Refusal.Kind.USED_UP, "the model calls of the day are used"));
      awaitStatus(kit, entity, id, RunAllJob.FAILED);
      assertEquals("the model calls of the day are used", job(kit, entity, id).error());
      Thread.sleep(600);
      assertEquals(BacktestEntity.NO_SUCH_JOB, read(kit, entity, id).getError().getMessage());
    } finally {
      kit.shutdownTestKit();
    }
  }

  private static ActorRef<BacktestEntity.Command> spawn(
      ActorTestKit kit, String owner, BacktestEntity.Runner runner) {
    return kit.spawn(
        BacktestEntity.create(
            owner,
            runner,
            kit.createTestProbe(BacktestEntity.Command.class).ref(),
            Duration.ofDays(1)));
  }

  private static StatusReply<BacktestJob> start(
      ActorTestKit kit, ActorRef<BacktestEntity.Command> entity, String owner) {
    TestProbe<StatusReply<BacktestJob>> started = kit.createTestProbe();
    entity.tell(
        new BacktestEntity.StartBacktest(
            TestWatches.onSources(owner, "acme", TestWatches.OFFICIAL_FEED), 20, started.ref()));
    return started.receiveMessage(Duration.ofSeconds(10));
  }

  private static StatusReply<BacktestJob> read(
      ActorTestKit kit, ActorRef<BacktestEntity.Command> entity, String jobId) {
    TestProbe<StatusReply<BacktestJob>> read = kit.createTestProbe();
    entity.tell(new BacktestEntity.GetBacktestJob("acme", jobId, read.ref()));
    return read.receiveMessage(Duration.ofSeconds(10));
  }

  private static BacktestJob job(
      ActorTestKit kit, ActorRef<BacktestEntity.Command> entity, String jobId) {
    return read(kit, entity, jobId).getValue();
  }

  private static void awaitStatus(
      ActorTestKit kit, ActorRef<BacktestEntity.Command> entity, String jobId, String status)
      throws InterruptedException {
    JobsInFlight.awaitStatus(() -> job(kit, entity, jobId).status(), status);
  }
}
