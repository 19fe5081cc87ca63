package io.periscope.watch;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import io.periscope.testing.EntityTestKits;
import java.util.List;
import org.apache.pekko.Done;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJunitResource;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import org.junit.Before;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * The watch entity under the persistence testkit; commands, events and state round-trip through the
 * service's Jackson binding (periscope.conf) and must come back equal.
 */
public class WatchEntityTest {
  @ClassRule
  public static final TestKitJunitResource testKit =
      new TestKitJunitResource(EntityTestKits.config());

  /**
   * These tests are about the definition; the run tests below give the entity a pipeline of their
   * own.
   */
  static final RunPipeline NO_RUNS =
      (watch, seen, trigger, startedAt) -> {
        throw new AssertionError("no run expected");
      };

  private EventSourcedBehaviorTestKit<WatchEntity.Command, WatchEntity.Event, WatchEntity.State>
      entity;

  public static Watch watch(String name, Double weak) {
    return new Watch(
        "acme",
        "alice",
        name,
        List.of(new WatchSource(WatchSource.SEARCH, "acme rocket launch", "official", 7)),
        "0 */6 * * *",
        "Acme announces a launch date",
        List.of("telegram"),
        0.8,
        weak,
        true,
        "UTC");
  }

  @Before
  public void setUp() {
    entity =
        EventSourcedBehaviorTestKit.create(
            testKit.system(),
            WatchEntity.create("alice:acme", NO_RUNS, java.time.Clock.systemUTC()),
            EventSourcedBehaviorTestKit.enabledSerializationSettings().withVerifyEquality(true));
  }

  private EventSourcedBehaviorTestKit.CommandResultWithReply<
          WatchEntity.Command, WatchEntity.Event, WatchEntity.State, StatusReply<Watch>>
      create(Watch w) {
    return entity.runCommand(r -> new WatchEntity.Create(w, null, null, r));
  }

  private EventSourcedBehaviorTestKit.CommandResultWithReply<
          WatchEntity.Command, WatchEntity.Event, WatchEntity.State, StatusReply<Watch>>
      replace(Watch w) {
    return entity.runCommand(r -> new WatchEntity.Replace(w, null, null, r));
  }

  private EventSourcedBehaviorTestKit.CommandResultWithReply<
          WatchEntity.Command, WatchEntity.Event, WatchEntity.State, StatusReply<Done>>
      delete() {
    return entity.runCommand(r -> new WatchEntity.Delete(null, r));
  }

  private StatusReply<Watch> get() {
    return entity.<StatusReply<Watch>>runCommand(WatchEntity.Get::new).reply();
  }

  @Test
  public void createPersistsCreatedAndAnswersTheWatch() {
    var result = create(watch("Acme", 0.5));
    assertEquals(watch("Acme", 0.5), result.reply().getValue());
    assertEquals(watch("Acme", 0.5), result.eventOfType(WatchEntity.Created.class).watch());
    assertEquals(watch("Acme", 0.5), result.state().watch());
  }

  @Test
  public void aCreatedWatchIsAnsweredByGet() {
    create(watch("Acme", 0.5));
    assertEquals(watch("Acme", 0.5), get().getValue());
  }

  @Test
  public void getOfAWatchNeverCreatedIsRefused() {
    assertTrue(get().isError());
  }

  @Test
  public void aDuplicateCreateIsRefusedAndPersistsNothing() {
    create(watch("Acme", null));
    var second = create(watch("Other", null));
    assertTrue(second.reply().isError());
    assertTrue(second.hasNoEvents());
    assertEquals("Acme", get().getValue().name());
  }

  @Test
  public void replaceOfAnAbsentWatchIsRefusedAndPersistsNothing() {
    var replace = replace(watch("X", null));
    assertTrue(replace.reply().isError());
    assertTrue(replace.hasNoEvents());
    assertFalse(entity.getState().exists());
  }

  @Test
  public void replaceOfAnExistingWatchPersistsReplaced() {
    create(watch("Acme", 0.5));
    var result = replace(watch("Renamed", 0.4));
    assertEquals(watch("Renamed", 0.4), result.eventOfType(WatchEntity.Replaced.class).watch());
    assertEquals(watch("Renamed", 0.4), result.reply().getValue());
    assertEquals(watch("Renamed", 0.4), get().getValue());
  }

  @Test
  public void replaceIsAFullReplacementNotAPatch() {
    create(watch("Acme", 0.5));
    assertNull(
        "an omitted weakThreshold is gone",
        replace(watch("Renamed", null)).reply().getValue().weakThreshold());
  }

  @Test
  public void deleteOfAnAbsentWatchIsRefusedAndPersistsNothing() {
    var delete = delete();
    assertTrue(delete.reply().isError());
    assertTrue(delete.hasNoEvents());
  }

  @Test
  public void deletePersistsDeletedAndThenGetIsRefused() {
    create(watch("Acme", null));
    var delete = delete();
    assertTrue(delete.reply().isSuccess());
    assertTrue(delete.event() instanceof WatchEntity.Deleted);
    assertFalse(entity.getState().exists());
    assertTrue(get().isError());
  }

