package io.periscope.watch;

import java.util.AbstractList;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import java.util.Set;

/**
 * A watch's seen item keys, oldest first, each once: an immutable list that is also a set ({@link
 * #asSet()}), and that a run marking keys seen extends without copying them all. The keys are a
 * shared base, of which the oldest may be dropped, and the keys added since, copied at each
 * addition; the base is made again once those pass {@link #REBASE_AFTER}. So a judged run's new key
 * costs a few dozen steps, not a copy of up to {@link WatchEntity#SEEN_BOUND} keys into a set and
 * back. Serialized as the list it is.
 */
final class SeenKeys extends AbstractList<String> implements RandomAccess {
  /** About the root of twice the bound: what a run copies and what a new base costs balance. */
  static final int REBASE_AFTER = 100;

  static final SeenKeys EMPTY =
      new SeenKeys(new String[0], Collections.emptyMap(), 0, new String[0], Collections.emptyMap());

  /** Never changed once made, and shared by the lists made from this one. */
  private final String[] base;

  /** Where each key of {@link #base} is in it. */
  private final Map<String, Integer> basePositions;

  /** The first key of {@link #base} still in this list. */
  private final int from;

  private final String[] added;

  private final Map<String, Integer> addedPositions;

  private final Set<String> asSet = new AsSet();

  private SeenKeys(
      String[] base,
      Map<String, Integer> basePositions,
      int from,
      String[] added,
      Map<String, Integer> addedPositions) {
    this.base = base;
    this.basePositions = basePositions;
    this.from = from;
    this.added = added;
    this.addedPositions = addedPositions;
  }

  /** {@code keys} as seen keys: the same list when it is one, else its keys, each once. */
  static SeenKeys of(List<String> keys) {
    if (keys instanceof SeenKeys seen) return seen;
    if (keys.isEmpty()) return EMPTY;
    return based(new LinkedHashSet<>(keys).toArray(String[]::new));
  }

  private static SeenKeys based(String[] keys) {
    Map<String, Integer> positions = sized(keys.length);
    for (int i = 0; i < keys.length; i++) positions.put(keys[i], i);
    return new SeenKeys(keys, positions, 0, new String[0], Collections.emptyMap());
  }

  private static Map<String, Integer> sized(int keys) {
    return new HashMap<>(keys * 4 / 3 + 1);
  }

  /**
   * These keys and then {@code more} not among them, in their order, less the oldest past {@code
   * bound}; this very list when {@code more} has no new key.
   */
  SeenKeys with(List<String> more, int bound) {
    LinkedHashSet<String> fresh = new LinkedHashSet<>();
    for (String key : more) if (!contains(key)) fresh.add(key);
    if (fresh.isEmpty()) return this;
    String[] grown = Arrays.copyOf(added, added.length + fresh.size());
    int next = added.length;
    for (String key : fresh) grown[next++] = key;
    int kept = base.length - from;
    int drop = Math.max(0, kept + grown.length - bound);
    if (grown.length > REBASE_AFTER || drop > kept) {
      String[] all = new String[kept + grown.length - drop];
      int at = 0;
      for (int i = from + drop; i < base.length; i++) all[at++] = base[i];
      int skip = Math.max(0, drop - kept);
      for (int i = skip; i < grown.length; i++) all[at++] = grown[i];
      return based(all);
    }
    Map<String, Integer> positions = sized(grown.length);
    for (int i = 0; i < grown.length; i++) positions.put(grown[i], i);
    return new SeenKeys(base, basePositions, from + drop, grown, positions);
  }

  /** This list as a set: its keys, looked up without a copy. */
  Set<String> asSet() {
    return asSet;
  }

  /**
   * {@code keys} unchanged when it is a set of seen keys ({@link #asSet()}, immutable), else an
   * immutable copy.
   */
  static Set<String> frozen(Set<String> keys) {
    return keys instanceof AsSet ? keys : Set.copyOf(keys);
  }

  @Override
  public String get(int index) {
    int kept = base.length - from;
    if (index < 0 || index >= kept + added.length) throw new IndexOutOfBoundsException(index);
    return index < kept ? base[from + index] : added[index - kept];
  }

  @Override
  public int size() {
    return base.length - from + added.length;
  }

  @Override
  public boolean contains(Object key) {
    Integer at = basePositions.get(key); // a key dropped from the base may have come again
    return at != null && at >= from || addedPositions.containsKey(key);
  }

  @Override
  public int indexOf(Object key) {
    Integer at = basePositions.get(key);
    if (at != null && at >= from) return at - from;
    at = addedPositions.get(key);
    return at == null ? -1 : base.length - from + at;
  }

  @Override
  public int lastIndexOf(Object key) {
    return indexOf(key);
  }

  private final class AsSet extends AbstractSet<String> {
    @Override
    public boolean contains(Object key) {
      return SeenKeys.this.contains(key);
    }

    @Override
    public Iterator<String> iterator() {
      return SeenKeys.this.iterator();
    }

    @Override
    public int size() {
      return SeenKeys.this.size();
    }
  }
}
