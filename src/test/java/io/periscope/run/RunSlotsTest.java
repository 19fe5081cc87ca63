package io.periscope.run;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.periscope.watch.RunPipeline;
import io.periscope.watch.RunRecord;
import io.periscope.watch.Watch;
import io.periscope.watch.WatchSource;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.Test;

/**
 * The per-node bound on runs at once: the others wait in arrival order, and every finished run
 * frees its slot.
 */
public class RunSlotsTest {
  /** Runs the test finishes by hand, remembering which watch each one was. */
  private final List<String> started = new CopyOnWriteArrayList<>();

  private final List<String> owners = new CopyOnWriteArrayList<>();

  private final List<CompletableFuture<RunPipeline.Outcome>> inFlight =
      new CopyOnWriteArrayList<>();
  private final List<Instant> startedAt = new CopyOnWriteArrayList<>();
  private final RunSlots slots =
      new RunSlots(
          (watch, seen, trigger, at) -> {
            started.add(watch.id());
            owners.add(watch.owner());
            startedAt.add(at);
            CompletableFuture<RunPipeline.Outcome> run = new CompletableFuture<>();
            inFlight.add(run);
            return run;
          },
          2,
          Runnable::run);

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
    return new RunPipeline.Outcome(
        new RunRecord(
            UUID.randomUUID().toString(),
            RunRecord.TRIGGER_SCHEDULE,
            Instant.now(),
            1,
            RunRecord.NOTHING_NEW,
            null,
            null,
            List.of(),
            null,
            List.of(),
            0,
            0,
            new RunRecord.Collection(0, 0, 0, 0),
            List.of(),
            null,
            List.of(),
            0,
            new RunRecord.Trimmed(0, 0),
            null,
            0,
            null,
            null,
            null),
        List.of());
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
    inFlight.get(0).complete(outcome());
    inFlight.get(1).complete(outcome());
    assertEquals(
        "bob's first run takes the second slot freed",
        List.of("alice:a0", "alice:a1", "alice:a2", "bob:b0"),
        startedByOwner());
    inFlight.get(2).complete(outcome());
    inFlight.get(3).complete(outcome());
    assertEquals(
        List.of("alice:a0", "alice:a1", "alice:a2", "bob:b0", "alice:a3", "bob:b1"),
        startedByOwner());
    inFlight.get(4).complete(outcome());
    inFlight.get(5).complete(outcome());
    assertEquals("alice's go on once bob has none", "alice:a5", startedByOwner().get(7));
  }

  private List<String> startedByOwner() {
    List<String> named = new java.util.ArrayList<>();
    for (int i = 0; i < started.size(); i++) named.add(owners.get(i) + ":" + started.get(i));
    return named;
  }

  @Test
  public void aRunPastItsDeadlineEndsAsAnErrorAndFreesItsSlot() throws Exception {
    List<String> crashed = new CopyOnWriteArrayList<>();
    RunSlots timed =
        new RunSlots(
            new RunPipeline() {
              @Override
              public CompletionStage<Outcome> run(
                  Watch watch, Memory memory, String trigger, Instant at) {
                started.add(watch.id());
                return new CompletableFuture<>(); // never ends
              }

              @Override
              public void runCrashed(Watch watch, RunRecord record) {
                crashed.add(watch.id() + ": " + record.error());
              }
            },
            1,
            java.time.Duration.ofSeconds(1),
            Runnable::run);
    long began = System.nanoTime();
    CompletableFuture<RunPipeline.Outcome> a = run(timed, "alice", "a").toCompletableFuture();
    CompletableFuture<RunPipeline.Outcome> b = run(timed, "alice", "b").toCompletableFuture();
    assertEquals(List.of("a"), started);
    RunRecord record = a.get(10, java.util.concurrent.TimeUnit.SECONDS).record();
    assertEquals(RunRecord.ERROR, record.outcome());
    assertEquals(
        "the run's deadline of 1s (RUN_DEADLINE) passed; the run was ended", record.error());
    assertTrue(a.join().newlySeen().isEmpty());
    assertEquals("the slot went to the next run", List.of("a", "b"), started);
    b.get(10, java.util.concurrent.TimeUnit.SECONDS);
    assertTrue(System.nanoTime() - began < java.time.Duration.ofSeconds(5).toNanos());
    assertEquals(
        List.of(
            "a: the run's deadline of 1s (RUN_DEADLINE) passed; the run was ended",
            "b: the run's deadline of 1s (RUN_DEADLINE) passed; the run was ended"),
        crashed);
  }

  @Test
  public void aRunThatWaitedStartsAtTheTimeTheWatchStartedIt() {
    Instant asked = Instant.parse("2026-01-01T00:00:00Z");
    run("a");
    run("b");
    run("c", asked);
    inFlight.get(0).complete(outcome());
    assertEquals(List.of("a", "b", "c"), started);
    assertEquals("its record counts the wait in its duration", asked, startedAt.get(2));
  }

  @Test
  public void runsBeyondTheBoundWaitTheirTurnInArrivalOrder() {
    CompletableFuture<RunPipeline.Outcome> a = run("a").toCompletableFuture();
    run("b");
    CompletableFuture<RunPipeline.Outcome> c = run("c").toCompletableFuture();
    run("d");
    assertEquals(List.of("a", "b"), started);
    RunPipeline.Outcome done = outcome();
    inFlight.get(0).complete(done);
    assertEquals(done, a.join());
    assertEquals(List.of("a", "b", "c"), started);
    inFlight.get(1).completeExceptionally(new IllegalStateException("boom"));
    assertEquals("a failed run frees its slot too", List.of("a", "b", "c", "d"), started);
    inFlight.get(2).complete(outcome());
    inFlight.get(3).complete(outcome());
    assertTrue(c.isDone());
    run("e");
    run("f");
    run("g");
    assertEquals("two slots free again, no more", List.of("a", "b", "c", "d", "e", "f"), started);
  }
}
