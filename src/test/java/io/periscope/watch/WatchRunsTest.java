package io.periscope.watch;

import static io.periscope.testing.FakePipeline.alertOf;
import static io.periscope.testing.FakePipeline.answer;
import static io.periscope.testing.FakePipeline.record;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.periscope.entity.Asks;
import io.periscope.notify.Delivery;
import io.periscope.testing.EntityTestKits;
import io.periscope.testing.FakePipeline;
import io.periscope.testing.NodeDeath;
import io.periscope.testing.TestWatches;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJunitResource;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.pattern.StatusReply;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * Runs through the watch entity: one at a time, recorded, and marking seen only what they judged.
 */
public class WatchRunsTest {
  @ClassRule
  public static final TestKitJunitResource testKit =
      new TestKitJunitResource(EntityTestKits.config());

  private final FakePipeline pipeline = new FakePipeline().holdRuns().holdDeliveries();
  private final String entityId = "alice:" + UUID.randomUUID();
  private ActorRef<WatchEntity.Command> entity = spawn();

  private ActorRef<WatchEntity.Command> spawn() {
    return testKit.spawn(WatchEntity.create(entityId, pipeline, java.time.Clock.systemUTC()));
  }

  static final String HOOK = "webhook:https://example.org/h";

  private void create() {
    TestWatches.create(testKit, entity, TestWatches.acme("Acme", null));
  }

  private TestProbe<StatusReply<RunRecord>> startRun() {
    TestProbe<StatusReply<RunRecord>> probe = testKit.createTestProbe();
    entity.tell(new WatchEntity.Run(RunRecord.TRIGGER_MANUAL, probe.ref()));
    return probe;
  }

  private List<RunRecord> history(int limit) {
    TestProbe<StatusReply<WatchEntity.Runs>> probe = testKit.createTestProbe();
    entity.tell(new WatchEntity.GetRuns(limit, probe.ref()));
    return probe.receiveMessage().getValue().runs();
  }

  /** What run {@code run} was told was seen. */
  private Set<String> seenByRun(int run) {
    return pipeline.calls.get(run).memory().seen();
  }

  private void awaitRuns(int count) {
    testKit
        .createTestProbe()
        .awaitAssert(
            Duration.ofSeconds(5),
            () -> {
              assertEquals(count, pipeline.heldRuns.size());
              return null;
            });
  }

  /**
   * Finishes run {@code run} with an alert to {@link #HOOK}, and waits until the entity made its
   * first attempt.
   */
  private void finishWithAlert(int run, List<String> newlySeen) {
    RunRecord record = record(RunRecord.ALERT);
    pipeline
        .heldRuns
        .get(run)
        .complete(
            new RunPipeline.Outcome(
                record,
                newlySeen,
                new RunPipeline.PendingAlert(List.of(HOOK), alertOf(record, Instant.now())),
                Map.of()));
    awaitAttempts(1);
  }

  private void awaitAttempts(int count) {
    testKit
        .createTestProbe()
        .awaitAssert(
            Duration.ofSeconds(5),
            () -> {
              assertEquals(count, pipeline.heldAttempts.size());
              return null;
            });
  }

  @Test
  public void aSecondRunWaitsForTheFirstAndSeesItsItemsAsSeen() {
    create();
    TestProbe<StatusReply<RunRecord>> first = startRun();
    TestProbe<StatusReply<RunRecord>> second = startRun();
    awaitRuns(1);
    second.expectNoMessage(Duration.ofMillis(200));
    assertEquals(
        "the second run has not started while the first is in flight", 1, pipeline.heldRuns.size());
    pipeline
        .heldRuns
        .get(0)
        .complete(new RunPipeline.Outcome(record(RunRecord.ALERT), List.of("item-1", "item-2")));
    assertEquals(RunRecord.ALERT, first.receiveMessage().getValue().outcome());
    awaitRuns(2);
    assertEquals(Set.of("item-1", "item-2"), seenByRun(1));
    pipeline.heldRuns.get(1).complete(answer(RunRecord.NOTHING_NEW));
    assertEquals(RunRecord.NOTHING_NEW, second.receiveMessage().getValue().outcome());
  }

  @Test
  public void historyIsNewestFirstBoundedByTheLimitAndOutlivesDelete() {
    create();
    List<String> outcomes = List.of(RunRecord.NO_MATCH, RunRecord.NOTHING_NEW, RunRecord.ALERT);
    for (int i = 0; i < outcomes.size(); i++) {
      TestProbe<StatusReply<RunRecord>> run = startRun();
      awaitRuns(i + 1);
      pipeline
          .heldRuns
          .get(i)
          .complete(new RunPipeline.Outcome(record(outcomes.get(i)), List.of()));
      run.receiveMessage();
    }
    assertEquals(
        List.of(RunRecord.ALERT, RunRecord.NOTHING_NEW, RunRecord.NO_MATCH),
        history(10).stream().map(RunRecord::outcome).toList());
    assertEquals(1, history(1).size());
    TestProbe<StatusReply<org.apache.pekko.Done>> deleted = testKit.createTestProbe();
    entity.tell(new WatchEntity.Delete(null, deleted.ref()));
    deleted.receiveMessage();
    assertEquals(3, history(10).size());
    assertTrue("a deleted watch cannot be run", startRun().receiveMessage().isError());
  }

