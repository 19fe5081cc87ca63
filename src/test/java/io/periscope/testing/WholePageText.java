package io.periscope.testing;

import io.periscope.source.BudgetedParse;
import io.periscope.source.ItemBounds;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;

/**
 * A page's excerpt as it was read before any shortcut: a parse that tracks its repairs, the longest
 * {@code <article>} by its text (measured anew at each comparison), else {@code <main>}, else the
 * body, each copied whole and pared of what is never text before its text is taken. What {@code
 * ArticleExtractor} must read alike, and what it is measured against.
 */
public final class WholePageText {
  private static final String NOT_TEXT = "script, style, noscript, template, svg, iframe, form";
  private static final String PAGE_CHROME = "nav, header, footer, aside";

  private WholePageText() {}

  /** The excerpt of {@code html} cut to {@code maxChars}; empty when it has no text. */
  public static Optional<String> of(String html, String baseUri, int maxElements, int maxChars) {
    Document document = BudgetedParse.html(html, baseUri, maxElements).document();
    Optional<Element> article =
        document.select("article").stream().max(Comparator.comparingInt(e -> e.text().length()));
    List<Element> candidates = new ArrayList<>();
    article.ifPresent(candidates::add);
    Optional.ofNullable(document.selectFirst("main")).ifPresent(candidates::add);
    for (Element candidate : candidates) {
      Element copy = candidate.clone();
      copy.select(NOT_TEXT).remove();
      String text = copy.text();
      if (!text.isBlank()) return Optional.of(ItemBounds.cut(text.trim(), maxChars));
    }
    if (document.body() == null) return Optional.empty();
    Element body = document.body().clone();
    body.select(NOT_TEXT + ", " + PAGE_CHROME).remove();
    String text = body.text().trim();
    return text.isEmpty() ? Optional.empty() : Optional.of(ItemBounds.cut(text, maxChars));
  }
}
