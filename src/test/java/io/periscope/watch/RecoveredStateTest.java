package io.periscope.watch;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotSame;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

import io.periscope.notify.Delivery;
import io.periscope.testing.EntityTestKits;
import io.periscope.testing.FakePipeline;
import io.periscope.testing.TestWatches;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJunitResource;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * A watch's state as its commands left it is the state its journal gives, replayed from the first
 * event and from its newest snapshot: the event handler takes the states the command handler
 * foresaw ({@link ForeseenStates}), and the runs a run adds share their array ({@link RecentRuns}).
 */
public class RecoveredStateTest {
  @ClassRule
  public static final TestKitJunitResource testKit =
      new TestKitJunitResource(EntityTestKits.config());

  private static final String HOOK = "webhook:https://example.org/h";

  /**
   * Runs that find nothing new, new items, alerts delivered or failing for good, and failures in a
   * row that tell the owner.
   */
  private static FakePipeline mixed() {
    AtomicInteger runs = new AtomicInteger();
    AtomicInteger attempts = new AtomicInteger();
    return new FakePipeline()
        .answers(
            call -> {
              int n = runs.incrementAndGet();
              if (n % 7 == 0) return FakePipeline.alerting(List.of(HOOK), Instant.now());
              if (n % 23 > 19) return FakePipeline.answer(RunRecord.ERROR);
              if (n % 3 == 0)
                return new RunPipeline.Outcome(
                    FakePipeline.record(RunRecord.NO_MATCH),
                    List.of("item-" + n),
                    null,
                    Map.of("rss:" + n % 5, Instant.now()));
              return FakePipeline.answer(RunRecord.NOTHING_NEW);
            })
        .delivers(
            (channel, alert) ->
                CompletableFuture.completedFuture(
                    List.of(
                        attempts.incrementAndGet() % 3 == 0
                            ? Delivery.failed(channel, "HTTP 404")
                            : Delivery.delivered(channel))));
  }

  @Test
  public void aWatchRunPastItsKeptRunsRecoversTheStateItsCommandsLeft() {
    String entityId = "alice:" + UUID.randomUUID();
    EventSourcedBehaviorTestKit<WatchEntity.Command, WatchEntity.Event, WatchEntity.State> entity =
        EventSourcedBehaviorTestKit.create(
            testKit.system(),
            WatchEntity.create(entityId, mixed(), Clock.systemUTC()),
            EventSourcedBehaviorTestKit.enabledSerializationSettings().withVerifyEquality(true));
    entity.<StatusReply<Watch>>runCommand(
        r ->
            new WatchEntity.Create(
                TestWatches.acme("Acme", null).withChannels(List.of(HOOK)), null, null, r));
    int runs = WatchEntity.RECENT_RUNS + 2 * RecentRuns.ROOM + 5;
    for (int i = 0; i < runs; i++)
      assertTrue(
          entity
              .<StatusReply<RunRecord>>runCommand(
                  r -> new WatchEntity.Run(RunRecord.TRIGGER_MANUAL, r))
              .reply()
              .isSuccess());
    WatchEntity.State live = entity.getState();
    assertEquals(WatchEntity.RECENT_RUNS, live.recentRuns().size());

    String pid = PersistenceId.of(WatchEntity.TYPE_KEY.name(), entityId).id();
    List<Object> journal = entity.persistenceTestKit().persistedInStorage(pid);
    assertTrue(
        "the owner was told",
        journal.stream().anyMatch(WatchEntity.OwnerNoticed.class::isInstance));
    assertTrue(
        "alerts were delivered",
        journal.stream().anyMatch(WatchEntity.AlertDelivered.class::isInstance));
    WatchEntity.State replayed = WatchEntity.State.EMPTY;
    for (Object event : journal) replayed = WatchEvents.apply(replayed, (WatchEntity.Event) event);
    assertEquals("from the first event", live, replayed);

    assertFalse(
        "a snapshot was taken",
        entity.snapshotTestKit().orElseThrow().persistedInStorage(pid).isEmpty());
    WatchEntity.State recovered = entity.restart().state();
    assertEquals("from the newest snapshot", live, recovered);
    assertEquals(live.recentRuns(), recovered.recentRuns());
  }

  @Test
  public void theHandlerTakesTheForeseenStatesOfTheVeryEventsAndAppliesAnyOther() {
    Instant at = Instant.parse("2026-11-28T09:00:00Z");
    WatchEntity.Event created =
        new WatchEntity.Created(TestWatches.acme("Acme", null), at, at.plusSeconds(60), null, null);
    WatchEntity.Event ran =
        new WatchEntity.RunRecorded(
            FakePipeline.record(RunRecord.NOTHING_NEW), List.of(), Map.of(), null);
    WatchEntity.State first = WatchEvents.apply(WatchEntity.State.EMPTY, created);
    WatchEntity.State second = WatchEvents.apply(first, ran);
    ForeseenStates handler = new ForeseenStates();

    handler.foresee(WatchEntity.State.EMPTY, List.of(created, ran), List.of(first, second));
    assertSame(first, handler.apply(WatchEntity.State.EMPTY, created));
    assertSame(second, handler.apply(first, ran));
    WatchEntity.State again = handler.apply(first, ran);
    assertNotSame("used once: applied", second, again);
    assertEquals(second, again);

    handler.foresee(WatchEntity.State.EMPTY, List.of(created, ran), List.of(first, second));
    WatchEntity.State equalNotSame = WatchEntity.State.EMPTY.withNextFire(null);
    assertNotSame(WatchEntity.State.EMPTY, equalNotSame);
    WatchEntity.State applied = handler.apply(equalNotSame, created);
    assertNotSame("another state object: applied", first, applied);
    assertEquals(first, applied);
    assertNotSame("forgotten after a miss", second, handler.apply(first, ran));
  }
}