  @Test
  public void theIdCanBeCreatedAgainAfterADelete() {
    create(watch("Acme", null));
    delete();
    var again = create(watch("Again", null));
    assertTrue(again.reply().isSuccess());
    assertEquals(watch("Again", null), again.eventOfType(WatchEntity.Created.class).watch());
    assertEquals("Again", get().getValue().name());
  }

  @Test
  public void restartRecoversTheReplacedDefinitionFromEvents() {
    create(watch("Acme", 0.5));
    replace(watch("Renamed", 0.4));
    entity.restart();
    assertEquals(watch("Renamed", 0.4), entity.getState().watch());
    assertEquals(watch("Renamed", 0.4), get().getValue());
  }

  @Test
  public void restartAfterADeleteStaysDeleted() {
    create(watch("Acme", null));
    delete();
    entity.restart();
    assertFalse(entity.getState().exists());
    assertTrue(get().isError());
  }

  @Test
  public void restartAfterDeleteAndRecreateRecoversTheNewWatch() {
    create(watch("Acme", null));
    delete();
    create(watch("Again", 0.3));
    entity.restart();
    assertEquals(watch("Again", 0.3), entity.getState().watch());
  }

  @Test
  public void beforeOldEventsGoAScheduledWatchWritesItsDueTimeAgain() {
    entity =
        EventSourcedBehaviorTestKit.create(
            testKit.system(),
            WatchEntity.create(
                "alice:trim-" + java.util.UUID.randomUUID(), NO_RUNS, java.time.Clock.systemUTC()),
            EventSourcedBehaviorTestKit.enabledSerializationSettings().withVerifyEquality(true));
    create(watch("Acme", null));
    java.time.Instant due = entity.getState().nextFireAt();
    assertEquals(
        "nothing past the retention yet",
        List.of(),
        entity
            .runCommand(
                new WatchEntity.TrimJournal(
                    (long) io.periscope.config.Settings.DEFAULT_RUN_HISTORY_RETENTION
                        * JournalTrim.EVENTS_PER_RUN))
            .events());
    // a snapshot one event past the retention: the Created event goes, the due time written again
    // (after it) stays
    var trimmed =
        entity.runCommand(
            new WatchEntity.TrimJournal(
                (long) io.periscope.config.Settings.DEFAULT_RUN_HISTORY_RETENTION
                        * JournalTrim.EVENTS_PER_RUN
                    + 1));
    assertEquals(List.of(new WatchEntity.ScheduleAdvanced(null, due)), trimmed.events());
    assertEquals(due, trimmed.state().nextFireAt());
  }

  private static Object roundTrip(Object message, java.util.function.UnaryOperator<String> edit)
      throws Exception {
    return EntityTestKits.roundTrip(testKit.system(), message, edit);
  }

  @Test
  public void aJournalWrittenBeforeScopedSeenKeysAndBaselinesStillRecovers() throws Exception {
    // The events of a watch run before item keys were scoped and sources took baselines: a run
    // event without baselined, whose seen items are bare guids.
    var record =
        io.periscope.watch.RunRecords.crashed("manual", java.time.Instant.now(), new Exception());
    Object oldRun =
        roundTrip(
            new WatchEntity.RunRecorded(record, List.of("g-launch"), java.util.Map.of()),
            json -> json.replace(",\"baselined\":{}", ""));
    assertNull(((WatchEntity.RunRecorded) oldRun).baselined());
    java.time.Instant created = java.time.Instant.parse("2026-01-01T00:00:00Z");
    entity
        .persistenceTestKit()
        .persistForRecovery(
            "Watch|alice:acme",
            List.of(
                new WatchEntity.Created(watch("Acme", null), created, null, null, null), oldRun));
    entity.restart();

    WatchEntity.State state = entity.getState();
    assertEquals(List.of("g-launch"), state.seen());
    assertEquals(java.util.Map.of(), state.baselines());
    var memory = state.memory(java.time.Instant.now());
    assertTrue("the bare guid is still seen", memory.seen().contains("g-launch"));
    assertTrue(
        "a watch that ran before takes its baselines at the next run, not at its creation",
        memory.baselineAt().isAfter(created));
  }

  @Test
  public void recallAnswersTheWatchAndItsMemoryAndChangesNothing() {
    create(watch("Acme", 0.5));
    WatchEntity.State before = entity.getState();
    var recall = entity.<StatusReply<WatchEntity.Recalled>>runCommand(WatchEntity.Recall::new);
    assertTrue(recall.hasNoEvents());
    assertEquals(watch("Acme", 0.5), recall.reply().getValue().watch());
    assertEquals(java.util.Set.of(), recall.reply().getValue().memory().seen());
    assertEquals("the schedule as it was", before, entity.getState());
  }

  @Test
  public void recallOfAWatchNeverCreatedIsRefused() {
    assertTrue(
        entity
            .<StatusReply<WatchEntity.Recalled>>runCommand(WatchEntity.Recall::new)
            .reply()
            .isError());
  }
}
