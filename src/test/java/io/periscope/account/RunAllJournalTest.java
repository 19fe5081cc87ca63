package io.periscope.account;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.typesafe.config.Config;
import io.periscope.persistence.JournalSchema;
import io.periscope.run.RunAllJob;
import io.periscope.run.RunAllResult;
import io.periscope.run.RunAllWatches;
import io.periscope.testing.JobsInFlight;
import io.periscope.testing.TestJournals;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.SerializationTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.pattern.StatusReply;
import org.junit.Test;

/**
 * Run-all jobs on the real journals: a finished job's outcomes survive a restart of the actor
 * system, a job its system died under ends with each unrun watch saying so, and the jobs kept are
 * bounded.
 */
public class RunAllJournalTest {

  @Test
  public void jobsSurviveARestartOnH2() throws Exception {
    jobsSurviveARestart(TestJournals.h2());
  }

  @Test
  public void jobsSurviveARestartOnPostgres() throws Exception {
    jobsSurviveARestart(TestJournals.postgres());
  }

  private static RunAllResult.WatchOutcome failed(String watchId, String why) {
    return new RunAllResult.WatchOutcome(watchId, RunAllResult.FAILED, null, why);
  }

  private void jobsSurviveARestart(Config journal) throws Exception {
    String owner = "o-" + UUID.randomUUID();
    var inFlight = new JobsInFlight<RunAllWatches.Progress, RunAllResult>();
    RunAllWatches runAll = (o, ids, progress) -> inFlight.started(progress);

    ActorTestKit first = ActorTestKit.create(journal);
    String finishedJob;
    String interruptedJob;
    RunAllResult.WatchOutcome a = failed("a", "slow");
    RunAllResult.WatchOutcome b = failed("b", "slower");
    try {
      JournalSchema.create(first.system());
      var entity = spawn(first, owner, runAll);
      finishedJob = start(first, entity, List.of("a", "b"));
      var run = inFlight.awaitStarted();
      run.progress().listed(2);
      run.progress().finished(a);
      run.result().complete(RunAllResult.of(List.of(a, b)));
      awaitStatus(first, entity, finishedJob, RunAllJob.DONE);

      interruptedJob = start(first, entity, List.of("a", "b", "c"));
      run = inFlight.awaitStarted();
      run.progress().listed(3);
      run.progress().finished(a);
      for (int i = 0; i < 300 && job(first, entity, interruptedJob).outcomes().isEmpty(); i++)
        Thread.sleep(10);
    } finally {
      first.shutdownTestKit(); // the node dies with the second run-all in flight
    }

    ActorTestKit second = ActorTestKit.create(journal);
    try {
      var entity = spawn(second, owner, runAll);
      RunAllJob done = job(second, entity, finishedJob);
      assertEquals(RunAllJob.DONE, done.status());
      assertEquals(List.of(a, b), done.outcomes());
      assertEquals(RunAllResult.of(List.of(a, b)).summary(), done.summary());

      RunAllJob interrupted = job(second, entity, interruptedJob);
      assertEquals(RunAllJob.FAILED, interrupted.status());
      assertEquals(RunAllEntity.RUN_ALL_INTERRUPTED, interrupted.error());
      assertEquals(
          List.of(
              a,
              failed("b", RunAllEntity.RUN_ALL_INTERRUPTED),
              failed("c", RunAllEntity.RUN_ALL_INTERRUPTED)),
          interrupted.outcomes());
      // the snapshot a long job's events lead to reads back as it was written
      new SerializationTestKit(second.system())
          .verifySerialization(
              new RunAllEntity.State(List.of(done, interrupted), List.of("a", "b")), true);

      // the bound: the newest JOBS_KEPT jobs, the oldest forgotten
      List<String> later =
          inFlight.runInTurn(
              RunAllEntity.JOBS_KEPT,
              () -> start(second, entity, List.of()),
              RunAllResult.of(List.of()),
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
  public void aFinishedJobIsForgottenAfterItsKeepingTime() throws Exception {
    ActorTestKit kit = ActorTestKit.create(TestJournals.h2());
    try {
      JournalSchema.create(kit.system());
      var inFlight = new JobsInFlight<RunAllWatches.Progress, RunAllResult>();
      var entity =
          kit.spawn(
              RunAllEntity.create(
                  "t-" + UUID.randomUUID(),
                  (o, ids, progress) -> inFlight.started(progress),
                  kit.createTestProbe(RunAllEntity.Command.class).ref(),
                  Duration.ofMinutes(1),
                  Duration.ofMillis(500)));
      String id = start(kit, entity, List.of());
      inFlight.awaitStarted().result().complete(RunAllResult.of(List.of()));
      awaitStatus(kit, entity, id, RunAllJob.DONE);
      Thread.sleep(600);
      assertEquals(RunAllEntity.NO_SUCH_JOB, read(kit, entity, id).getError().getMessage());
    } finally {
      kit.shutdownTestKit();
    }
  }

  private static ActorRef<RunAllEntity.Command> spawn(
      ActorTestKit kit, String owner, RunAllWatches runAll) {
    return kit.spawn(
        RunAllEntity.create(
            owner,
            runAll,
            kit.createTestProbe(RunAllEntity.Command.class).ref(),
            Duration.ofMinutes(1),
            Duration.ofDays(1)));
  }

  private static String start(
      ActorTestKit kit, ActorRef<RunAllEntity.Command> entity, List<String> watchIds) {
    TestProbe<StatusReply<RunAllJob>> started = kit.createTestProbe();
    entity.tell(new RunAllEntity.StartRunAll(watchIds, started.ref()));
    return started.receiveMessage(Duration.ofSeconds(10)).getValue().id();
  }

  private static StatusReply<RunAllJob> read(
      ActorTestKit kit, ActorRef<RunAllEntity.Command> entity, String jobId) {
    TestProbe<StatusReply<RunAllJob>> read = kit.createTestProbe();
    entity.tell(new RunAllEntity.GetRunAllJob(jobId, read.ref()));
    return read.receiveMessage(Duration.ofSeconds(10));
  }

  private static RunAllJob job(
      ActorTestKit kit, ActorRef<RunAllEntity.Command> entity, String jobId) {
    return read(kit, entity, jobId).getValue();
  }

  private static void awaitStatus(
      ActorTestKit kit, ActorRef<RunAllEntity.Command> entity, String jobId, String status)
      throws InterruptedException {
    JobsInFlight.awaitStatus(() -> job(kit, entity, jobId).status(), status);
  }
}
