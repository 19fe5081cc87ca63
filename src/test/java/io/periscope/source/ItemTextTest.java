package io.periscope.source;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import io.periscope.testing.ArticleHtml;
import io.periscope.testing.WholeHtmlText;
import java.util.List;
import java.util.Random;
import org.junit.Test;

/**
 * An item's text reads exactly as jsoup's parse of the whole HTML, cut to the bound: for text
 * without markup (which is not parsed) and for HTML (of which only a start is parsed when it is
 * long).
 */
public class ItemTextTest {
  private static final List<Integer> BOUNDS = List.of(1, 7, 100, ItemBounds.MAX_SUMMARY_CHARS);

  private static void assertSameText(String html) {
    for (int max : BOUNDS) {
      String text = ItemText.ofHtml(html, max);
      assertEquals(html, WholeHtmlText.of(html, max), text);
      assertTrue(text == null || text.length() <= max);
    }
    assertEquals(html, WholeHtmlText.of(html, Integer.MAX_VALUE), ItemText.ofHtml(html));
  }

  @Test
  public void textWithoutMarkupReadsAsItsParse() {
    String alphabet =
        "ab \t\n\r\f\u000b\u00a0\u200b\u00ad\u2003\u3000\u0000\u0001\u001f\ufeff>\"'é";
    Random random = new Random(40);
    for (int i = 0; i < 2_000; i++) {
      StringBuilder text = new StringBuilder();
      int length = random.nextInt(40);
      for (int c = 0; c < length; c++) {
        if (random.nextInt(20) == 0) text.append("😀");
        else text.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      assertSameText(text.toString());
    }
    assertEquals(
        "no break and soft hyphen", ItemText.ofHtml("no\u00a0break and soft hyph\u00aden"));
    assertNull(ItemText.ofHtml(" \u00a0\u200b\n"));
  }

  @Test
  public void normalizingDropsControlsAndCollapsesAsTheRegularExpressionsDid() {
    String alphabet = "ab \t\n\r\f\u000b\u00a0\u2003\u3000\u0000\u001f\ufffe\uffff";
    Random random = new Random(43);
    for (int i = 0; i < 5_000; i++) {
      StringBuilder text = new StringBuilder();
      int length = random.nextInt(20);
      for (int c = 0; c < length; c++)
        text.append(alphabet.charAt(random.nextInt(alphabet.length())));
      String t = text.toString();
      assertEquals(t, WholeHtmlText.normalized(t), ItemText.normalized(t));
      assertEquals(WholeHtmlText.withoutControl(t), ItemText.withoutControl(t));
    }
  }

  @Test
  public void longArticlesReadAsTheirWholeParse() {
    Random random = new Random(41);
    for (int i = 0; i < 20; i++) {
      String html = ArticleHtml.article(random, 30_000);
      assertSameText(html);
      assertEquals(
          ItemBounds.MAX_SUMMARY_CHARS,
          ItemText.ofHtml(html, ItemBounds.MAX_SUMMARY_CHARS).length());
    }
  }

  @Test
  public void anyMixOfMarkupReadsAsItsWholeParse() {
    Random random = new Random(42);
    for (int i = 0; i < 400; i++) assertSameText(ArticleHtml.soup(random, random.nextInt(12_000)));
  }

  @Test
  public void entitiesAreDecodedWithOrWithoutTheirSemicolon() {
    assertEquals(
        "Tom & Jerry — café © 2026 <tag>",
        ItemText.ofHtml("Tom &amp; Jerry &#8212; caf&eacute; &copy 2026 &lt;tag&gt;", 100));
    assertEquals("Tom & Je", ItemText.ofHtml("<p>Tom &amp; Jerry</p>", 8));
  }

  @Test
  public void aStartEndingAtAnEntityOrInsideATagReadsAsTheWhole() {
    int max = 10;
    String filler = "x".repeat(8 * max - 4);
    assertSameText(filler + "&amp<b>" + "y".repeat(100) + "</b>");
    assertSameText(filler + "&#38<b>" + "y".repeat(100));
    assertSameText(filler + "<a title=\"1 <b> 2\">" + "y".repeat(100) + "</a>");
    assertSameText(filler + "<!-- <b> -->" + "y".repeat(100));
    assertSameText("<textarea>" + filler + "<b>y</b>" + "y".repeat(100) + "</textarea>");
    assertSameText("<title>" + filler + "<b>y</b>" + "y".repeat(100) + "</title>");
  }

  @Test
  public void textATableMovesBeforeItselfIsStillFirst() {
    String html = "<table><tr><td>" + "cell ".repeat(400) + "</td></tr>stray</table>";
    assertEquals("stray cell", ItemText.ofHtml(html, 10));
    assertSameText(html);
  }

  @Test
  public void theCutNeverSplitsASurrogatePair() {
    String html = "<p>" + "a".repeat(99) + "😀" + "b".repeat(2_000) + "</p>";
    assertEquals("a".repeat(99), ItemText.ofHtml(html, 100));
    assertSameText(html);
  }
}
