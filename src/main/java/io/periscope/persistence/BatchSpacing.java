package io.periscope.persistence;

import java.time.Duration;

/**
 * How long the embedded journal's next write batch waits: not at all after a quiet spell, else
 * until {@code spacing} after the last batch began. Each H2 commit writes a chunk of the file whose
 * bytes are mostly the same whatever the batch holds; watches due together whose runs end one after
 * another (as their feeds answer, a few at a time) would otherwise commit every few milliseconds a
 * few events each. Spaced, the persists that arrive while a batch waits or is written queue for the
 * next one. A lone persist waits for nothing, and a persist is still acknowledged only once its
 * batch is committed.
 */
final class BatchSpacing {
  private final long spacingNanos;
  private boolean started;
  private long lastStart;

  BatchSpacing(Duration spacing) {
    this.spacingNanos = spacing.toNanos();
  }

  /**
   * The nanoseconds a batch ready at {@code now} (by {@link System#nanoTime}) waits; it begins
   * then.
   */
  synchronized long waitNanos(long now) {
    long wait = started ? Math.max(0, lastStart + spacingNanos - now) : 0;
    started = true;
    lastStart = now + wait;
    return wait;
  }
}
