package io.periscope.run;

import io.periscope.source.FeedCollector;
import io.periscope.source.Item;
import io.periscope.source.NormalizedUrls;
import io.periscope.source.PageCollector;
import io.periscope.trust.TrustTier;
import io.periscope.watch.RunPipeline.Memory;
import io.periscope.watch.Watch;
import io.periscope.watch.WatchSource;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A run's collected items as the items it judges (docs/runs.md, "Keep what is fresh"): one per key
 * within a source, and one per article across the watch's sources — sightings of one normalized URL
 * in different sources are judged once; which of them are seen, and which are old news.
 */
final class RunItems {
  private RunItems() {}

  /**
   * The recency window of a source without {@code recencyDays}: an item published more than this
   * before the source's baseline is old news (docs/model-protocol.md, "What is new").
   */
  static final Duration DEFAULT_RECENCY = Duration.ofDays(7);

  /**
   * One item as a run judges it. {@code item} is the sighting shown: from the best-trusted of the
   * sources that found it, the first of them in the watch's order on a tie. {@code keys}: every
   * sighting's key, all recorded when it is judged or set aside, so a later run that finds only one
   * of them knows it. {@code knownAs}: each key an earlier run may have recorded one of its
   * sightings by.
   */
  record Collected(Item item, List<String> keys, Set<String> knownAs) {
    /** The key the item is recorded by: its shown sighting's. */
    String key() {
      return seenKey(item);
    }

    boolean seenIn(Set<String> seen) {
      return knownAs.stream().anyMatch(seen::contains);
    }

    /**
     * The keys not recorded yet of an item seen by another name (an alias, another source's
     * sighting): recorded now, the old name may age out of the seen set.
     */
    List<String> unrecordedIn(Set<String> seen) {
      return keys.stream().filter(k -> !seen.contains(k)).toList();
    }
  }

  /**
   * The items to judge from every source's items, given in the watch's source order; newest first.
   */
  static List<Collected> of(List<Item> collected) {
    List<Item> items = distinct(collected);
    Map<String, Map<String, Integer>> namesPerSource = new HashMap<>();
    for (Item i : items) {
      Map<String, Integer> names = namesPerSource.computeIfAbsent(scope(i), s -> new HashMap<>());
      for (String name : namesOf(i)) names.merge(name, 1, Integer::sum);
    }
    // sightings of one URL in different sources become one group; within a source they stay apart,
    // so the items of one source (most watches have one) are each a group, their URLs unread
    boolean oneSource = namesPerSource.size() <= 1;
    Map<String, List<List<Item>>> byUrl = new HashMap<>();
    List<List<Item>> groups = new ArrayList<>();
    for (Item i : items) {
      String url = oneSource ? null : NormalizedUrls.forIdentity(i.url());
      List<Item> group = null;
      if (url != null) {
        List<List<Item>> withUrl = byUrl.computeIfAbsent(url, u -> new ArrayList<>());
        group =
            withUrl.stream()
                .filter(g -> g.stream().noneMatch(o -> scope(o).equals(scope(i))))
                .findFirst()
                .orElse(null);
        if (group == null) withUrl.add(group = new ArrayList<>());
      }
      if (group == null) group = new ArrayList<>();
      if (group.isEmpty()) groups.add(group);
      group.add(i);
    }
    Map<Item, Instant> order = sortKeys(items);
    return groups.stream()
        .map(g -> collected(g, namesPerSource))
        .sorted(Comparator.comparing((Collected c) -> order.get(c.item())).reversed())
        .toList();
  }

  /**
   * Whether every item is seen by its own key: then every item {@link #of} makes of them is seen,
   * with no key left to record, so none is fresh, old news or remapped. One lookup an item, before
   * any other work on it.
   */
  static boolean allSeen(List<Item> collected, Set<String> seen) {
    for (Item i : collected) if (!seen.contains(seenKey(i))) return false;
    return true;
  }

  /**
   * How many items {@link #of} makes of these. Sightings are joined across sources only, so items
   * of one source (or of search alone) count by their keys, without reading their URLs.
   */
  static int count(List<Item> collected) {
    Set<String> scopes = new HashSet<>();
    for (Item i : collected) scopes.add(scope(i));
    return scopes.size() <= 1 ? distinct(collected).size() : of(collected).size();
  }

