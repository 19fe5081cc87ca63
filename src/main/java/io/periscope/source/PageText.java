package io.periscope.source;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;
import org.jsoup.select.Selector;

/**
 * The readable text of a watched page as blocks: the elements a CSS selector picks, else the main
 * content (the longest {@code <article>}, else {@code <main>}, else the body without navigation,
 * header, footer and asides). Scripts, styles and what the {@code ignore} selectors name are left
 * out first. Only text counts, whitespace collapsed, so markup and attribute order make no
 * difference.
 */
public final class PageText {
  private static final String NOT_TEXT =
      "script, style, noscript, template, svg, iframe, head, link, meta";
  private static final String PAGE_CHROME = "nav, header, footer, aside";

  /** Elements whose text is one block when no block element is inside them. */
  private static final Set<String> BLOCKS =
      Set.of(
          "p",
          "li",
          "dt",
          "dd",
          "h1",
          "h2",
          "h3",
          "h4",
          "h5",
          "h6",
          "blockquote",
          "pre",
          "figcaption",
          "caption",
          "div",
          "section",
          "article",
          "main",
          "ul",
          "ol",
          "dl",
          "table",
          "thead",
          "tbody",
          "tfoot",
          "form",
          "fieldset",
          "details",
          "summary",
          "address",
          "body");

  private static final Set<String> HEADINGS = Set.of("h1", "h2", "h3", "h4", "h5", "h6");

  /**
   * A block as read from the page: its text, anchor, and the heading above it (null when none),
   * which names it in an item's title.
   */
  public record Found(String text, String anchor, String heading) {
    PageSnapshot.Block block() {
      return new PageSnapshot.Block(text, anchor);
    }
  }

  /** The page's title (may be empty) and its blocks in page order. */
  public record Extracted(String title, List<Found> blocks) {}

  /** The selector picked nothing with text, or the page has no readable text at all. */
  public static final class NoContent extends Exception {
    NoContent(String message) {
      super(message);
    }
  }

  private PageText() {}

  /**
   * Whether {@code css} is a selector jsoup can use; the reason when not.
   *
   * @return empty when it parses
   */
  public static Optional<String> selectorProblem(String css) {
    try {
      Selector.evaluatorOf(css);
      return Optional.empty();
    } catch (Selector.SelectorParseException | IllegalArgumentException e) {
      return Optional.of(e.getMessage() == null ? "does not parse" : e.getMessage());
    }
  }

  /**
   * @param page a parse of the caller's own, pared in place of what never counts (a copy of a whole
   *     page costs as much as a fifth of its parse)
   * @param selector the CSS selector of the watched elements, or null for the main content
   * @param ignore selectors of what never counts (a rotating timestamp, a visitor counter)
   * @throws NoContent when there is no text at the selector (or at all)
   */
  public static Extracted of(Document page, String selector, List<String> ignore) throws NoContent {
    String title = page.title().strip();
    page.select(NOT_TEXT).remove();
    for (String css : ignore) page.select(css).remove();
    List<Element> roots;
    if (selector != null) {
      roots = page.select(selector);
      if (roots.isEmpty() || roots.stream().allMatch(e -> e.text().isBlank()))
        throw new NoContent(
            "the fetched HTML has no content at the selector '"
                + selector
                + "' (a page that only JavaScript renders looks like this)");
    } else {
      roots = List.of(mainContent(page));
    }
    List<Found> blocks = new ArrayList<>();
    Walk walk = new Walk(blocks);
    for (Element root : distinctRoots(roots)) walk.visit(root, anchorAbove(root));
    if (blocks.isEmpty())
      throw new NoContent(
          "the fetched HTML has no readable text (a page that only JavaScript renders looks like"
              + " this)");
    return new Extracted(title, blocks);
  }

  /** The page's blocks as one text, a block a line: what the editor's "Check" shows. */
  public static String asText(List<Found> blocks) {
    StringBuilder text = new StringBuilder();
    for (Found b : blocks) text.append(b.text()).append('\n');
    return text.toString();
  }

