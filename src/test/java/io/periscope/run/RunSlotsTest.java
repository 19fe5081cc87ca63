package io.periscope.run;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.periscope.testing.FakePipeline;
import io.periscope.watch.RunPipeline;
import io.periscope.watch.RunRecord;
import io.periscope.watch.Watch;
import io.periscope.watch.WatchSource;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.Test;

/**
 * The per-node bound on runs at once: the others wait in arrival order, and every finished run
 * frees its slot.
 */
public class RunSlotsTest {
  /** Runs the test finishes by hand: {@code pipeline.heldRuns}. */
  private final FakePipeline pipeline = new FakePipeline().holdRuns();

  private final RunSlots slots = new RunSlots(pipeline, 2, Runnable::run);

  /** The watches whose runs {@code on} started, in order. */
  private static List<String> started(FakePipeline on) {
    return on.calls.stream().map(call -> call.watch().id()).toList();
  }

  private static Watch watch(String id) {
    return watch("alice", id);
  }

  private static Watch watch(String owner, String id) {
    return new Watch(
        id,
        owner,
        id,
        List.of(new WatchSource(WatchSource.RSS, "https://example.org/f.xml", null, null)),
        "* * * * *",
        "c",
        List.of(),
        0.8,
        null,
        true,
        "UTC");
  }

  private static RunPipeline.Outcome outcome() {
    return FakePipeline.answer(RunRecord.NOTHING_NEW);
  }

  private CompletionStage<RunPipeline.Outcome> run(String id) {
    return run(id, Instant.now());
  }

  private CompletionStage<RunPipeline.Outcome> run(String id, Instant at) {
    return slots.run(
        watch(id), new RunPipeline.Memory(Set.of(), Map.of(), at), RunRecord.TRIGGER_SCHEDULE, at);
  }

  private CompletionStage<RunPipeline.Outcome> run(String owner, String id) {
    return run(slots, owner, id);
  }

  private CompletionStage<RunPipeline.Outcome> run(RunSlots on, String owner, String id) {
    Instant at = Instant.now();
    return on.run(
        watch(owner, id),
        new RunPipeline.Memory(Set.of(), Map.of(), at),
        RunRecord.TRIGGER_SCHEDULE,
        at);
  }

  @Test
  public void anOwnerWithHundredsOfWaitingRunsHoldsAnotherOwnersRunBackOneTurnAtMost() {
    run("alice", "a0");
    run("alice", "a1");
    for (int i = 2; i < 300; i++) run("alice", "a" + i);
    run("bob", "b0");
    run("bob", "b1");
    assertEquals(List.of("alice:a0", "alice:a1"), startedByOwner());
    pipeline.heldRuns.get(0).complete(outcome());
    pipeline.heldRuns.get(1).complete(outcome());
    assertEquals(
        "bob's first run takes the second slot freed",
        List.of("alice:a0", "alice:a1", "alice:a2", "bob:b0"),
        startedByOwner());
    pipeline.heldRuns.get(2).complete(outcome());
    pipeline.heldRuns.get(3).complete(outcome());
    assertEquals(
        List.of("alice:a0", "alice:a1", "alice:a2", "bob:b0", "alice:a3", "bob:b1"),
        startedByOwner());
    pipeline.heldRuns.get(4).complete(outcome());
    pipeline.heldRuns.get(5).complete(outcome());
    assertEquals("alice's go on once bob has none", "alice:a5", startedByOwner().get(7));
  }

  private List<String> startedByOwner() {
    return pipeline.calls.stream()
        .map(call -> call.watch().owner() + ":" + call.watch().id())
        .toList();
  }

  @Test
  public void aRunPastItsDeadlineEndsAsAnErrorAndFreesItsSlot() throws Exception {
    FakePipeline endless = new FakePipeline().runs(call -> new CompletableFuture<>());
    RunSlots timed = new RunSlots(endless, 1, java.time.Duration.ofSeconds(1), Runnable::run);
    long began = System.nanoTime();
    CompletableFuture<RunPipeline.Outcome> a = run(timed, "alice", "a").toCompletableFuture();
    CompletableFuture<RunPipeline.Outcome> b = run(timed, "alice", "b").toCompletableFuture();
    assertEquals(List.of("a"), started(endless));
    RunRecord record = a.get(10, java.util.concurrent.TimeUnit.SECONDS).record();
    assertEquals(RunRecord.ERROR, record.outcome());
    assertEquals(
        "the run's deadline of 1s (RUN_DEADLINE) passed; the run was ended", record.error());
    assertTrue(a.join().newlySeen().isEmpty());
    assertEquals("the slot went to the next run", List.of("a", "b"), started(endless));
    b.get(10, java.util.concurrent.TimeUnit.SECONDS);
    assertTrue(System.nanoTime() - began < java.time.Duration.ofSeconds(5).toNanos());
    assertEquals(
        List.of(
            "a: the run's deadline of 1s (RUN_DEADLINE) passed; the run was ended",
            "b: the run's deadline of 1s (RUN_DEADLINE) passed; the run was ended"),
        endless.crashes.stream().map(c -> c.watch().id() + ": " + c.record().error()).toList());
  }

  @Test
  public void aRunThatWaitedStartsAtTheTimeTheWatchStartedIt() {
    Instant asked = Instant.parse("2026-01-01T00:00:00Z");
    run("a");
    run("b");
    run("c", asked);
    pipeline.heldRuns.get(0).complete(outcome());
    assertEquals(List.of("a", "b", "c"), started(pipeline));
    assertEquals(
        "its record counts the wait in its duration", asked, pipeline.calls.get(2).startedAt());
  }

  @Test
  public void runsBeyondTheBoundWaitTheirTurnInArrivalOrder() {
    CompletableFuture<RunPipeline.Outcome> a = run("a").toCompletableFuture();
    run("b");
    CompletableFuture<RunPipeline.Outcome> c = run("c").toCompletableFuture();
    run("d");
    assertEquals(List.of("a", "b"), started(pipeline));
    RunPipeline.Outcome done = outcome();
    pipeline.heldRuns.get(0).complete(done);
    assertEquals(done, a.join());
    assertEquals(List.of("a", "b", "c"), started(pipeline));
    pipeline.heldRuns.get(1).completeExceptionally(new IllegalStateException("boom"));
    assertEquals("a failed run frees its slot too", List.of("a", "b", "c", "d"), started(pipeline));
    pipeline.heldRuns.get(2).complete(outcome());
    pipeline.heldRuns.get(3).complete(outcome());
    assertTrue(c.isDone());
    run("e");
    run("f");
    run("g");
    assertEquals(
        "two slots free again, no more", List.of("a", "b", "c", "d", "e", "f"), started(pipeline));
  }
}
