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

  private final List<CompletableFuture<RunPipeline.Outcome>> inFlight =
      new CopyOnWriteArrayList<>();
  private final List<Instant> startedAt = new CopyOnWriteArrayList<>();
  private final RunSlots slots =
      new RunSlots(
          (watch, seen, trigger, at) -> {
            started.add(watch.id());
            startedAt.add(at);
            CompletableFuture<RunPipeline.Outcome> run = new CompletableFuture<>();
            inFlight.add(run);
            return run;
          },
          2,
          Runnable::run);

  private static Watch watch(String id) {
    return new Watch(
        id,
        "alice",
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
