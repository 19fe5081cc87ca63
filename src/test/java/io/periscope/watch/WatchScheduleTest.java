package io.periscope.watch;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import io.periscope.testing.EntityTestKits;
import io.periscope.testing.FakePipeline;
import io.periscope.testing.MutableClock;
import io.periscope.testing.TestWatches;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJunitResource;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import org.junit.Before;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * The watch entity's own schedule: its next fire time, which fires it accepts, and how the time
 * advances.
 */
public class WatchScheduleTest {
  @ClassRule
  public static final TestKitJunitResource testKit =
      new TestKitJunitResource(EntityTestKits.config());

  private static final String EVERY_SIX_HOURS = "0 */6 * * *";
  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-22T10:00:30Z"));
  private final AtomicInteger runs = new AtomicInteger();
  private volatile String lastTrigger;
  private EventSourcedBehaviorTestKit<WatchEntity.Command, WatchEntity.Event, WatchEntity.State>
      entity;

  @Before
  public void setUp() {
    FakePipeline pipeline =
        new FakePipeline()
            .answers(
                call -> {
                  lastTrigger = call.trigger();
                  runs.incrementAndGet();
                  return FakePipeline.answer(RunRecord.NOTHING_NEW);
                });
    entity =
        EventSourcedBehaviorTestKit.create(
            testKit.system(),
            WatchEntity.create("alice:acme", pipeline, clock),
            EventSourcedBehaviorTestKit.enabledSerializationSettings().withVerifyEquality(true));
  }

  private static Watch watch(String schedule, boolean enabled) {
    return watch(schedule, enabled, "UTC");
  }

  private static Watch watch(String schedule, boolean enabled, String timeZone) {
    Watch w = TestWatches.acme("Acme", null);
    return new Watch(
        w.id(),
        w.owner(),
        w.name(),
        w.sources(),
        schedule,
        w.condition(),
        w.channels(),
        w.threshold(),
        w.weakThreshold(),
        enabled,
        timeZone);
  }

  private void create(String schedule, boolean enabled) {
    assertTrue(
        entity
            .<StatusReply<Watch>>runCommand(
                r -> new WatchEntity.Create(watch(schedule, enabled), null, null, r))
            .reply()
            .isSuccess());
  }

  private void replace(String schedule, boolean enabled) {
    assertTrue(
        entity
            .<StatusReply<Watch>>runCommand(
                r -> new WatchEntity.Replace(watch(schedule, enabled), null, null, r))
            .reply()
            .isSuccess());
  }

  private Instant next() {
    return entity.getState().nextFireAt();
  }

  /** Sends a fire and waits until the run it may start is recorded. */
  private void fire(String due) throws InterruptedException {
    int before = entity.getState().recentRuns().size();
    int started = runs.get();
    entity.runCommand(new WatchEntity.Fire(Instant.parse(due)));
    if (runs.get() == started) Thread.sleep(200); // give a wrongly accepted fire the chance to show
    for (int i = 0;
        i < 100 && runs.get() > started && entity.getState().recentRuns().size() == before;
        i++) {
      Thread.sleep(20);
    }
  }

  @Test
  public void theFirstDueTimeIsTheFirstAfterTheCreate() {
    create(EVERY_SIX_HOURS, true);
    assertEquals(Instant.parse("2026-11-22T12:00:00Z"), next());
  }

  @Test
  public void aDisabledWatchHasNoDueTime() {
    create(EVERY_SIX_HOURS, false);
    assertNull(next());
  }

  @Test
  public void theFireForTheDueTimeRunsAndAdvancesFromTheDueTime() throws Exception {
    create(EVERY_SIX_HOURS, true);
    clock.set(Instant.parse("2026-11-22T12:00:40Z"));
    fire("2026-11-22T12:00:00Z");
    assertEquals(1, runs.get());
    assertEquals(RunRecord.TRIGGER_SCHEDULE, lastTrigger);
    assertEquals(1, entity.getState().recentRuns().size());
    assertEquals(Instant.parse("2026-11-22T18:00:00Z"), next());
  }

