package io.periscope.account;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.periscope.entity.Asks;
import io.periscope.entity.Failures;
import io.periscope.entity.Refusal;
import io.periscope.run.RunAllJob;
import io.periscope.run.RunAllResult;
import io.periscope.run.RunAllWatches;
import io.periscope.testing.EntityTestKits;
import io.periscope.testing.NodeDeath;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJunitResource;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.pattern.StatusReply;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * The run-all entity as run-all's serializer: one in flight per owner, and nobody left waiting or
 * refused.
 */
public class RunAllSerializationTest {
  @ClassRule
  public static final TestKitJunitResource testKit =
      new TestKitJunitResource(EntityTestKits.config());

  private static final RunAllResult EMPTY = RunAllResult.of(List.of());

  /** Run-alls the test finishes by hand, per owner. */
  private final Map<String, CompletableFuture<RunAllResult>> inFlight = new ConcurrentHashMap<>();

  private final TestProbe<RunAllEntity.Command> shard = testKit.createTestProbe();

  private ActorRef<RunAllEntity.Command> owner(String id, Duration keepAliveEvery) {
    return owner(id, keepAliveEvery, Duration.ZERO);
  }

  /**
   * @param jobsKeptFor how long a finished job can still be read
   */
  private ActorRef<RunAllEntity.Command> owner(
      String id, Duration keepAliveEvery, Duration jobsKeptFor) {
    return testKit.spawn(
        RunAllEntity.create(
            id,
            (owner, ids, progress) ->
                inFlight.computeIfAbsent(owner, o -> new CompletableFuture<>()),
            shard.ref(),
            keepAliveEvery,
            jobsKeptFor));
  }

  /**
   * The run-all the owner started, once it has (the command reaches the entity after its recovery).
   */
  private CompletableFuture<RunAllResult> started(String id) throws InterruptedException {
    for (int i = 0; i < 300 && !inFlight.containsKey(id); i++) Thread.sleep(10);
    CompletableFuture<RunAllResult> run = inFlight.remove(id);
    if (run == null) throw new AssertionError("the run-all of " + id + " did not start");
    return run;
  }

  /**
   * A run-all as the synchronous route asks for it: started, then awaited. The probe gets the
   * refusal to start, or the finished job.
   */
  private TestProbe<StatusReply<RunAllJob>> runAll(ActorRef<RunAllEntity.Command> owner) {
    TestProbe<StatusReply<RunAllJob>> started = testKit.createTestProbe();
    owner.tell(new RunAllEntity.StartRunAll(List.of(), started.ref()));
    StatusReply<RunAllJob> start = started.receiveMessage();
    TestProbe<StatusReply<RunAllJob>> probe = testKit.createTestProbe();
    if (start.isError()) probe.ref().tell(start);
    else owner.tell(new RunAllEntity.AwaitRunAllJob(start.getValue().id(), probe.ref()));
    return probe;
  }

  @Test
  public void aSecondRunAllWhileOneIsInFlightIsRefusedAndAThirdAfterItIsAccepted()
      throws Exception {
    String id = "o-" + UUID.randomUUID();
    var owner = owner(id, Duration.ofMinutes(1));
    var first = runAll(owner);
    var second = runAll(owner);
    StatusReply<RunAllJob> refused = second.receiveMessage();
    assertTrue(refused.isError());
    assertEquals(RunAllEntity.RUN_ALL_IN_FLIGHT, refused.getError().getMessage());
    first.expectNoMessage(Duration.ofMillis(100));

    started(id).complete(EMPTY);
    assertEquals(EMPTY, first.receiveMessage().getValue().result());
    var third = runAll(owner);
    started(id).complete(EMPTY);
    assertTrue(third.receiveMessage().isSuccess());
  }

  @Test
  public void anotherOwnersRunAllIsNotBlocked() throws Exception {
    String a = "a-" + UUID.randomUUID();
    String b = "b-" + UUID.randomUUID();
    var ownerA = owner(a, Duration.ofMinutes(1));
    var ownerB = owner(b, Duration.ofMinutes(1));
    var runA = runAll(ownerA);
    var runB = runAll(ownerB);
    started(b).complete(EMPTY);
    assertTrue(runB.receiveMessage().isSuccess());
    runA.expectNoMessage(Duration.ofMillis(100));
    started(a).complete(EMPTY);
    assertTrue(runA.receiveMessage().isSuccess());
  }

