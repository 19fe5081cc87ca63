package io.periscope.testing;

import io.periscope.source.ItemBounds;
import java.util.regex.Pattern;
import org.jsoup.Jsoup;

/**
 * An item's text as it was read before any shortcut: jsoup's parse of the whole HTML, its text
 * without control characters and with its whitespace collapsed by regular expressions, then cut to
 * the bound. What {@code ItemText} must read alike, and what it is measured against.
 */
public final class WholeHtmlText {
  private static final Pattern CONTROL =
      Pattern.compile("[\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F\\uFFFE\\uFFFF]");
  private static final Pattern SPACES = Pattern.compile("\\s+");

  private WholeHtmlText() {}

  /** The text of {@code html} cut to {@code maxChars}; null when it has none. */
  public static String of(String html, int maxChars) {
    return html == null
        ? null
        : ItemBounds.cut(normalized(Jsoup.parseBodyFragment(html).text()), maxChars);
  }

  /** {@code text} without control characters, its whitespace collapsed; null when empty. */
  public static String normalized(String text) {
    String t = SPACES.matcher(withoutControl(text)).replaceAll(" ").strip();
    return t.isEmpty() ? null : t;
  }

  public static String withoutControl(String text) {
    return CONTROL.matcher(text).replaceAll("");
  }
}
