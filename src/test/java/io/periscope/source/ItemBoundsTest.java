package io.periscope.source;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;

import java.util.List;
import org.junit.Test;

public class ItemBoundsTest {
  private static Item item(String identity, String title, String url, String summary) {
    return new Item(identity, title, url, summary, null, "search", "q", null, List.of());
  }

  @Test
  public void anItemWithinTheBoundsIsKeptAsItIs() {
    Item item = item("id", "Title", "https://e.example/a", "Summary");
    assertSame(item, ItemBounds.bounded(item));
  }

  @Test
  public void eachFieldIsBounded() {
    String identity = "i".repeat(ItemBounds.MAX_IDENTITY_CHARS + 1);
    Item bounded =
        ItemBounds.bounded(
            item(
                identity,
                "t".repeat(10_000),
                "https://e.example/" + "p".repeat(ItemBounds.MAX_URL_CHARS),
                "s".repeat(10_000)));
    assertEquals("sha256:" + "", bounded.identity().substring(0, 7));
    assertEquals(ItemBounds.digest(identity), bounded.identity());
    assertEquals(ItemBounds.MAX_TITLE_CHARS, bounded.title().length());
    assertNull(bounded.url());
    assertEquals(ItemBounds.MAX_SUMMARY_CHARS, bounded.summary().length());
  }

  @Test
  public void onlyAbsoluteHttpAndHttpsLinksAreWebLinks() {
    assertEquals("https://e.example/a", ItemBounds.webLink("https://e.example/a"));
    assertEquals("HTTP://e.example/a", ItemBounds.webLink("HTTP://e.example/a"));
    for (String url :
        new String[] {
          "javascript:alert(1)",
          " javascript:alert(1)",
          "data:text/html,x",
          "http:relative",
          "/a",
          ""
        }) assertNull(url, ItemBounds.webLink(url));
  }

  @Test
  public void aCutNeverSplitsASurrogatePair() {
    String text = "a".repeat(ItemBounds.MAX_TITLE_CHARS - 1) + "\uD83D\uDE00";
    String cut = ItemBounds.cut(text, ItemBounds.MAX_TITLE_CHARS);
    assertEquals(ItemBounds.MAX_TITLE_CHARS - 1, cut.length());
  }

  @Test
  public void everySourcesItemsPassTheBounds() {
    SourceResult result =
        SourceResult.ok(java.util.List.of(item("x", "t".repeat(400), null, null)));
    assertEquals(ItemBounds.MAX_TITLE_CHARS, result.items().get(0).title().length());
  }
}