  @Test
  public void aFailedRunAllAnswersAnErrorAndFreesTheOwner() throws Exception {
    String id = "f-" + UUID.randomUUID();
    var owner = owner(id, Duration.ofMinutes(1));
    var first = runAll(owner);
    started(id).completeExceptionally(new IllegalStateException("boom"));
    RunAllJob failed = first.receiveMessage().getValue();
    assertEquals(RunAllJob.FAILED, failed.status());
    assertEquals(RunAllEntity.RUN_ALL_FAILED, failed.error());
    var next = runAll(owner);
    started(id).complete(EMPTY);
    assertTrue(next.receiveMessage().isSuccess());
  }

  @Test
  public void whileInFlightTheEntityKeepsItselfActiveThroughTheShardAndStopsAfterwards()
      throws Exception {
    String id = "k-" + UUID.randomUUID();
    var owner = owner(id, Duration.ofMillis(100));
    var run = runAll(owner);
    shard.expectMessageClass(RunAllEntity.KeepAlive.class);
    shard.expectMessageClass(RunAllEntity.KeepAlive.class);
    started(id).complete(EMPTY);
    assertTrue(run.receiveMessage().isSuccess());
    // at most the tick that raced the completion is still on its way; after it the keep-alive has
    // stopped
    try {
      shard.expectMessageClass(RunAllEntity.KeepAlive.class, Duration.ofMillis(150));
    } catch (AssertionError noneInFlight) {
      // fine: the last tick was before the completion
    }
    shard.expectNoMessage(Duration.ofMillis(400));
  }

  @Test
  public void anEntityStoppedMidRunAllTellsItsCallerAtOnce() throws Exception {
    String id = "s-" + UUID.randomUUID();
    var owner = owner(id, Duration.ofMinutes(1));
    var run = runAll(owner);
    started(id);
    // the await is in before the stop: a round trip after it
    TestProbe<StatusReply<RunAllJob>> listed = testKit.createTestProbe();
    owner.tell(new RunAllEntity.GetRunAllJob("none", listed.ref()));
    listed.receiveMessage();
    testKit.stop(owner);
    StatusReply<RunAllJob> reply = run.receiveMessage();
    assertTrue(reply.isError());
    // a new incarnation (another node after a crash or a handover) starts idle: not stuck refusing
    var again = runAll(owner(id, Duration.ofMinutes(1)));
    started(id).complete(EMPTY);
    assertTrue(again.receiveMessage().isSuccess());
  }

  @Test
  public void whoAwaitsARunAllHearsWhenItsEntitysNodeDied() throws Exception {
    String id = "d-" + UUID.randomUUID();
    // kept as in production: the survivor still answers the job it finished as interrupted
    var onTheDeadNode = owner(id, Duration.ofMinutes(1), RunAllJob.KEPT_FOR);
    TestProbe<StatusReply<RunAllJob>> started = testKit.createTestProbe();
    onTheDeadNode.tell(new RunAllEntity.StartRunAll(List.of(), started.ref()));
    String jobId = started.receiveMessage().getValue().id();
    started(id); // in flight, and never finished: its node died
    var sharding =
        testKit.spawn(
            NodeDeath.routing(onTheDeadNode, owner(id, Duration.ofMinutes(1), RunAllJob.KEPT_FOR)));
    OnDemandRuns runs =
        new OnDemandRuns(
            (owner, watchId) -> {
              throw new AssertionError("no watch is asked");
            },
            accountId -> {
              throw new AssertionError("no account is asked");
            },
            owner -> sharding,
            new Asks(testKit.system(), Duration.ofSeconds(3)),
            OnDemandRuns.Budgets.NONE);

    var awaited = runs.awaitRunAllJob(id, jobId, Duration.ofMinutes(2)).toCompletableFuture();

    ExecutionException failed =
        assertThrows(ExecutionException.class, () -> awaited.get(15, TimeUnit.SECONDS));
    Refusal refusal = (Refusal) Failures.unwrap(failed);
    assertEquals(Refusal.Kind.UNAVAILABLE, refusal.kind());
    assertEquals(RunAllEntity.RUN_ALL_INTERRUPTED, refusal.getMessage());
  }

