package io.periscope.watch;

import java.util.AbstractList;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * A watch's newest runs, newest first: an immutable list that a run extends without copying the
 * runs before it. The runs lie oldest first in an array shared by the lists made from one another,
 * each list seeing its own stretch of it; a new run takes the place after its list's stretch when
 * no other list took it, else (and when the array is full) the kept runs are copied into a new
 * array with {@link #ROOM} places to spare. So a run costs a few steps and, once in {@code ROOM}
 * runs, a copy of the {@link WatchEntity#RECENT_RUNS} kept. Serialized as the list it is.
 */
final class RecentRuns extends AbstractList<RunRecord> implements RandomAccess {
  /** The runs a new array takes before it is copied: the copies' share against what it holds. */
  static final int ROOM = 32;

  static final RecentRuns EMPTY = new RecentRuns(new Shared(new RunRecord[0], 0), 0, 0);

  /** The array and how many of its places lists took; a place is written once, then only read. */
  private record Shared(RunRecord[] runs, AtomicInteger taken) {
    Shared(RunRecord[] runs, int taken) {
      this(runs, new AtomicInteger(taken));
    }
  }

  private final Shared shared;

  /** Past the newest run of this list in {@link #shared}. */
  private final int end;

  private final int size;

  private RecentRuns(Shared shared, int end, int size) {
    this.shared = shared;
    this.end = end;
    this.size = size;
  }

  /** {@code runs} (newest first) as recent runs: the same list when it is one. */
  static RecentRuns of(List<RunRecord> runs) {
    if (runs instanceof RecentRuns recent) return recent;
    if (runs.isEmpty()) return EMPTY;
    int n = runs.size();
    RunRecord[] oldestFirst = new RunRecord[n + ROOM];
    for (int i = 0; i < n; i++) oldestFirst[n - 1 - i] = Objects.requireNonNull(runs.get(i));
    return new RecentRuns(new Shared(oldestFirst, n), n, n);
  }

  /** {@code newest} and then the newest of these runs, {@code bound} runs at most in all. */
  RecentRuns with(RunRecord newest, int bound) {
    Objects.requireNonNull(newest);
    int kept = Math.min(size, bound - 1);
    RunRecord[] runs = shared.runs();
    if (end < runs.length && shared.taken().compareAndSet(end, end + 1)) {
      runs[end] = newest;
      return new RecentRuns(shared, end + 1, kept + 1);
    }
    RunRecord[] copy = new RunRecord[kept + 1 + ROOM];
    System.arraycopy(runs, end - kept, copy, 0, kept);
    copy[kept] = newest;
    return new RecentRuns(new Shared(copy, kept + 1), kept + 1, kept + 1);
  }

  /**
   * The runs of {@code runIds} as {@code change} gives them, the others as they are: this very list
   * when none is among these. The newest are looked at first, and the older no more once all were
   * found (the runs an alert's deliveries update are its own, most often the newest).
   */
  RecentRuns replaced(Set<String> runIds, UnaryOperator<RunRecord> change) {
    RunRecord[] changed = null;
    int found = 0;
    for (int i = 0; i < size && found < runIds.size(); i++) {
      RunRecord run = get(i);
      if (!runIds.contains(run.runId())) continue;
      found++;
      if (changed == null) {
        changed = new RunRecord[size + ROOM];
        System.arraycopy(shared.runs(), end - size, changed, 0, size);
      }
      changed[size - 1 - i] = Objects.requireNonNull(change.apply(run));
    }
    return changed == null ? this : new RecentRuns(new Shared(changed, size), size, size);
  }

  @Override
  public RunRecord get(int index) {
    Objects.checkIndex(index, size);
    return shared.runs()[end - 1 - index];
  }

  @Override
  public int size() {
    return size;
  }
}