  private static Element mainContent(Document page) {
    Element article = null;
    int articleChars = 0;
    for (Element e : page.select("article")) { // the first of the longest, each text read once
      String text = e.text();
      if (!text.isBlank() && (article == null || text.length() > articleChars)) {
        article = e;
        articleChars = text.length();
      }
    }
    if (article != null) return article;
    Element main = page.selectFirst("main");
    if (main != null && !main.text().isBlank()) return main;
    Element body = page.body();
    body.select(PAGE_CHROME).remove();
    return body;
  }

  /** The id of the nearest ancestor that has one, else null. */
  private static String anchorAbove(Element element) {
    for (Element parent : element.parents()) if (!parent.id().isEmpty()) return parent.id();
    return null;
  }

  /** Selected elements without those inside another selected one (their text is its text). */
  private static List<Element> distinctRoots(List<Element> roots) {
    Set<Element> all = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    all.addAll(roots);
    return roots.stream().filter(e -> e.parents().stream().noneMatch(all::contains)).toList();
  }

  /** A walk in page order that keeps the heading last seen. */
  private static final class Walk {
    private final List<Found> blocks;
    private String heading;

    Walk(List<Found> blocks) {
      this.blocks = blocks;
    }

    void visit(Element element, String inheritedAnchor) {
      String anchor = element.id().isEmpty() ? inheritedAnchor : element.id();
      String tag = element.normalName();
      if (tag.equals("tr")) {
        add(rowText(element), anchor);
        return;
      }
      if (!hasBlockInside(element)) {
        add(element.text(), anchor);
        if (HEADINGS.contains(tag)) heading = element.text().strip();
        return;
      }
      // A container: its own loose text (between its blocks) is a block of its own.
      StringBuilder loose = new StringBuilder();
      for (Node child : element.childNodes()) {
        if (child instanceof TextNode t) {
          loose.append(t.text());
        } else if (child instanceof Element e) {
          if (isBlock(e) || hasBlockInside(e)) {
            add(loose.toString(), anchor);
            loose.setLength(0);
            visit(e, anchor);
          } else {
            loose.append(' ').append(e.text()).append(' ');
          }
        }
      }
      add(loose.toString(), anchor);
    }

    private void add(String text, String anchor) {
      String collapsed = collapsed(text);
      if (!collapsed.isEmpty()) blocks.add(new Found(collapsed, anchor, heading));
    }
  }

  /**
   * {@code text} with each run of whitespace ({@code [ \t\n\x0B\f\r]} and the no-break space) one
   * space, then stripped: what {@code replaceAll("[\\s\\u00a0]+", " ").strip()} gives, in one pass
   * instead of a regular expression's (which was the most of reading a page's blocks after its
   * parse).
   */
  static String collapsed(String text) {
    StringBuilder out = new StringBuilder(text.length());
    boolean space = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == ' '
          || c == '\t'
          || c == '\n'
          || c == '\u000B'
          || c == '\f'
          || c == '\r'
          || c == '\u00a0') {
        space = true;
        continue;
      }
      if (space) out.append(' ');
      space = false;
      out.append(c);
    }
    if (space) out.append(' ');
    return out.toString().strip();
  }

  /** A table row's cells, separated so that a changed cell reads as one. */
  private static String rowText(Element row) {
    List<String> cells = new ArrayList<>();
    for (Element cell : row.children())
      if (cell.normalName().equals("th") || cell.normalName().equals("td")) cells.add(cell.text());
    return cells.isEmpty() ? row.text() : String.join(" | ", cells);
  }

  private static boolean isBlock(Element e) {
    return BLOCKS.contains(e.normalName()) || e.normalName().equals("tr");
  }

  /**
   * Whether a descendant is a block; the search ends at the first (a list of all was quadratic).
   */
  private static boolean hasBlockInside(Element element) {
    for (Element child : element.children())
      if (isBlock(child) || hasBlockInside(child)) return true;
    return false;
  }
}
