package io.periscope.account;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.typesafe.config.Config;
import io.periscope.persistence.JournalSchema;
import io.periscope.run.RunAllJob;
import io.periscope.run.RunAllResult;
import io.periscope.run.RunAllWatches;
import io.periscope.testing.TestJournals;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
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

  /** The run-all in flight: its progress and its result, finished by the test. */
  private record InFlight(
      RunAllWatches.Progress progress, CompletableFuture<RunAllResult> result) {}

  private static RunAllResult.WatchOutcome failed(String watchId, String why) {
    return new RunAllResult.WatchOutcome(watchId, RunAllResult.FAILED, null, why);
  }

  private void jobsSurviveARestart(Config journal) throws Exception {
    String owner = "o-" + UUID.randomUUID();
    AtomicReference<InFlight> inFlight = new AtomicReference<>();
    RunAllWatches runAll =
        (o, ids, progress) -> {
          var result = new CompletableFuture<RunAllResult>();
          inFlight.set(new InFlight(progress, result));
          return result;
        };

    ActorTestKit first = ActorTestKit.create(journal);
    String finishedJob;
    String interruptedJob;
    RunAllResult.WatchOutcome a = failed("a", "slow");
    RunAllResult.WatchOutcome b = failed("b", "slower");
    try {
      JournalSchema.create(first.system());
      var entity = spawn(first, owner, runAll);
      finishedJob = start(first, entity, List.of("a", "b"));
      InFlight run = awaitStarted(inFlight);
      run.progress().listed(2);
      run.progress().finished(a);
      run.result().complete(RunAllResult.of(List.of(a, b)));
      awaitStatus(first, entity, finishedJob, RunAllJob.DONE);

      interruptedJob = start(first, entity, List.of("a", "b", "c"));
      run = awaitStarted(inFlight);
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
      List<String> later = new ArrayList<>();
      for (int i = 0; i < RunAllEntity.JOBS_KEPT; i++) {
        inFlight.set(null);
        String id = start(second, entity, List.of());
        awaitStarted(inFlight).result().complete(RunAllResult.of(List.of()));
        awaitStatus(second, entity, id, RunAllJob.DONE);
        later.add(id);
      }
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
      AtomicReference<InFlight> inFlight = new AtomicReference<>();
      var entity =
          kit.spawn(
              RunAllEntity.create(
                  "t-" + UUID.randomUUID(),
                  (o, ids, progress) -> {
                    var result = new CompletableFuture<RunAllResult>();
                    inFlight.set(new InFlight(progress, result));
                    return result;
                  },
                  kit.createTestProbe(RunAllEntity.Command.class).ref(),
                  Duration.ofMinutes(1),
                  Duration.ofMillis(500)));
      String id = start(kit, entity, List.of());
      awaitStarted(inFlight).result().complete(RunAllResult.of(List.of()));
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

  private static InFlight awaitStarted(AtomicReference<InFlight> inFlight)
      throws InterruptedException {
    for (int i = 0; i < 500 && inFlight.get() == null; i++) Thread.sleep(10);
    InFlight run = inFlight.getAndSet(null);
    if (run == null) throw new AssertionError("the run-all did not start");
    return run;
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
    for (int i = 0; i < 500 && !job(kit, entity, jobId).status().equals(status); i++)
      Thread.sleep(10);
    assertEquals(status, job(kit, entity, jobId).status());
  }
}
