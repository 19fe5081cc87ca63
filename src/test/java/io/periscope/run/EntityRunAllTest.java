package io.periscope.run;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import io.periscope.entity.Asks;
import io.periscope.notify.RepeatedAlerts;
import io.periscope.runtime.LocalEntities;
import io.periscope.testing.EntityTestKits;
import io.periscope.testing.FakePipeline;
import io.periscope.testing.LoggedAlerts;
import io.periscope.testing.RunRecordBuilder;
import io.periscope.watch.RunPipeline;
import io.periscope.watch.RunRecord;
import io.periscope.watch.Watch;
import io.periscope.watch.WatchEntity;
import io.periscope.watch.WatchSource;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJunitResource;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * Run-all through real watch entities: which watches run, in what order, how many at once, and the
 * summary.
 */
public class EntityRunAllTest {
  @ClassRule
  public static final TestKitJunitResource testKit =
      new TestKitJunitResource(EntityTestKits.config());

  private final Asks asks = new Asks(testKit.system(), Duration.ofSeconds(5));
  private final String owner = "o-" + UUID.randomUUID();

  private final AtomicInteger running = new AtomicInteger();
  private final AtomicInteger mostAtOnce = new AtomicInteger();

  /**
   * Runs that take a moment, counted as they overlap; the watch named "broken" fails, and the one
   * named "crashes-its-entity" stops its entity mid-run.
   */
  private final FakePipeline pipeline =
      new FakePipeline()
          .runs(
              call -> {
                Watch watch = call.watch();
                // a stand-in for anything that stops the entity mid-run: it fails on a null outcome
                if (watch.id().equals("crashes-its-entity"))
                  return CompletableFuture.completedFuture(null);
                mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
                return CompletableFuture.supplyAsync(
                    () -> {
                      running.decrementAndGet();
                      if (watch.id().equals("broken")) throw new IllegalStateException("boom");
                      return new RunPipeline.Outcome(
                          record(call.trigger(), watch.id().equals("notifies") ? 2 : 0), List.of());
                    },
                    CompletableFuture.delayedExecutor(100, TimeUnit.MILLISECONDS));
              });

  static RunRecord record(String trigger, int notified) {
    return new RunRecordBuilder()
        .trigger(trigger)
        .outcome(RunRecord.NO_MATCH)
        .notificationsSent(notified)
        .build();
  }

  private LocalEntities entities;

  private EntityRunAll runAllOver(int concurrency, String... enabledThenDisabled) throws Exception {
    entities = new LocalEntities(testKit.system());
    EntityRunAll runAll =
        new EntityRunAll(
            testKit.system(),
            entities,
            asks,
            concurrency,
            new RepeatedAlerts(
                LoggedAlerts.create(), java.time.Clock.systemUTC(), Duration.ofHours(1)));
    entities.start(
        pipeline, runAll, (candidate, runs, progress) -> null, java.time.Clock.systemUTC());
    for (String id : enabledThenDisabled) {
      boolean enabled = !id.startsWith("off");
      Watch w =
          new Watch(
              id,
              owner,
              id,
              List.of(new WatchSource(WatchSource.RSS, "https://example.org/feed", null, null)),
              "0 * * * *",
              "anything",
              List.of(),
              0.8,
              null,
              enabled,
              "UTC");
      asks.<WatchEntity.Command, Watch>ask(
              entities.watch(owner, id), r -> new WatchEntity.Create(w, null, null, r))
          .toCompletableFuture()
          .get(5, TimeUnit.SECONDS);
    }
    return runAll;
  }

  private RunAllResult runAll(EntityRunAll runAll, String... ids) throws Exception {
    return runAll
        .run(owner, List.of(ids), RunAllWatches.Progress.NONE)
        .toCompletableFuture()
        .get(20, TimeUnit.SECONDS);
  }

  @Test
  public void runsTheEnabledWatchesOneAtATimeInOrderAndSkipsTheDisabled() throws Exception {
    EntityRunAll runAll = runAllOver(1, "a", "off-b", "notifies", "broken");
    RunAllResult result = runAll(runAll, "a", "off-b", "notifies", "broken", "never-created");

    assertEquals(new RunAllResult.Summary(4, 2, 1, 1, 1, 2), result.summary());
    assertEquals(
        List.of("a", "off-b", "notifies", "broken"),
        result.outcomes().stream().map(RunAllResult.WatchOutcome::watchId).toList());
    assertEquals(
        List.of("ran", "skipped", "ran", "failed"),
        result.outcomes().stream().map(RunAllResult.WatchOutcome::status).toList());
    assertNull(result.outcomes().get(1).record());
    assertEquals(RunRecord.TRIGGER_RUN_ALL, result.outcomes().get(0).record().trigger());
    // a crashed run is still recorded by its entity, as an error
    assertEquals(RunRecord.ERROR, result.outcomes().get(3).record().outcome());
    assertEquals(1, mostAtOnce.get());
  }

  @Test
  public void aWatchThatStopsMidRunIsAnUnfinishedOutcomeAnsweredAtOnce() throws Exception {
    EntityRunAll runAll = runAllOver(1, "crashes-its-entity", "a");
    long began = System.nanoTime();
    RunAllResult result = runAll(runAll, "crashes-its-entity", "a");
    assertTrue(
        "answered at once, not at the run timeout",
        System.nanoTime() - began < Duration.ofSeconds(5).toNanos());
    assertEquals(
        List.of("failed", "ran"),
        result.outcomes().stream().map(RunAllResult.WatchOutcome::status).toList());
    assertEquals(
        "the run did not finish (the watch stopped or restarted during it)",
        result.outcomes().get(0).error());
  }

  @Test
  public void runNowOfAWatchThatStopsMidRunIsUnavailable() throws Exception {
    runAllOver(1, "crashes-its-entity");
    java.util.concurrent.ExecutionException failed =
        org.junit.Assert.assertThrows(
            java.util.concurrent.ExecutionException.class,
            () ->
                new io.periscope.account.OnDemandRuns(
                        entities::watch,
                        entities::account,
                        entities::runAll,
                        asks,
                        io.periscope.account.OnDemandRuns.Budgets.NONE)
                    .runNow(owner, "crashes-its-entity")
                    .toCompletableFuture()
                    .get(5, TimeUnit.SECONDS));
    io.periscope.entity.Refusal refusal = (io.periscope.entity.Refusal) failed.getCause();
    assertEquals(io.periscope.entity.Refusal.Kind.UNAVAILABLE, refusal.kind());
    assertEquals(WatchEntity.RUN_INTERRUPTED, refusal.getMessage());
  }

  @Test
  public void withConcurrencyRunsThatManyAtOnce() throws Exception {
    String[] ids = {"w1", "w2", "w3", "w4", "w5", "w6"};
    RunAllResult result = runAll(runAllOver(3, ids), ids);
    assertEquals(6, result.summary().ran());
    assertEquals(3, mostAtOnce.get());
    assertEquals(
        List.of(ids), result.outcomes().stream().map(RunAllResult.WatchOutcome::watchId).toList());
  }
}