  /**
   * Returns once the entity has taken the second run's command from its mailbox: a read sent after
   * it is answered after it. A command still in the mailbox when the entity stops is a dead letter
   * nobody could answer, which is not what these tests are about.
   */
  private void queuedBehindTheFirst() {
    history(1);
  }

  /** Each asker is answered, at once, that the run's outcome is not known. */
  @SafeVarargs
  private static void toldInterrupted(TestProbe<StatusReply<RunRecord>>... askers) {
    for (TestProbe<StatusReply<RunRecord>> asker : askers) {
      StatusReply<RunRecord> answer = asker.receiveMessage(Duration.ofSeconds(2));
      assertTrue(answer.isError());
      assertEquals(WatchEntity.RUN_INTERRUPTED, answer.getError().getMessage());
    }
  }

  @Test
  public void whoWaitsForARunIsToldWhenTheWatchStopsMidRun() {
    create();
    TestProbe<StatusReply<RunRecord>> first = startRun();
    TestProbe<StatusReply<RunRecord>> second = startRun();
    awaitRuns(1);
    queuedBehindTheFirst();
    testKit.stop(entity, Duration.ofSeconds(5));
    toldInterrupted(first, second);
  }

  @Test
  public void whoWaitsForARunIsToldWhenTheWatchRestartsMidRun() {
    entity =
        testKit.spawn(
            org.apache.pekko.actor.typed.javadsl.Behaviors.supervise(
                    WatchEntity.create(entityId, pipeline, java.time.Clock.systemUTC()))
                .onFailure(org.apache.pekko.actor.typed.SupervisorStrategy.restart()));
    create();
    TestProbe<StatusReply<RunRecord>> first = startRun();
    TestProbe<StatusReply<RunRecord>> second = startRun();
    awaitRuns(1);
    queuedBehindTheFirst();
    pipeline.heldRuns.get(0).complete(null); // the entity fails on it: a stand-in for any crash
    toldInterrupted(first, second);
    TestProbe<StatusReply<RunRecord>> again = startRun();
    awaitRuns(2);
    pipeline.heldRuns.get(1).complete(answer(RunRecord.NO_MATCH));
    assertEquals(
        "the restarted watch runs",
        RunRecord.NO_MATCH,
        again.receiveMessage().getValue().outcome());
  }

  /** A run asked of {@code watch} as run-now asks it, with time to spare. */
  private CompletableFuture<RunRecord> askedRun(ActorRef<WatchEntity.Command> watch) {
    return WatchRuns.askRun(
            new Asks(testKit.system(), Duration.ofSeconds(3)),
            watch,
            RunRecord.TRIGGER_MANUAL,
            Duration.ofMinutes(2))
        .toCompletableFuture();
  }

  @Test
  public void whoWaitsForARunHearsWhenTheWatchsNodeDiedMidRun() throws Exception {
    create();
    ActorRef<WatchEntity.Command> sharding =
        testKit.spawn(NodeDeath.routing(entity, spawn())); // the run reaches `entity`, then it dies
    var answer = askedRun(sharding);
    awaitRuns(1);

    ExecutionException failed =
        assertThrows(ExecutionException.class, () -> answer.get(15, TimeUnit.SECONDS));
    assertTrue(failed.getCause().toString(), WatchRuns.interrupted(failed.getCause()));
  }

  @Test
  public void aRunLongerThanTheProbesIsAnsweredWhileItsWatchLives() throws Exception {
    create();
    var answer = askedRun(entity);
    awaitRuns(1);
    Thread.sleep(8_000); // past a probe and its grace
    assertFalse(answer.isDone());
    pipeline.heldRuns.get(0).complete(answer(RunRecord.NO_MATCH));
    assertEquals(RunRecord.NO_MATCH, answer.get(5, TimeUnit.SECONDS).outcome());
  }

  @Test
  public void aFailingPipelineIsRecordedAsAnErrorThatMarksNothingSeen() {
    create();
    TestProbe<StatusReply<RunRecord>> run = startRun();
    awaitRuns(1);
    pipeline.heldRuns.get(0).completeExceptionally(new IllegalStateException("boom"));
    RunRecord failed = run.receiveMessage().getValue();
    assertEquals(RunRecord.ERROR, failed.outcome());
    startRun();
    awaitRuns(2);
    assertEquals(Set.of(), seenByRun(1));
  }

