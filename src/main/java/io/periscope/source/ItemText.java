package io.periscope.source;

import java.util.regex.Pattern;
import org.jsoup.Jsoup;

/**
 * A feed's text (a title, a summary, a content) as plain text: HTML taken out by jsoup, control
 * characters dropped, whitespace collapsed; empty text is none (null).
 *
 * <p>Parsing HTML is most of reading a feed whose items carry their whole article, and an item
 * keeps only the start of its summary ({@link ItemBounds#MAX_SUMMARY_CHARS}). So text without
 * markup (no {@code <} and no {@code &}) is not parsed at all, and long HTML is parsed from its
 * start only, as far as the text kept needs. Either gives exactly the text the whole parse gives,
 * cut to the bound:
 *
 * <ul>
 *   <li>Without {@code <} or {@code &} the parse is the text itself, with jsoup's own whitespace
 *       (it counts the no-break space and the form feed as spaces, where the form feed would
 *       otherwise go as a control character, and drops zero-width spaces and soft hyphens).
 *   <li>The HTML parser builds the document from left to right and never looks past the character
 *       it reads, so the parse of a start of the HTML that ends before a {@code <} is the parse of
 *       the whole up to there, with the open elements closed (a tag or a character reference reads
 *       the same before a {@code <} as at the end). Only a table moves what follows it before what
 *       came earlier (text inside it but in no cell goes before it), and a template or frameset
 *       reorganises the document: HTML whose start opens one of them is parsed whole. So the text
 *       of a start, up to its last character, is how the whole text starts; when it reaches past
 *       the bound, the text kept is the same, and when it does not, a longer start is tried, then
 *       the whole.
 * </ul>
 */
public final class ItemText {
  /** Start tags whose elements move content parsed after them before content parsed earlier. */
  private static final Pattern REORDERING =
      Pattern.compile("<(?:table|template|frameset)", Pattern.CASE_INSENSITIVE);

  /**
   * The first start parsed is this many characters of HTML for each character of text kept: in the
   * long contents of the feed corpus, it held the text kept for six in seven.
   */
  private static final int FIRST_START = 2;

  /** Each next start is this many times longer than the one before. */
  private static final int GROWTH = 4;

  private ItemText() {}

  /**
   * {@code text} without control characters, its whitespace ({@code [ \t\n\r]}) collapsed to one
   * space and stripped; null when empty.
   */
  public static String normalized(String text) {
    return text == null ? null : collapsed(text, false);
  }

  /** The whole text of {@code html}. */
  public static String ofHtml(String html) {
    return ofHtml(html, Integer.MAX_VALUE);
  }

  /**
   * The text of {@code html} cut to {@code maxChars} ({@link ItemBounds#cut}): what the whole text
   * cut there is.
   */
  public static String ofHtml(String html, int maxChars) {
    if (html == null) return null;
    if (html.indexOf('<') < 0 && html.indexOf('&') < 0) {
      return ItemBounds.cut(collapsed(html, true), maxChars);
    }
    long startChars = (long) maxChars * FIRST_START;
    while (startChars < html.length()) {
      int end = html.indexOf('<', (int) startChars);
      if (end < 0 || REORDERING.matcher(html).region(0, end).find()) break;
      String text = parsedText(html.substring(0, end));
      if (text != null && text.length() > maxChars) return ItemBounds.cut(text, maxChars);
      startChars *= GROWTH;
    }
    return ItemBounds.cut(parsedText(html), maxChars);
  }

  /** {@code text} without the characters XML 1.0 does not allow; {@code text} when it has none. */
  static String withoutControl(String text) {
    int first = 0;
    while (first < text.length() && !isControl(text.charAt(first))) first++;
    if (first == text.length()) return text;
    StringBuilder out = new StringBuilder(text.length()).append(text, 0, first);
    for (int i = first + 1; i < text.length(); i++) {
      char c = text.charAt(i);
      if (!isControl(c)) out.append(c);
    }
    return out.toString();
  }

  private static String parsedText(String html) {
    return normalized(Jsoup.parseBodyFragment(html).text());
  }

  /**
   * {@link #normalized} in one pass; {@code asJsoupReadsIt}: as jsoup's text of it would be, where
   * the no-break space and the form feed are spaces (the form feed would otherwise go as a control
   * character), and zero-width spaces and soft hyphens are left out.
   */
  private static String collapsed(String text, boolean asJsoupReadsIt) {
    StringBuilder out = new StringBuilder(text.length());
    boolean space = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (asJsoupReadsIt) {
        if (c == '\u200b' || c == '\u00ad') continue;
        if (c == '\u00a0' || c == '\f') c = ' ';
      }
      if (isControl(c)) continue;
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        space = true;
        continue;
      }
      if (space && !out.isEmpty()) out.append(' ');
      space = false;
      out.append(c);
    }
    String t = out.toString().strip(); // strip: other Unicode spaces at the ends go too
    return t.isEmpty() ? null : t;
  }

  /** What XML 1.0 does not allow: C0 controls but tab, line feed and carriage return; U+FFFE/F. */
  private static boolean isControl(char c) {
    return c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == '\uFFFE' || c == '\uFFFF';
  }
}
