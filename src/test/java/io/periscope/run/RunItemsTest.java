package io.periscope.run;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.periscope.source.FeedCollector;
import io.periscope.source.Item;
import io.periscope.source.SearchProvider;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.Test;

public class RunItemsTest {
  private static final Instant NOON = Instant.parse("2026-11-25T12:00:00Z");

  private static Item feedItem(
      String feed, String id, String url, String trust, String... aliases) {
    return new Item(
        id, id, url, null, NOON, FeedCollector.SOURCE_TYPE, feed, trust, List.of(aliases));
  }

  private static Item searchResult(String url, String trust) {
    return new Item(url, url, url, null, null, SearchProvider.SOURCE_TYPE, "q", trust, List.of());
  }

  @Test
  public void oneArticleFromTwoSourcesIsJudgedOnceFromTheBetterTrustedSource() {
    Item fromFeed = feedItem("f1", "g-1", "https://e.example/a?utm_source=rss", "community");
    Item fromSearch = searchResult("https://e.example/a", "official");
    List<RunItems.Collected> items = RunItems.of(List.of(fromFeed, fromSearch));
    assertEquals(1, items.size());
    assertEquals(fromSearch, items.get(0).item());
    assertEquals(List.of("rss:f1 g-1", "https://e.example/a"), items.get(0).keys());
    // a later run that finds only the search result knows it
    assertTrue(RunItems.of(List.of(fromSearch)).get(0).seenIn(Set.copyOf(items.get(0).keys())));
  }

  @Test
  public void onATieTheFirstSourceInTheWatchsOrderIsShown() {
    Item first = feedItem("f1", "g-1", "https://e.example/a", null);
    Item second = feedItem("f2", "other-guid", "https://E.example/a#", null);
    List<RunItems.Collected> items = RunItems.of(List.of(first, second));
    assertEquals(1, items.size());
    assertEquals(first, items.get(0).item());
  }

  @Test
  public void itemsOfOneSourceSharingAUrlStayApart() {
    List<RunItems.Collected> items =
        RunItems.of(
            List.of(
                feedItem("f1", "x", "https://e.example/news", null),
                feedItem("f1", "y", "https://e.example/news", null),
                feedItem("f2", "z", "https://e.example/news", null)));
    assertEquals(2, items.size());
    assertEquals(List.of("rss:f1 x", "rss:f2 z"), items.get(0).keys());
    assertEquals(List.of("rss:f1 y"), items.get(1).keys());
  }

  @Test
  public void anAliasCountsOnlyWhereItNamesOneItemOfItsSource() {
    // earlier versions knew these two by their shared link: they were one item then
    Item a = feedItem("f1", "lt-a", "https://e.example/news", null, "https://e.example/news");
    Item b = feedItem("f1", "lt-b", "https://e.example/news", null, "https://e.example/news");
    Item c = feedItem("f1", "lt-c", "https://e.example/c", null, "https://e.example/c");
    Set<String> old = Set.of("rss:f1 https://e.example/news", "rss:f1 https://e.example/c");
    List<RunItems.Collected> items = RunItems.of(List.of(a, b, c));
    assertFalse(items.get(0).seenIn(old));
    assertFalse(items.get(1).seenIn(old));
    RunItems.Collected known = items.get(2);
    assertTrue(known.seenIn(old));
    assertEquals("recorded under its own key now", List.of("rss:f1 lt-c"), known.unrecordedIn(old));
    // seen sets written before keys were scoped hold bare identities
    assertTrue(known.seenIn(Set.of("https://e.example/c")));
  }

  @Test
  public void groupsAreNewestFirstByTheShownItem() {
    Item older = feedItem("f1", "o", "https://e.example/o", null);
    Item newer =
        new Item(
            "n",
            "n",
            "https://e.example/n",
            null,
            NOON.plusSeconds(60),
            "rss",
            "f2",
            null,
            List.of());
    List<RunItems.Collected> items = RunItems.of(List.of(older, newer));
    assertEquals(List.of(newer, older), items.stream().map(RunItems.Collected::item).toList());
  }

  @Test
  public void aFeedWhoseGuidsStopBeingDistinctKeepsItsItems() {
    // run 1: distinct guids, each item known by its guid (its link and title an alias)
    List<RunItems.Collected> before =
        RunItems.of(
            List.of(
                feedItem("f1", "g-a", "https://e.example/a", null, "lt-a"),
                feedItem("f1", "g-b", "https://e.example/b", null, "lt-b")));
    Set<String> seen = new java.util.HashSet<>();
    before.forEach(c -> seen.addAll(c.keys()));
    // run 2: a new item repeats g-b, so the whole feed is known by link and title
    List<RunItems.Collected> after =
        RunItems.of(
            List.of(
                feedItem("f1", "lt-a", "https://e.example/a", null, "g-a"),
                feedItem("f1", "lt-b", "https://e.example/b", null, "g-b"),
                feedItem("f1", "lt-c", "https://e.example/c", null, "g-b")));
    assertTrue(after.get(0).seenIn(seen));
    assertFalse("g-b names two items now: b cannot be told by it", after.get(1).seenIn(seen));
    assertFalse(after.get(2).seenIn(seen));
  }
}
