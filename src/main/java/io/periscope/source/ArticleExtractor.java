package io.periscope.source;

import io.periscope.net.SafeHttp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Predicate;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;
import org.jsoup.select.NodeFilter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fetches an item's page through {@link SafeHttp} and keeps its readable text: the longest {@code
 * <article>}, else {@code <main>}, else the body without its navigation, header, footer, asides and
 * forms. A page that cannot be fetched or read yields no text (the run falls back to the feed's
 * summary); it never fails the run.
 */
public final class ArticleExtractor {
  public static final Duration PAGE_TIMEOUT = Duration.ofSeconds(10);
  public static final int MAX_TEXT_CHARS = 20_000;

  private static final Logger log = LoggerFactory.getLogger(ArticleExtractor.class);
  private static final String ACCEPT = "text/html, application/xhtml+xml;q=0.9, */*;q=0.1";
  private static final String NOT_TEXT = "script, style, noscript, template, svg, iframe, form";
  private static final String PAGE_CHROME = "nav, header, footer, aside";

  private final SafeHttp http;
  private final CollectionBudget budget;

  /** An extractor with a budget of its own (tests); a node shares one with its feed collector. */
  public ArticleExtractor(SafeHttp http) {
    this(http, new CollectionBudget(CollectionLimits.DEFAULTS));
  }

  public ArticleExtractor(SafeHttp http, CollectionBudget budget) {
    this.http = http;
    this.budget = budget;
  }

  /** The page's readable text, capped at {@link #MAX_TEXT_CHARS}; empty when it cannot be had. */
  public CompletionStage<Optional<String>> extract(String url) {
    try {
      long maxBytes = budget.limits().pageMaxBytes();
      int maxElements = budget.limits().parseMaxElements();
      return budget
          .fetchAndParse(
              () -> http.get(url, Map.of("Accept", ACCEPT), maxBytes, PAGE_TIMEOUT),
              page -> readableText(page, maxElements))
          .exceptionally(
              failure -> {
                log.debug("no article text from {}: {}", hostOf(url), failure.getMessage());
                return Optional.empty();
              });
    } catch (RuntimeException e) {
      return CompletableFuture.completedFuture(Optional.empty());
    }
  }

  /**
   * The text of each item's page, in the items' order, with at most {@code concurrency} fetches in
   * flight. Items without a URL get no text. The stage always completes normally.
   */
  public CompletionStage<List<Optional<String>>> extractAll(List<Item> items, int concurrency) {
    if (concurrency < 1) throw new IllegalArgumentException("concurrency must be at least 1");
    AtomicReferenceArray<Optional<String>> texts = new AtomicReferenceArray<>(items.size());
    AtomicInteger next = new AtomicInteger();
    CompletableFuture<?>[] workers = new CompletableFuture<?>[Math.min(concurrency, items.size())];
    for (int w = 0; w < workers.length; w++) workers[w] = work(items, texts, next);
    return CompletableFuture.allOf(workers)
        .thenApply(
            done -> {
              List<Optional<String>> ordered = new ArrayList<>(items.size());
              for (int i = 0; i < items.size(); i++) ordered.add(texts.get(i));
              return ordered;
            });
  }

  /** One worker: takes the next unclaimed item until none is left. */
  private CompletableFuture<Void> work(
      List<Item> items, AtomicReferenceArray<Optional<String>> texts, AtomicInteger next) {
    int index = next.getAndIncrement();
    if (index >= items.size()) return CompletableFuture.completedFuture(null);
    String url = items.get(index).url();
    CompletionStage<Optional<String>> text =
        url == null ? CompletableFuture.completedFuture(Optional.empty()) : extract(url);
    return text.toCompletableFuture()
        .thenCompose(
            found -> {
              texts.set(index, found);
              return work(items, texts, next);
            });
  }

  /**
   * A page past the element budget keeps what was parsed up to there: an article's text usually
   * comes before the comments and widgets that make a page huge.
   */
  private static Optional<String> readableText(SafeHttp.Response page, int maxElements) {
    String contentType = page.header("Content-Type");
    MediaType type = contentType == null ? null : MediaType.parse(contentType);
    if (type != null && !type.subtype().contains("html"))
      return Optional.empty(); // a PDF, an image, JSON…
    String text =
        TextDecoding.decode(page.body(), contentType, TextDecoding.Declaration.HTML_META).text();
    return readableText(text, page.finalUrl(), maxElements);
  }

  /**
   * The readable text of a page's HTML, capped at {@link #MAX_TEXT_CHARS}; empty when it has none.
   *
   * <p>Exactly the text of the whole candidate, copied and pared of what is never text, then
   * capped; but cheaper. The parse stops once every {@code <article>} and {@code <main>} the HTML
   * opens has closed (the comments, widgets and scripts after them are not parsed), unless the
   * body's text turns out to be needed. The parse is this method's own, so it is pared in place,
   * once, and each article's text is measured only when there are several to choose from. And the
   * text kept is a tenth of a long page's: what follows the text node by which the candidate
   * certainly holds more than the cap is taken out before its text is read (see {@link
   * #cutAfterTheCap}).
   */
  public static Optional<String> readableText(String html, String baseUri, int maxElements) {
    Candidates candidates = new Candidates(html);
    Document document = BudgetedParse.htmlUntil(html, baseUri, maxElements, candidates).document();
    if (candidates.allClosed()) {
      Optional<String> text = candidatesText(document);
      if (text.isPresent()) return text;
      document = BudgetedParse.html(html, baseUri, maxElements).document(); // the body is needed
    }
    Optional<String> text = candidatesText(document);
    if (text.isPresent()) return text;
    Element body = document.body();
    if (body == null) return Optional.empty();
    body.select(PAGE_CHROME).remove();
    String bodyText = cappedText(body).trim();
    return bodyText.isEmpty() ? Optional.empty() : Optional.of(capped(bodyText));
  }

