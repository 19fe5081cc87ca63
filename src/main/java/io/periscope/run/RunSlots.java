package io.periscope.run;

import io.periscope.watch.RunPipeline;
import io.periscope.watch.RunRecord;
import io.periscope.watch.RunRecords;
import io.periscope.watch.Watch;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * This node's bound on runs at once (RUNS_PER_NODE): a run beyond it waits until one in flight
 * finishes collecting, extracting and judging (its alert goes out without a slot). Waiting runs
 * take their turn fairly between owners ({@link FairQueue}: round robin per owner, each owner's in
 * arrival order), so one owner's hundreds of due watches cannot hold another owner's watch back
 * more than a turn. Watches spread evenly over the nodes of a cluster, so each node added adds its
 * slots to the cluster's capacity.
 *
 * <p>Each run has a wall-clock deadline (RUN_DEADLINE) from the moment it has its slot: when it
 * passes, the run ends as an {@code error} whose record says so, whatever its upstreams do, and its
 * slot goes to the next run. What the pipeline still does after that (an upstream call runs out its
 * own timeout) is dropped: no item is marked seen, no alert is sent.
 */
public final class RunSlots implements RunPipeline.Wrapper {
  /** RUN_DEADLINE's default. */
  public static final Duration DEFAULT_DEADLINE = Duration.ofMinutes(3);

  private final RunPipeline runs;
  private final int slots;
  private final Duration deadline;
  private final Executor executor;
  private final FairQueue<Runnable> waiting = new FairQueue<>();
  private int inUse;

  /** With the default deadline. */
  public RunSlots(RunPipeline runs, int slots, Executor executor) {
    this(runs, slots, DEFAULT_DEADLINE, executor);
  }

  /**
   * @param deadline how long a run may hold its slot
   * @param executor starts a waiting run when a slot frees, off the thread that finished the
   *     previous one
   */
  public RunSlots(RunPipeline runs, int slots, Duration deadline, Executor executor) {
    if (slots < 1) throw new IllegalArgumentException("RUNS_PER_NODE must be at least 1");
    if (deadline.compareTo(Duration.ofSeconds(1)) < 0)
      throw new IllegalArgumentException("RUN_DEADLINE must be at least 1s");
    this.runs = runs;
    this.slots = slots;
    this.deadline = deadline;
    this.executor = executor;
  }

  @Override
  public RunPipeline inner() {
    return runs;
  }

  @Override
  public CompletionStage<Outcome> run(
      Watch watch, Memory memory, String trigger, Instant startedAt) {
    CompletableFuture<Outcome> result = new CompletableFuture<>();
    Runnable start =
        () -> {
          CompletableFuture<Outcome> ended = new CompletableFuture<>();
          try {
            runs.run(watch, memory, trigger, startedAt)
                .whenComplete(
                    (outcome, failure) -> {
                      if (failure != null) ended.completeExceptionally(failure);
                      else ended.complete(outcome);
                    });
          } catch (RuntimeException e) {
            ended.completeExceptionally(e);
          }
          // Whichever comes first, the run's end or its deadline (a null outcome), frees the slot
          // once; a run that ends in time cancels its deadline.
          ended
              .completeOnTimeout(null, deadline.toMillis(), TimeUnit.MILLISECONDS)
              .whenComplete(
                  (outcome, failure) -> {
                    release();
                    if (failure != null) result.completeExceptionally(failure);
                    else if (outcome != null) result.complete(outcome);
                    else result.complete(deadlinePassed(watch, trigger, startedAt));
                  });
        };
    synchronized (this) {
      if (inUse == slots) {
        waiting.add(watch.owner(), start);
        return result;
      }
      inUse++;
    }
    start.run();
    return result;
  }

  /** The outcome of a run ended by its deadline: an error, nothing seen, nothing to send. */
  private Outcome deadlinePassed(Watch watch, String trigger, Instant startedAt) {
    RunRecord record = RunRecords.deadlinePassed(trigger, startedAt, deadline);
    runs.runCrashed(watch, record);
    return new Outcome(record, List.of());
  }

  private void release() {
    Runnable next;
    synchronized (this) {
      next = waiting.poll();
      if (next == null) inUse--; // else the slot passes to the next run
    }
    if (next != null) executor.execute(next);
  }
}
