package io.periscope.persistence;

import java.time.Duration;

/**
 * How long the embedded journal's next write batch waits: until {@code spacing} after the last
 * batch began, but only when that batch held the events of several persistence ids; otherwise not
 * at all. Each H2 commit writes a chunk of the file whose bytes are mostly the same whatever the
 * batch holds; watches due together whose runs end one after another (as their feeds answer, a few
 * at a time) would otherwise commit every few milliseconds a few events each. Spaced, the persists
 * that arrive while a batch waits or is written queue for the next one.
 *
 * <p>Why several ids: a writer persists again only once its last persist is acknowledged, so a
 * batch holds the events of several ids only when their persists were pending together, which is
 * what spacing can gather. A serial writer, one entity's runs back to back or an import creating
 * one watch after another, has one persist pending at a time, so each of its batches holds one id
 * and none of them waits: spacing it would only cap it at one commit a spacing. Once writers
 * overlap, the spaced batch gathers all that arrived meanwhile, so it holds several ids again and
 * the spacing holds while the burst lasts; it lapses by itself after a batch of one id. A lone
 * persist waits for nothing, and a persist is still acknowledged only once its batch is committed.
 */
final class BatchSpacing {
  private final long spacingNanos;
  private boolean lastHeldSeveral;
  private long lastStart;

  BatchSpacing(Duration spacing) {
    this.spacingNanos = spacing.toNanos();
  }

  /**
   * The nanoseconds a batch ready at {@code now} (by {@link System#nanoTime}) waits; it begins
   * then. {@code severalIds}: the batch holds the events of more than one persistence id.
   */
  synchronized long waitNanos(long now, boolean severalIds) {
    long wait = lastHeldSeveral ? Math.max(0, lastStart + spacingNanos - now) : 0;
    lastHeldSeveral = severalIds;
    lastStart = now + wait;
    return wait;
  }
}
