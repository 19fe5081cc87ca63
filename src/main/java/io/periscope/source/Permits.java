package io.periscope.source;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * A semaphore that never blocks a thread: work past the permits waits in arrival order and starts
 * on the thread that frees a permit. The HTTP client's callback threads run the collectors' stages,
 * so a blocking semaphore would hold those threads (and their connections) while waiting.
 */
public final class Permits {
  private final int permits;
  private final Queue<Runnable> waiting = new ArrayDeque<>();
  private final ThreadLocal<Queue<Runnable>> handOvers = new ThreadLocal<>();
  private int taken;

  public Permits(int permits) {
    if (permits < 1) throw new IllegalArgumentException("permits must be at least 1");
    this.permits = permits;
  }

  /**
   * Runs {@code work} once a permit is free and holds the permit until its stage completes,
   * normally or not (a {@code work} that throws completes the answer exceptionally).
   */
  public <T> CompletionStage<T> with(Supplier<? extends CompletionStage<T>> work) {
    CompletableFuture<T> answer = new CompletableFuture<>();
    Runnable start =
        () -> {
          CompletionStage<T> stage;
          try {
            stage = work.get();
          } catch (RuntimeException e) {
            stage = CompletableFuture.failedFuture(e);
          }
          stage.whenComplete(
              (value, failure) -> {
                release();
                if (failure != null) answer.completeExceptionally(failure);
                else answer.complete(value);
              });
        };
    boolean now;
    synchronized (this) {
      now = taken < permits;
      if (now) taken++;
      else waiting.add(start);
    }
    if (now) start.run();
    return answer;
  }

  /** Permits held now (for tests and the benchmark). */
  public synchronized int taken() {
    return taken;
  }

  private void release() {
    Runnable next;
    synchronized (this) {
      next = waiting.poll();
      if (next == null) taken--;
    }
    if (next == null) return;
    // The permit passes to the oldest waiter. Work that completes at once (a refused URL) would
    // release again from inside run(): such hand-overs are queued and run here in a loop instead of
    // growing the stack by one frame chain per waiter.
    Queue<Runnable> pending = handOvers.get();
    if (pending != null) {
      pending.add(next);
      return;
    }
    pending = new ArrayDeque<>();
    handOvers.set(pending);
    try {
      for (Runnable r = next; r != null; r = pending.poll()) r.run();
    } finally {
      handOvers.remove();
    }
  }
}