  @Test
  public void aFireForAnyOtherTimeIsIgnored() throws Exception {
    create(EVERY_SIX_HOURS, true);
    clock.set(Instant.parse("2026-11-22T12:00:40Z"));
    fire("2026-11-22T06:00:00Z");
    fire("2026-11-22T18:00:00Z");
    assertEquals(0, runs.get());
    fire("2026-11-22T12:00:00Z");
    fire("2026-11-22T12:00:00Z"); // the same due time again: already advanced past it
    assertEquals(1, runs.get());
  }

  @Test
  public void afterDowntimeTheWatchRunsOnceAndThenFollowsTheScheduleFromNow() throws Exception {
    create(EVERY_SIX_HOURS, true);
    clock.set(Instant.parse("2026-11-24T09:10:00Z")); // two days of slots missed
    fire("2026-11-22T12:00:00Z");
    assertEquals(1, runs.get());
    assertEquals(Instant.parse("2026-11-24T12:00:00Z"), next());
  }

  @Test
  public void replacingWithTheSameScheduleKeepsTheDueTimeAndAChangeRecomputesIt() {
    create(EVERY_SIX_HOURS, true);
    clock.set(Instant.parse("2026-11-22T11:59:00Z"));
    replace(EVERY_SIX_HOURS, true);
    assertEquals(Instant.parse("2026-11-22T12:00:00Z"), next());
    replace("30 * * * *", true);
    assertEquals(Instant.parse("2026-11-22T12:30:00Z"), next());
    replace("30 * * * *", false);
    assertNull(next());
    replace("30 * * * *", true);
    assertEquals(Instant.parse("2026-11-22T12:30:00Z"), next());
  }

  @Test
  public void aScheduleIsReadInItsWatchsTimeZoneAndAChangedZoneRecomputesTheDueTime() {
    // 2026-11-22 11:00Z: 9 in New York is 14:00Z (winter, UTC-5); in Tokyo it is tomorrow's 00:00Z
    assertTrue(
        entity
            .<StatusReply<Watch>>runCommand(
                r ->
                    new WatchEntity.Create(
                        watch("0 9 * * *", true, "America/New_York"), null, null, r))
            .reply()
            .isSuccess());
    assertEquals(Instant.parse("2026-11-22T14:00:00Z"), next());
    assertEquals(
        "America/New_York",
        entity.<StatusReply<Watch>>runCommand(WatchEntity.Get::new).reply().getValue().timeZone());
    assertTrue(
        entity
            .<StatusReply<Watch>>runCommand(
                r -> new WatchEntity.Replace(watch("0 9 * * *", true, "Asia/Tokyo"), null, null, r))
            .reply()
            .isSuccess());
    assertEquals(Instant.parse("2026-11-23T00:00:00Z"), next());
  }

  @Test
  public void aDisabledOrDeletedWatchIgnoresFires() throws Exception {
    create(EVERY_SIX_HOURS, true);
    replace(EVERY_SIX_HOURS, false);
    clock.set(Instant.parse("2026-11-22T12:00:40Z"));
    fire("2026-11-22T12:00:00Z");
    replace(EVERY_SIX_HOURS, true); // re-enabled at 12:00:40: next is 18:00
    entity.<StatusReply<org.apache.pekko.Done>>runCommand(r -> new WatchEntity.Delete(null, r));
    assertNull(next());
    fire("2026-11-22T18:00:00Z");
    assertEquals(0, runs.get());
  }

  @Test
  public void theDueTimeSurvivesARestart() throws Exception {
    create(EVERY_SIX_HOURS, true);
    clock.set(Instant.parse("2026-11-22T12:00:40Z"));
    fire("2026-11-22T12:00:00Z");
    entity.restart();
    assertEquals(Instant.parse("2026-11-22T18:00:00Z"), next());
  }
}
