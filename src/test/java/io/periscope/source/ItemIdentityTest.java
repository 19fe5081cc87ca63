package io.periscope.source;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.junit.Test;

/** The identity rules on small feeds written for each case. */
public class ItemIdentityTest {
  private static List<ItemIdentity.Named> identities(String items) throws Exception {
    String rss =
        "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>t</title>"
            + "<link>https://news.example/</link>"
            + items
            + "</channel></rss>";
    return ItemIdentity.ofFeed(
        FeedReader.read(
                rss.getBytes(StandardCharsets.UTF_8),
                "application/rss+xml",
                "https://news.example/feed",
                200,
                50_000)
            .entries(),
        new IdentityHashMap<>());
  }

  private static String item(String title, String link, String guid) {
    return "<item>"
        + (title == null ? "" : "<title>" + title + "</title>")
        + (link == null ? "" : "<link>" + link + "</link>")
        + (guid == null ? "" : "<guid isPermaLink=\"false\">" + guid + "</guid>")
        + "</item>";
  }

  private static Set<String> distinct(List<ItemIdentity.Named> named) {
    Set<String> ids = new HashSet<>();
    named.forEach(n -> ids.add(n.identity()));
    return ids;
  }

  @Test
  public void distinctGuidsAreTheIdentities() throws Exception {
    List<ItemIdentity.Named> named =
        identities(
            item("One", "https://news.example/1", "g-1")
                + item("Two", "https://news.example/1", "g-2")
                + item("Three", null, null));
    assertEquals("g-1", named.get(0).identity());
    assertEquals("two guids, one link: still two items", "g-2", named.get(1).identity());
    assertEquals(ItemIdentity.linkAndTitle("Three", null), named.get(2).identity());
  }

  /** rsr.ch: fifteen news items, one link, no guid. */
  @Test
  public void itemsSharingALinkWithoutGuidsAreKeptApartByTitle() throws Exception {
    StringBuilder items = new StringBuilder();
    for (int i = 0; i < 15; i++)
      items.append(item("Meldung " + i, "https://www.rsr.example/news", null));
    List<ItemIdentity.Named> named = identities(items.toString());
    assertEquals(15, distinct(named).size());
    assertEquals(
        ItemIdentity.linkAndTitle("Meldung 3", "https://www.rsr.example/news"),
        named.get(3).identity());
    assertTrue(
        "the identity earlier versions gave was the link",
        named.get(3).aliases().contains("https://www.rsr.example/news"));
  }

  @Test
  public void aRepeatedGuidMakesTheWholeFeedKnownByLinkAndTitle() throws Exception {
    List<ItemIdentity.Named> sameForAll =
        identities(
            item("A", "https://news.example/a", "https://news.example/")
                + item("B", "https://news.example/b", "https://news.example/")
                + item("C", "https://news.example/c", "https://news.example/"));
    assertEquals(3, distinct(sameForAll).size());
    assertEquals(
        ItemIdentity.linkAndTitle("A", "https://news.example/a"), sameForAll.get(0).identity());
    // one guid given twice (a republished post): the others' guids are aliases
    List<ItemIdentity.Named> onceRepeated =
        identities(
            item("A", "https://news.example/a", "g-a")
                + item("B", "https://news.example/b", "g-b")
                + item("B again", "https://news.example/b2", "g-b"));
    assertEquals(
        ItemIdentity.linkAndTitle("A", "https://news.example/a"), onceRepeated.get(0).identity());
    assertEquals(List.of("g-a"), onceRepeated.get(0).aliases());
    assertEquals(3, distinct(onceRepeated).size());
  }

  /** scripting.com: untitled posts, anchors of a day's page, one anchor given to two posts. */
  @Test
  public void entriesSharingLinkAndTitleAreToldApartByTheirDates() throws Exception {
    String anchor = "http://scripting.example/2017/06/25.html#a080631";
    List<ItemIdentity.Named> named =
        identities(
            "<item><description>Good morning</description><pubDate>Sun, 25 Jun 2017 12:27:31"
                + " GMT</pubDate><link>"
                + anchor
                + "</link><guid>"
                + anchor
                + "</guid></item><item><description>In 2015 I wrote</description><pubDate>Sun,"
                + " 25 Jun 2017 12:32:31 GMT</pubDate><link>"
                + anchor
                + "</link><guid>"
                + anchor
                + "</guid></item>"
                + item(null, "http://scripting.example/2017/06/25.html#a080606", "other")
                + item(null, "http://scripting.example/2017/06/25.html#a080606", "other"));
    assertEquals(3, distinct(named).size());
    assertTrue(named.get(0).aliases().contains(ItemIdentity.linkAndTitle(null, anchor)));
    assertEquals("alike in link, title and (no) date: one item", named.get(2), named.get(3));
  }

  @Test
  public void theSameLinkAndTitleTwiceIsOneItem() throws Exception {
    List<ItemIdentity.Named> named =
        identities(
            item("History", "https://e.example/nyc.html", null)
                + item("History", "https://E.example:443/nyc.html?utm_source=rss", null));
    assertEquals(1, distinct(named).size());
  }

  @Test
  public void anEntryWithNothingToKnowItByHasNoIdentity() throws Exception {
    List<ItemIdentity.Named> named =
        identities("<item><description>only text</description></item>" + item("T", null, "g"));
    assertNull(named.get(0));
    assertEquals("g", named.get(1).identity());
  }

  @Test
  public void aSearchResultIsItsUrlInIdentityForm() {
    assertEquals(
        new ItemIdentity.Named("https://e.example/a", List.of("https://E.example/a?gclid=1")),
        ItemIdentity.ofUrl("https://E.example/a?gclid=1"));
    assertEquals(
        new ItemIdentity.Named("https://e.example/a", List.of()),
        ItemIdentity.ofUrl("https://e.example/a"));
  }
}
