package io.periscope.source;

import io.periscope.net.SafeHttp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
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
    return readableText(BudgetedParse.html(text, page.finalUrl(), maxElements).document());
  }

  static Optional<String> readableText(Document document) {
    Optional<Element> article =
        document.select("article").stream().max(Comparator.comparingInt(e -> e.text().length()));
    List<Element> candidates = new ArrayList<>();
    article.ifPresent(candidates::add);
    Optional.ofNullable(document.selectFirst("main")).ifPresent(candidates::add);
    for (Element candidate : candidates) {
      Element copy = candidate.clone();
      copy.select(NOT_TEXT).remove();
      String text = copy.text(); // Jsoup collapses whitespace
      if (!text.isBlank()) return Optional.of(capped(text.trim()));
    }
    if (document.body() == null) return Optional.empty();
    Element body = document.body().clone();
    body.select(NOT_TEXT + ", " + PAGE_CHROME).remove();
    String text = body.text().trim();
    return text.isEmpty() ? Optional.empty() : Optional.of(capped(text));
  }

  private static String capped(String text) {
    return ItemBounds.cut(text, MAX_TEXT_CHARS);
  }

  private static String hostOf(String url) {
    HttpUrl parsed = HttpUrl.parse(url);
    return parsed == null ? "an unparsable URL" : parsed.host();
  }
}
