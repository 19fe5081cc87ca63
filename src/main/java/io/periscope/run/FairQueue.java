package io.periscope.run;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;

/**
 * Waiting runs, taken in turn per owner: each owner's own runs in arrival order, the owners round
 * robin in the order they began to wait. An owner with hundreds of runs waiting keeps another
 * owner's run waiting at most one turn per owner ahead of it in the rotation. Not thread safe: its
 * user guards it.
 */
final class FairQueue<T> {
  private final Map<String, Queue<T>> byAccount = new HashMap<>();

  /** The owners with something waiting; the head is next. */
  private final Queue<String> turns = new ArrayDeque<>();

  private int size;

  void add(String accountId, T waiting) {
    Queue<T> own = byAccount.get(accountId);
    if (own == null) {
      own = new ArrayDeque<>();
      byAccount.put(accountId, own);
      turns.add(accountId);
    }
    own.add(waiting);
    size++;
  }

  /** The next owner's oldest waiting entry, that owner then going to the back; null when empty. */
  T poll() {
    String accountId = turns.poll();
    if (accountId == null) return null;
    Queue<T> own = byAccount.get(accountId);
    T next = own.poll();
    if (own.isEmpty()) byAccount.remove(accountId);
    else turns.add(accountId);
    size--;
    return next;
  }

  int size() {
    return size;
  }
}
