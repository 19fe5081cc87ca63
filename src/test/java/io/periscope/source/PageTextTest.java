package io.periscope.source;

import static org.junit.Assert.assertEquals;

import java.util.List;
import java.util.Random;
import org.jsoup.Jsoup;
import org.junit.Test;

/**
 * A watched page's blocks read as they did before their reading was made cheaper: whitespace
 * collapsed as the regular expression did, the first of the longest articles, table rows by their
 * own cells, blocks found however deep.
 */
public class PageTextTest {
  @Test
  public void whitespaceCollapsesAsTheRegularExpressionDid() {
    String alphabet = "ab \t\n\r\f\u000b\u00a0\u200b\u2003\u3000\u0001\u001c\u0085é";
    Random random = new Random(40);
    for (int i = 0; i < 5_000; i++) {
      StringBuilder text = new StringBuilder();
      int length = random.nextInt(30);
      for (int c = 0; c < length; c++)
        text.append(alphabet.charAt(random.nextInt(alphabet.length())));
      String t = text.toString();
      assertEquals(t, t.replaceAll("[\\s\\u00a0]+", " ").strip(), PageText.collapsed(t));
    }
  }

  @Test
  public void readsTheFirstOfTheLongestArticlesAndRowsByTheirOwnCells() throws Exception {
    String html =
        "<body><article> \u00a0</article><article><p>one two</p></article>"
            + "<article><p>six\u00a0 six</p><table><tr><th>a</th><td>b<table><tr><td>c</td></tr>"
            + "</table></td></tr><tr>loose</tr></table></article></body>";
    PageText.Extracted read = PageText.of(Jsoup.parse(html), null, List.of());
    // The row's loose text is put before the table by the parser; a row is its own cells' text.
    assertEquals(
        List.of("six six", "loose", "a | b c"),
        read.blocks().stream().map(PageText.Found::text).toList());
  }

  @Test
  public void findsBlocksAtAnyDepth() throws Exception {
    String deep = "<span>".repeat(200) + "<p>deep</p>" + "</span>".repeat(200);
    PageText.Extracted read =
        PageText.of(
            Jsoup.parse("<body><div>loose " + deep + " tail</div></body>"), null, List.of());
    assertEquals(
        List.of("loose", "deep", "tail"),
        read.blocks().stream().map(PageText.Found::text).toList());
  }
}