  /**
   * The text of the longest article, else of the first {@code <main>}, when it has any; the
   * document is left without what is never text.
   */
  private static Optional<String> candidatesText(Document document) {
    List<Element> candidates = new ArrayList<>(2);
    Element article = longest(document.select("article"));
    if (article != null) candidates.add(article);
    Element main = document.selectFirst("main");
    if (main != null) candidates.add(main);
    document.select(NOT_TEXT).remove();
    for (Element candidate : candidates) {
      String text = cappedText(candidate);
      if (!text.isBlank()) return Optional.of(capped(text.trim()));
    }
    return Optional.empty();
  }

  /**
   * Counts down the {@code <article>} and {@code <main>} start tags of the HTML as their elements
   * close. A count of the tags is at least the elements' (a tag in a comment or a script makes
   * none), so a parse stopped when it reaches zero holds them all. HTML that opens a frameset, or
   * no candidate at all, is parsed whole.
   */
  private static final class Candidates implements Predicate<Element> {
    private int articles;
    private int mains;
    private final boolean stoppable;
    private boolean allClosed;

    Candidates(String html) {
      boolean frameset = false;
      for (int i = html.indexOf('<'); i >= 0; i = html.indexOf('<', i + 1)) {
        if (html.regionMatches(true, i, "<article", 0, 8)) articles++;
        else if (html.regionMatches(true, i, "<main", 0, 5)) mains++;
        else if (html.regionMatches(true, i, "<frameset", 0, 9)) frameset = true;
      }
      stoppable = !frameset && articles + mains > 0;
    }

    @Override
    public boolean test(Element closed) {
      if (closed.nameIs("article")) articles--;
      else if (closed.nameIs("main")) mains--;
      else return false;
      allClosed = stoppable && articles == 0 && mains == 0;
      return allClosed;
    }

    boolean allClosed() {
      return allClosed;
    }
  }

  /** The first of the elements with the longest text (the text before paring), null if none. */
  private static Element longest(List<Element> elements) {
    if (elements.size() < 2) return elements.isEmpty() ? null : elements.get(0);
    Element longest = null;
    int longestChars = -1;
    for (Element e : elements) {
      int chars = e.text().length();
      if (chars > longestChars) {
        longest = e;
        longestChars = chars;
      }
    }
    return longest;
  }

  /**
   * The element's text as a copy of it reads (Jsoup collapses whitespace), its start the same to
   * past {@link #MAX_TEXT_CHARS} once trimmed. The element is read detached, as a copy would be: a
   * {@code <pre>} around it keeps no whitespace inside it, and no separator follows it.
   */
  private static String cappedText(Element element) {
    cutAfterTheCap(element);
    Element parent = element.parent();
    if (parent == null) return element.text();
    int index = element.siblingIndex();
    element.remove();
    String text = element.text();
    parent.insertChildren(index, element);
    return text;
  }

  /**
   * Takes out of {@code root} every node after the text node by which its text holds more than
   * {@link #MAX_TEXT_CHARS} characters that are neither whitespace nor invisible (such a character
   * is in the text whether its whitespace is kept or collapsed, and no trim reaches it). The text
   * is built in document order and a node's part of it depends only on the nodes before it, its own
   * descendants and, for the separator after an element, its next sibling; so up to the end of that
   * text node the text is the same, and past the cap.
   */
  private static void cutAfterTheCap(Element root) {
    Node[] last = new Node[1];
    int[] kept = new int[1];
    root.filter(
        new NodeFilter() {
          @Override
          public FilterResult head(Node node, int depth) {
            if (node instanceof TextNode t) {
              kept[0] += surelyKept(t.getWholeText());
              if (kept[0] > MAX_TEXT_CHARS) {
                last[0] = t;
                return FilterResult.STOP;
              }
            }
            return FilterResult.CONTINUE;
          }
        });
    for (Node n = last[0]; n != null && n != root; n = n.parentNode()) {
      Node parent = n.parentNode();
      while (parent.childNodeSize() > n.siblingIndex() + 1)
        parent.childNode(parent.childNodeSize() - 1).remove(); // from the end: no reindexing
    }
  }

  /**
   * The characters of a text node that any reading of it keeps and that no Java whitespace test
   * counts as blank: a candidate cut short is never blank, so no other is read after it.
   */
  private static int surelyKept(String text) {
    int kept = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c > ' ' && c != '\u00a0' && c != '\u200b' && c != '\u00ad' && !Character.isWhitespace(c))
        kept++;
    }
    return kept;
  }

  private static String capped(String text) {
    return ItemBounds.cut(text, MAX_TEXT_CHARS);
  }

  private static String hostOf(String url) {
    HttpUrl parsed = HttpUrl.parse(url);
    return parsed == null ? "an unparsable URL" : parsed.host();
  }
}
