package io.periscope.source;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jsoup.nodes.Element;

/**
 * The feeds an HTML page names in {@code <link rel="alternate" type="…">} (RSS, Atom or JSON Feed),
 * in the page's order. The page is read by the budgeted parse like any other (no script runs,
 * nothing else is fetched); each address is resolved against the page (its {@code <base>} too) and
 * kept only when it is an http(s) URL a watch could hold.
 */
public final class FeedDiscovery {
  /** A feed a page names: its absolute address, the link's title (may be null) and its format. */
  public record Found(String url, String title, String format) {}

  /** A page naming more feeds than this has the rest ignored. */
  public static final int MAX_FOUND = 20;

  /** The link types that name a feed, and the format each is. */
  private static final Map<String, String> FORMATS =
      Map.of(
          "application/rss+xml", "rss",
          "application/atom+xml", "atom",
          "application/feed+json", "json");

  private FeedDiscovery() {}

  /**
   * The feeds {@code body} (an answer fetched from {@code baseUrl}, after redirects) names; none
   * when it is no HTML page or names none.
   */
  public static List<Found> in(byte[] body, String contentType, String baseUrl, int maxElements) {
    String text = TextDecoding.decode(body, contentType, TextDecoding.Declaration.HTML_META).text();
    BudgetedParse parse = BudgetedParse.html(text, baseUrl, maxElements);
    List<Found> found = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    for (Element link : parse.document().select("link[rel][type][href]")) {
      if (!isAlternate(link.attr("rel"))) continue;
      String format = FORMATS.get(mediaType(link.attr("type")));
      if (format == null) continue;
      String url = FeedUrls.valid(link.absUrl("href")).orElse(null);
      if (url == null || !seen.add(url)) continue;
      String title = link.attr("title").strip();
      found.add(new Found(url, title.isEmpty() ? null : title, format));
      if (found.size() == MAX_FOUND) break;
    }
    return found;
  }

  private static boolean isAlternate(String rel) {
    for (String token : rel.toLowerCase(Locale.ROOT).split("\\s+"))
      if (token.equals("alternate")) return true;
    return false;
  }

  private static String mediaType(String type) {
    int parameters = type.indexOf(';');
    return (parameters < 0 ? type : type.substring(0, parameters)).strip().toLowerCase(Locale.ROOT);
  }
}
