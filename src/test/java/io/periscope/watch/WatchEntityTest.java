package io.periscope.watch;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

import io.periscope.testing.EntityTestKits;
import io.periscope.testing.FakePipeline;
import io.periscope.testing.TestWatches;
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
  private static final RunPipeline NO_RUNS = FakePipeline.noRuns();

  private EventSourcedBehaviorTestKit<WatchEntity.Command, WatchEntity.Event, WatchEntity.State>
      entity;

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
    var result = create(TestWatches.acme("Acme", 0.5));
    assertEquals(TestWatches.acme("Acme", 0.5), result.reply().getValue());
    assertEquals(
        TestWatches.acme("Acme", 0.5), result.eventOfType(WatchEntity.Created.class).watch());
    assertEquals(TestWatches.acme("Acme", 0.5), result.state().watch());
  }

  @Test
  public void aCreatedWatchIsAnsweredByGet() {
    create(TestWatches.acme("Acme", 0.5));
    assertEquals(TestWatches.acme("Acme", 0.5), get().getValue());
  }

  @Test
  public void getOfAWatchNeverCreatedIsRefused() {
    assertTrue(get().isError());
  }

  @Test
  public void aDuplicateCreateIsRefusedAndPersistsNothing() {
    create(TestWatches.acme("Acme", null));
    var second = create(TestWatches.acme("Other", null));
    assertTrue(second.reply().isError());
    assertTrue(second.hasNoEvents());
    assertEquals("Acme", get().getValue().name());
  }

  @Test
  public void replaceOfAnAbsentWatchIsRefusedAndPersistsNothing() {
    var replace = replace(TestWatches.acme("X", null));
    assertTrue(replace.reply().isError());
    assertTrue(replace.hasNoEvents());
    assertFalse(entity.getState().exists());
  }

  @Test
  public void replaceOfAnExistingWatchPersistsReplaced() {
    create(TestWatches.acme("Acme", 0.5));
    var result = replace(TestWatches.acme("Renamed", 0.4));
    assertEquals(
        TestWatches.acme("Renamed", 0.4), result.eventOfType(WatchEntity.Replaced.class).watch());
    assertEquals(TestWatches.acme("Renamed", 0.4), result.reply().getValue());
    assertEquals(TestWatches.acme("Renamed", 0.4), get().getValue());
  }

  @Test
  public void replaceIsAFullReplacementNotAPatch() {
    create(TestWatches.acme("Acme", 0.5));
    assertNull(
        "an omitted weakThreshold is gone",
        replace(TestWatches.acme("Renamed", null)).reply().getValue().weakThreshold());
  }

  @Test
  public void deleteOfAnAbsentWatchIsRefusedAndPersistsNothing() {
    var delete = delete();
    assertTrue(delete.reply().isError());
    assertTrue(delete.hasNoEvents());
  }

  @Test
  public void deletePersistsDeletedAndThenGetIsRefused() {
    create(TestWatches.acme("Acme", null));
    var delete = delete();
    assertTrue(delete.reply().isSuccess());
    assertTrue(delete.event() instanceof WatchEntity.Deleted);
    assertFalse(entity.getState().exists());
    assertTrue(get().isError());
  }

  @Test
  public void theIdCanBeCreatedAgainAfterADelete() {
    create(TestWatches.acme("Acme", null));
    delete();
    var again = create(TestWatches.acme("Again", null));
    assertTrue(again.reply().isSuccess());
    assertEquals(
        TestWatches.acme("Again", null), again.eventOfType(WatchEntity.Created.class).watch());
    assertEquals("Again", get().getValue().name());
  }

  @Test
  public void restartRecoversTheReplacedDefinitionFromEvents() {
    create(TestWatches.acme("Acme", 0.5));
    replace(TestWatches.acme("Renamed", 0.4));
    entity.restart();
    assertEquals(TestWatches.acme("Renamed", 0.4), entity.getState().watch());
    assertEquals(TestWatches.acme("Renamed", 0.4), get().getValue());
  }

  @Test
  public void restartAfterADeleteStaysDeleted() {
    create(TestWatches.acme("Acme", null));
    delete();
    entity.restart();
    assertFalse(entity.getState().exists());
    assertTrue(get().isError());
  }

  @Test
  public void restartAfterDeleteAndRecreateRecoversTheNewWatch() {
    create(TestWatches.acme("Acme", null));
    delete();
    create(TestWatches.acme("Again", 0.3));
    entity.restart();
    assertEquals(TestWatches.acme("Again", 0.3), entity.getState().watch());
  }

  @Test
  public void beforeOldEventsGoAScheduledWatchWritesItsDueTimeAgain() {
    entity =
        EventSourcedBehaviorTestKit.create(
            testKit.system(),
            WatchEntity.create(
                "alice:trim-" + java.util.UUID.randomUUID(), NO_RUNS, java.time.Clock.systemUTC()),
            EventSourcedBehaviorTestKit.enabledSerializationSettings().withVerifyEquality(true));
    create(TestWatches.acme("Acme", null));
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
                new WatchEntity.Created(TestWatches.acme("Acme", null), created, null, null, null),
                oldRun));
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
    create(TestWatches.acme("Acme", 0.5));
    WatchEntity.State before = entity.getState();
    var recall = entity.<StatusReply<WatchEntity.Recalled>>runCommand(WatchEntity.Recall::new);
    assertTrue(recall.hasNoEvents());
    assertEquals(TestWatches.acme("Acme", 0.5), recall.reply().getValue().watch());
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

  @Test
  public void aRunThatMarksNothingSeenLeavesTheSeenKeysAsTheyWere() {
    RunRecord judged = FakePipeline.record(RunRecord.NO_MATCH);
    WatchEntity.State state =
        WatchEntity.State.EMPTY.withRun(judged, List.of("a", "b"), java.util.Map.of(), null);
    WatchEntity.State quiet =
        state.withRun(
            FakePipeline.record(RunRecord.NOTHING_NEW), List.of(), java.util.Map.of(), null);
    assertEquals(2, quiet.recentRuns().size());
    assertSame("not copied", state.seen(), quiet.seen());
    assertEquals(
        List.of("a", "b", "c"),
        quiet.withRun(judged, List.of("b", "c"), java.util.Map.of(), null).seen());
  }
}
