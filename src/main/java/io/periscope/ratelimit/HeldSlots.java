package io.periscope.ratelimit;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Things held open at once per key (connections per client address, event streams per account), at
 * most {@code perKey}: a slot is taken when one opens and released when it closes.
 */
public final class HeldSlots<K> {
  private final int perKey;
  private final ConcurrentHashMap<K, Integer> held = new ConcurrentHashMap<>();

  public HeldSlots(int perKey) {
    this.perKey = perKey;
  }

  public int perKey() {
    return perKey;
  }

  /** Takes a slot of {@code key}; false, and nothing taken, when all of its slots are held. */
  public boolean take(K key) {
    if (held.merge(key, 1, Integer::sum) <= perKey) return true;
    release(key);
    return false;
  }

  public void release(K key) {
    held.computeIfPresent(key, (k, count) -> count == 1 ? null : count - 1);
  }
}