  private static Collected collected(
      List<Item> sightings, Map<String, Map<String, Integer>> namesPerSource) {
    Item shown = sightings.get(0);
    for (Item s : sightings) if (strength(s) < strength(shown)) shown = s;
    List<String> keys = new ArrayList<>();
    Set<String> knownAs = new LinkedHashSet<>();
    for (Item s : sightings) {
      keys.add(seenKey(s));
      knownAs.add(seenKey(s));
      knownAs.add(s.identity()); // seen sets written before keys were scoped hold bare identities
      Map<String, Integer> names = namesPerSource.get(scope(s));
      for (String alias : s.aliases()) {
        if (names.get(alias) != 1) continue; // names another item of the source too
        knownAs.add(keyOf(s, alias));
        knownAs.add(alias);
      }
    }
    return new Collected(shown, List.copyOf(keys), Set.copyOf(knownAs));
  }

  /** Lower is stronger; an item without a known trust is weakest. */
  private static int strength(Item item) {
    return TrustTier.fromWire(item.trust()).map(Enum::ordinal).orElse(TrustTier.values().length);
  }

  private static Set<String> namesOf(Item item) {
    if (item.aliases().isEmpty()) return Collections.singleton(item.identity());
    Set<String> names = new LinkedHashSet<>(item.aliases());
    names.add(item.identity());
    return names;
  }

  /**
   * The key "seen" keeps an item by. A feed's guids are its own (two feeds may both number their
   * items 1, 2, 3), so a feed item's identity is scoped to its feed, a page's change to its page; a
   * search result is its URL, the same article whichever query found it.
   */
  static String seenKey(Item item) {
    return keyOf(item, item.identity());
  }

  private static String keyOf(Item item, String identity) {
    return isFeedItem(item) ? scope(item) + " " + identity : identity;
  }

  /** Where an item's identities are its own: its feed; search results share one scope. */
  private static String scope(Item item) {
    return isFeedItem(item) ? item.sourceType() + ":" + item.sourceValue() : item.sourceType();
  }

  private static boolean isFeedItem(Item item) {
    return FeedCollector.SOURCE_TYPE.equals(item.sourceType())
        || PageCollector.SOURCE_TYPE.equals(item.sourceType());
  }

  /**
   * The first occurrence of each key (the same search result from two queries is one item; two
   * feeds' items are two even when their guids are equal).
   */
  static List<Item> distinct(List<Item> items) {
    Map<String, Item> byKey = new LinkedHashMap<>();
    items.forEach(i -> byKey.putIfAbsent(seenKey(i), i));
    return List.copyOf(byKey.values());
  }

  /**
   * Newest first: the judge's item bound keeps the newest. A feed item without a date sorts with
   * the dated item above it in its feed (feeds list newest first), or as the newest when none is
   * above it, so an undated feed keeps its own order; other undated items (search results) go last.
   */
  static List<Item> newestFirst(List<Item> items) {
    Map<Item, Instant> order = sortKeys(items);
    return items.stream()
        .sorted(Comparator.comparing((Item i) -> order.get(i)).reversed())
        .toList();
  }

  /** Each item's place in time, as {@link #newestFirst} orders them; items in source order. */
  private static Map<Item, Instant> sortKeys(List<Item> items) {
    Map<Item, Instant> order = new IdentityHashMap<>();
    String source = null;
    Instant above = null;
    for (Item i : items) {
      if (!Objects.equals(i.sourceValue(), source)) {
        source = i.sourceValue();
        above = null;
      }
      if (i.published() != null) above = i.published();
      Instant undated = !isFeedItem(i) ? Instant.MIN : above == null ? Instant.MAX : above;
      order.put(i, i.published() != null ? i.published() : undated);
    }
    return order;
  }

  /**
   * Old news, set aside unjudged (docs/model-protocol.md, "What is new"): an item published before
   * its source's baseline minus the recency window, or before the source's {@code recencyDays} ago;
   * an undated item at the source's baseline (it was there before the watch looked).
   */
  static boolean oldNews(Item item, Watch watch, Memory memory, Instant now) {
    WatchSource source =
        watch.sources().stream()
            .filter(s -> s.type().equals(item.sourceType()) && s.value().equals(item.sourceValue()))
            .findFirst()
            .orElse(null);
    if (source == null) return false;
    Instant known = memory.baselines().get(source.key());
    Instant baseline = known != null ? known : memory.baselineAt();
    if (item.published() == null) return known == null;
    Duration window =
        source.recencyDays() != null ? Duration.ofDays(source.recencyDays()) : DEFAULT_RECENCY;
    if (item.published().isBefore(baseline.minus(window))) return true;
    return source.recencyDays() != null && item.published().isBefore(now.minus(window));
  }
}
