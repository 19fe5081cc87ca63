package io.periscope.watch;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.periscope.entity.Asks;
import io.periscope.notify.Alert;
import io.periscope.notify.Delivery;
import io.periscope.testing.EntityTestKits;
import io.periscope.testing.NodeDeath;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
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

  /**
   * A pipeline whose runs the test finishes by hand, and which remembers what each run was told was
   * seen.
   */
  static final class ScriptedPipeline implements RunPipeline {
    final List<Set<String>> seenByRun = new CopyOnWriteArrayList<>();
    final List<CompletableFuture<Outcome>> runs = new CopyOnWriteArrayList<>();

    /** The runs whose interrupted alert the operator was told about. */
    final List<String> interrupted = new CopyOnWriteArrayList<>();

    /** Each attempt to deliver an alert, which the test finishes by hand, in order. */
    final List<CompletableFuture<List<Delivery>>> attempts = new CopyOnWriteArrayList<>();

    /** The deliveries the operator was told failed for good. */
    final List<String> failed = new CopyOnWriteArrayList<>();

    @Override
    public CompletableFuture<List<Delivery>> deliver(String channel, Alert alert) {
      CompletableFuture<List<Delivery>> attempt = new CompletableFuture<>();
      attempts.add(attempt);
      return attempt;
    }

    @Override
    public void deliveryFailed(Alert alert, String channel, String reason) {
      failed.add(alert.id() + " " + channel);
    }

    @Override
    public CompletableFuture<Outcome> run(
        Watch watch, Memory memory, String trigger, Instant startedAt) {
      seenByRun.add(memory.seen());
      CompletableFuture<Outcome> run = new CompletableFuture<>();
      runs.add(run);
      return run;
    }

    @Override
    public void alertInterrupted(Watch watch, String runId, List<String> channels) {
      interrupted.add(runId);
    }
  }

  static RunRecord record(String outcome) {
    return new RunRecord(
        UUID.randomUUID().toString(),
        RunRecord.TRIGGER_MANUAL,
        Instant.now(),
        5,
        outcome,
        null,
        null,
        List.of(),
        null,
        List.of(),
        1,
        1,
        new RunRecord.Collection(1, 1, 1, 0),
        List.of(),
        null,
        List.of(),
        0,
        new RunRecord.Trimmed(0, 0),
        null,
        0,
        null,
        null,
        null);
  }

  private final ScriptedPipeline pipeline = new ScriptedPipeline();
  private final String entityId = "alice:" + UUID.randomUUID();
  private ActorRef<WatchEntity.Command> entity = spawn();

  private ActorRef<WatchEntity.Command> spawn() {
    return testKit.spawn(WatchEntity.create(entityId, pipeline, java.time.Clock.systemUTC()));
  }

  static final String HOOK = "webhook:https://example.org/h";

  /** The alert of the run {@code record}, decided at {@code at}, as the pipeline makes it. */
  static Alert alertOf(RunRecord record, Instant at) {
    return new Alert(
        "alice",
        "acme",
        "Acme",
        Alert.Strength.CONFIRMED,
        0.9,
        "Acme set a date.",
        List.of(),
        "Acme announces a launch date",
        at,
        record.runId());
  }

  private void create() {
    TestProbe<StatusReply<Watch>> probe = testKit.createTestProbe();
    entity.tell(
        new WatchEntity.Create(WatchEntityTest.watch("Acme", null), null, null, probe.ref()));
    assertTrue(probe.receiveMessage().isSuccess());
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

  private void awaitRuns(int count) {
    testKit
        .createTestProbe()
        .awaitAssert(
            Duration.ofSeconds(5),
            () -> {
              assertEquals(count, pipeline.runs.size());
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
        .runs
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
              assertEquals(count, pipeline.attempts.size());
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
        "the second run has not started while the first is in flight", 1, pipeline.runs.size());
    pipeline
        .runs
        .get(0)
        .complete(new RunPipeline.Outcome(record(RunRecord.ALERT), List.of("item-1", "item-2")));
    assertEquals(RunRecord.ALERT, first.receiveMessage().getValue().outcome());
    awaitRuns(2);
    assertEquals(Set.of("item-1", "item-2"), pipeline.seenByRun.get(1));
    pipeline
        .runs
        .get(1)
        .complete(new RunPipeline.Outcome(record(RunRecord.NOTHING_NEW), List.of()));
    assertEquals(RunRecord.NOTHING_NEW, second.receiveMessage().getValue().outcome());
  }

  @Test
  public void historyIsNewestFirstBoundedByTheLimitAndOutlivesDelete() {
    create();
    List<String> outcomes = List.of(RunRecord.NO_MATCH, RunRecord.NOTHING_NEW, RunRecord.ALERT);
    for (int i = 0; i < outcomes.size(); i++) {
      TestProbe<StatusReply<RunRecord>> run = startRun();
      awaitRuns(i + 1);
      pipeline.runs.get(i).complete(new RunPipeline.Outcome(record(outcomes.get(i)), List.of()));
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
    pipeline.runs.get(0).complete(null); // the entity fails on it: a stand-in for any crash
    toldInterrupted(first, second);
    TestProbe<StatusReply<RunRecord>> again = startRun();
    awaitRuns(2);
    pipeline.runs.get(1).complete(new RunPipeline.Outcome(record(RunRecord.NO_MATCH), List.of()));
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
    pipeline.runs.get(0).complete(new RunPipeline.Outcome(record(RunRecord.NO_MATCH), List.of()));
    assertEquals(RunRecord.NO_MATCH, answer.get(5, TimeUnit.SECONDS).outcome());
  }

  @Test
  public void aFailingPipelineIsRecordedAsAnErrorThatMarksNothingSeen() {
    create();
    TestProbe<StatusReply<RunRecord>> run = startRun();
    awaitRuns(1);
    pipeline.runs.get(0).completeExceptionally(new IllegalStateException("boom"));
    RunRecord failed = run.receiveMessage().getValue();
    assertEquals(RunRecord.ERROR, failed.outcome());
    startRun();
    awaitRuns(2);
    assertEquals(Set.of(), pipeline.seenByRun.get(1));
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
    assertEquals("the next run waits for the first attempts", 1, pipeline.runs.size());
    pipeline.attempts.get(0).complete(List.of(Delivery.delivered(HOOK)));
    RunRecord done = first.receiveMessage().getValue();
    assertEquals(RunRecord.DeliveryRecord.DELIVERED, done.deliveries().get(0).state());
    assertEquals(1, done.deliveries().get(0).attempts().size());
    assertEquals(1, done.notificationsSent());
    assertEquals(1, history(1).get(0).notificationsSent());
    awaitRuns(2);
    assertEquals(Set.of("item-1"), pipeline.seenByRun.get(1));
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
    pipeline.attempts.get(1).complete(List.of(Delivery.delivered(HOOK)));
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
        "the next run does not judge (or alert) those items again",
        Set.of("item-1"),
        pipeline.seenByRun.get(1));
    assertEquals("sent again once, by the new incarnation", 2, pipeline.attempts.size());
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
        .runs
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
    pipeline.runs.get(0).complete(new RunPipeline.Outcome(record, List.of()));
    started.receiveMessage();
    assertEquals(record, run(record.runId()).getValue());
    assertEquals("run not found", run("no-such-run").getError().getMessage());
    TestProbe<StatusReply<org.apache.pekko.Done>> deleted = testKit.createTestProbe();
    entity.tell(new WatchEntity.Delete(null, deleted.ref()));
    deleted.receiveMessage();
    assertEquals("watch not found", run(record.runId()).getError().getMessage());
  }
}
