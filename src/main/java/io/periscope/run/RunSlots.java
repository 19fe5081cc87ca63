package io.periscope.run;

import io.periscope.watch.RunPipeline;
import io.periscope.watch.RunRecord;
import io.periscope.watch.Watch;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * This node's bound on runs at once (RUNS_PER_NODE): a run beyond it waits, in arrival order, until
 * one in flight finishes collecting, extracting and judging (its alert goes out without a slot).
 * Watches spread evenly over the nodes of a cluster, so each node added adds its slots to the
 * cluster's capacity.
 */
public final class RunSlots implements RunPipeline {
  private final RunPipeline runs;
  private final int slots;
  private final Executor executor;
  private final Queue<Runnable> waiting = new ArrayDeque<>();
  private int inUse;

  /**
   * @param executor starts a waiting run when a slot frees, off the thread that finished the
   *     previous one
   */
  public RunSlots(RunPipeline runs, int slots, Executor executor) {
    if (slots < 1) throw new IllegalArgumentException("RUNS_PER_NODE must be at least 1");
    this.runs = runs;
    this.slots = slots;
    this.executor = executor;
  }

  @Override
  public CompletionStage<Outcome> run(
      Watch watch, Memory memory, String trigger, Instant startedAt) {
    CompletableFuture<Outcome> result = new CompletableFuture<>();
    Runnable start =
        () -> {
          CompletionStage<Outcome> run;
          try {
            run = runs.run(watch, memory, trigger, startedAt);
          } catch (RuntimeException e) {
            run = CompletableFuture.failedFuture(e);
          }
          run.whenComplete(
              (outcome, failure) -> {
                release();
                if (failure != null) result.completeExceptionally(failure);
                else result.complete(outcome);
              });
        };
    synchronized (this) {
      if (inUse == slots) {
        waiting.add(start);
        return result;
      }
      inUse++;
    }
    start.run();
    return result;
  }

  @Override
  public void alertInterrupted(Watch watch, String runId, java.util.List<String> channels) {
    runs.alertInterrupted(watch, runId, channels);
  }

  @Override
  public void runCrashed(Watch watch, RunRecord record) {
    runs.runCrashed(watch, record);
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