  @Test
  public void anAlertGoesOutOnlyOnceTheRunAndItsSeenItemsAreRecordedAndItsDeliveriesFollow() {
    create();
    TestProbe<StatusReply<RunRecord>> first = startRun();
    TestProbe<StatusReply<RunRecord>> second = startRun();
    awaitRuns(1);
    finishWithAlert(0, List.of("item-1"));
    assertEquals(
        "recorded before the alert went out, without deliveries yet",
        List.of(),
        history(1).get(0).deliveries());
    second.expectNoMessage(Duration.ofMillis(200));
    assertEquals("the next run waits for the first attempts", 1, pipeline.heldRuns.size());
    pipeline.heldAttempts.get(0).complete(List.of(Delivery.delivered(HOOK)));
    RunRecord done = first.receiveMessage().getValue();
    assertEquals(RunRecord.DeliveryRecord.DELIVERED, done.deliveries().get(0).state());
    assertEquals(1, done.deliveries().get(0).attempts().size());
    assertEquals(1, done.notificationsSent());
    assertEquals(1, history(1).get(0).notificationsSent());
    awaitRuns(2);
    assertEquals(Set.of("item-1"), seenByRun(1));
  }

  @Test
  public void aStopDuringDeliveryLeavesItOwedAndTheNextIncarnationDeliversIt() {
    create();
    startRun();
    awaitRuns(1);
    finishWithAlert(0, List.of("item-1"));
    testKit.stop(entity); // the node dies while the webhook has not answered
    entity = spawn();
    awaitAttempts(2);
    pipeline.heldAttempts.get(1).complete(List.of(Delivery.delivered(HOOK)));
    testKit
        .createTestProbe()
        .awaitAssert(
            Duration.ofSeconds(5),
            () -> {
              RunRecord.DeliveryRecord d = history(1).get(0).deliveries().get(0);
              assertEquals(RunRecord.DeliveryRecord.DELIVERED, d.state());
              assertTrue(d.ok());
              return null;
            });
    assertEquals("nothing was interrupted for good", List.of(), pipeline.interrupted);
    startRun();
    awaitRuns(2);
    assertEquals(
        "the next run does not judge (or alert) those items again", Set.of("item-1"), seenByRun(1));
    assertEquals("sent again once, by the new incarnation", 2, pipeline.heldAttempts.size());
  }

  @Test
  public void shardingsStopMessageWaitsForTheRunInFlight() {
    create();
    TestProbe<StatusReply<RunRecord>> run = startRun();
    awaitRuns(1);
    TestProbe<Object> watcher = testKit.createTestProbe();
    entity.tell(new WatchEntity.Stop());
    watcher.expectNoMessage(Duration.ofMillis(200));
    pipeline
        .heldRuns
        .get(0)
        .complete(new RunPipeline.Outcome(record(RunRecord.NO_MATCH), List.of("item-1")));
    assertEquals(RunRecord.NO_MATCH, run.receiveMessage().getValue().outcome());
    watcher.expectTerminated(entity, Duration.ofSeconds(5));
    entity = spawn();
    assertEquals(1, history(10).size());
  }

  @Test
  public void aWatchThatNeverExistedHasNoRunsAndCannotRun() {
    assertTrue(startRun().receiveMessage().isError());
    TestProbe<StatusReply<WatchEntity.Runs>> probe = testKit.createTestProbe();
    entity.tell(new WatchEntity.GetRuns(10, probe.ref()));
    assertTrue(probe.receiveMessage().isError());
  }

  private StatusReply<RunRecord> run(String runId) {
    TestProbe<StatusReply<RunRecord>> probe = testKit.createTestProbe();
    entity.tell(new WatchEntity.GetRun(runId, probe.ref()));
    return probe.receiveMessage();
  }

  @Test
  public void oneRecentRunIsFoundByIdWhileTheWatchExists() {
    assertEquals("watch not found", run("any").getError().getMessage());
    create();
    TestProbe<StatusReply<RunRecord>> started = startRun();
    awaitRuns(1);
    RunRecord record = record(RunRecord.ALERT);
    pipeline.heldRuns.get(0).complete(new RunPipeline.Outcome(record, List.of()));
    started.receiveMessage();
    assertEquals(record, run(record.runId()).getValue());
    assertEquals("run not found", run("no-such-run").getError().getMessage());
    TestProbe<StatusReply<org.apache.pekko.Done>> deleted = testKit.createTestProbe();
    entity.tell(new WatchEntity.Delete(null, deleted.ref()));
    deleted.receiveMessage();
    assertEquals("watch not found", run(record.runId()).getError().getMessage());
  }
}