  @Test
  public void anAsynchronousRunAllAnswersItsJobAtOnceAndTheJobFollowsTheRun() throws Exception {
    String id = "j-" + UUID.randomUUID();
    var progress = new java.util.concurrent.atomic.AtomicReference<RunAllWatches.Progress>();
    var run = new CompletableFuture<RunAllResult>();
    var owner =
        testKit.spawn(
            RunAllEntity.create(
                id,
                (o, ids, p) -> {
                  progress.set(p);
                  return run;
                },
                shard.ref(),
                Duration.ofMinutes(1),
                Duration.ofMinutes(1)));
    TestProbe<StatusReply<RunAllJob>> started = testKit.createTestProbe();
    owner.tell(new RunAllEntity.StartRunAll(List.of(), started.ref()));
    RunAllJob job = started.receiveMessage().getValue();
    assertEquals(RunAllJob.RUNNING, job.status());

    // the same 409 rule for both forms
    var sync = runAll(owner);
    assertEquals(RunAllEntity.RUN_ALL_IN_FLIGHT, sync.receiveMessage().getError().getMessage());
    TestProbe<StatusReply<RunAllJob>> awaiting = testKit.createTestProbe();
    owner.tell(new RunAllEntity.AwaitRunAllJob(job.id(), awaiting.ref()));
    owner.tell(new RunAllEntity.StartRunAll(List.of(), started.ref()));
    assertEquals(RunAllEntity.RUN_ALL_IN_FLIGHT, started.receiveMessage().getError().getMessage());

    for (int i = 0; i < 300 && progress.get() == null; i++) Thread.sleep(10);
    progress.get().listed(2);
    RunAllResult.WatchOutcome first =
        new RunAllResult.WatchOutcome("a", RunAllResult.FAILED, null, "slow");
    progress.get().finished(first);
    RunAllJob halfway = jobOf(owner, job.id());
    assertEquals(2, halfway.total());
    assertEquals(List.of(first), halfway.outcomes());
    assertEquals(RunAllJob.RUNNING, halfway.status());

    RunAllResult result =
        RunAllResult.of(
            List.of(first, new RunAllResult.WatchOutcome("b", RunAllResult.FAILED, null, "slow")));
    run.complete(result);
    RunAllJob done = null;
    for (int i = 0; i < 300 && (done == null || !done.finished()); i++) {
      Thread.sleep(10);
      done = jobOf(owner, job.id());
    }
    assertEquals(RunAllJob.DONE, done.status());
    assertEquals(result.summary(), done.summary());
    assertEquals(done, awaiting.receiveMessage().getValue());
    assertEquals(result.outcomes(), done.outcomes());

    TestProbe<StatusReply<RunAllJob>> unknown = testKit.createTestProbe();
    owner.tell(new RunAllEntity.GetRunAllJob("no-such-job", unknown.ref()));
    assertEquals(RunAllEntity.NO_SUCH_JOB, unknown.receiveMessage().getError().getMessage());
  }

  @Test
  public void aFailedAsynchronousRunAllLeavesAFailedJob() throws Exception {
    String id = "jf-" + UUID.randomUUID();
    var owner = owner(id, Duration.ofMinutes(1));
    TestProbe<StatusReply<RunAllJob>> started = testKit.createTestProbe();
    owner.tell(new RunAllEntity.StartRunAll(List.of(), started.ref()));
    RunAllJob job = started.receiveMessage().getValue();
    started(id).completeExceptionally(new IllegalStateException("boom"));
    TestProbe<StatusReply<RunAllJob>> read = testKit.createTestProbe();
    RunAllJob failed = null;
    for (int i = 0; i < 300 && (failed == null || !failed.finished()); i++) {
      Thread.sleep(10);
      owner.tell(new RunAllEntity.GetRunAllJob(job.id(), read.ref()));
      StatusReply<RunAllJob> reply = read.receiveMessage();
      // kept for no time at all in this test: it may be forgotten already
      if (reply.isError()) return;
      failed = reply.getValue();
    }
    assertEquals(RunAllJob.FAILED, failed.status());
    assertEquals(RunAllEntity.RUN_ALL_FAILED, failed.error());
  }

  private RunAllJob jobOf(ActorRef<RunAllEntity.Command> owner, String jobId) {
    TestProbe<StatusReply<RunAllJob>> read = testKit.createTestProbe();
    owner.tell(new RunAllEntity.GetRunAllJob(jobId, read.ref()));
    return read.receiveMessage().getValue();
  }
}
