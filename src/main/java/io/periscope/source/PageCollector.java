package io.periscope.source;

import io.periscope.net.SafeHttp;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import org.jsoup.nodes.Document;

/**
 * Collects a web page as a source: fetches it through {@link SafeHttp} within the node's {@link
 * CollectionBudget} (conditionally, with the validators of the last collection), reads its text
 * blocks ({@link PageText}) and compares them with what the watch saw last ({@link PageChanges}).
 * Each added or changed block is an item whose text is the change in context. The first collection
 * is the baseline: it yields the snapshot and no item. A page with no content at the selector is
 * rendered by the operator's headless browser where one is configured ({@link BrowserRenderer}),
 * else it is a {@code no-content} source error.
 */
public final class PageCollector {
  public static final String SOURCE_TYPE = "page";

  /** Characters of a block's old and new text an item quotes (the summary's bound holds both). */
  static final int QUOTED_CHARS = 440;

  private static final int TITLE_WORDS_CHARS = 80;
  private static final String ACCEPT = "text/html, application/xhtml+xml;q=0.9, */*;q=0.1";

  /**
   * What one collection yielded: the result (its items the changes) and what the watch saw now,
   * null when the collection failed (the watch keeps what it saw before).
   */
  public record Collected(SourceResult result, PageSnapshot snapshot) {}

  /** What a page reads as now, for a person checking a selector: its title and its blocks. */
  public record Reading(String title, List<PageText.Found> blocks, boolean rendered) {}

  /** The page cannot be read (HTTP, guard, not HTML, no content at the selector). */
  public static final class Unreadable extends Exception {
    private final SourceError error;

    Unreadable(SourceError error) {
      super(error.message());
      this.error = error;
    }

    public SourceError error() {
      return error;
    }
  }

  private final SafeHttp http;
  private final CollectionBudget budget;
  private final Optional<BrowserRenderer> browser;

  public PageCollector(SafeHttp http, CollectionBudget budget, Optional<BrowserRenderer> browser) {
    this.http = http;
    this.budget = budget;
    this.browser = browser;
  }

  /**
   * @param last what the watch saw at its last collection, null before its first (the baseline)
   */
  public CompletionStage<Collected> collect(
      String url, String selector, List<String> ignore, String trust, PageSnapshot last) {
    return fetch(url, selector, ignore, last)
        .thenApply(
            fetched -> {
              if (fetched.reading() == null) // not modified
              return new Collected(SourceResult.ok(List.of()), last);
              List<PageText.Found> blocks = bounded(fetched.reading().blocks());
              PageSnapshot now =
                  new PageSnapshot(
                      blocks.stream().map(PageText.Found::block).toList(),
                      fetched.etag(),
                      fetched.lastModified());
              if (last == null) return new Collected(SourceResult.ok(List.of()), now);
              List<Item> items = new ArrayList<>();
              for (PageChanges.Change change : PageChanges.between(last.blocks(), blocks))
                items.add(item(url, fetched.reading().title(), change).withTrust(trust));
              return new Collected(SourceResult.ok(items), now);
            })
        .exceptionally(failure -> new Collected(failed(url, failure), null));
  }

  /** The page's text as a collection reads it now, for the editor's check; nothing is kept. */
  public CompletionStage<Reading> read(String url, String selector, List<String> ignore) {
    return fetch(url, selector, ignore, null)
        .thenApply(
            fetched ->
                new Reading(
                    fetched.reading().title(),
                    bounded(fetched.reading().blocks()),
                    fetched.reading().rendered()));
  }

  /** An answer: the page read (null when not modified) and its validators. */
  private record Fetched(Reading reading, String etag, String lastModified) {}

  private CompletionStage<Fetched> fetch(
      String url, String selector, List<String> ignore, PageSnapshot last) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Accept", ACCEPT);
    if (last != null && last.etag() != null) headers.put("If-None-Match", last.etag());
    if (last != null && last.lastModified() != null)
      headers.put("If-Modified-Since", last.lastModified());
    int maxElements = budget.limits().parseMaxElements();
    return budget
        .fetchAndParse(
            () -> http.get(url, headers, budget.limits().pageMaxBytes()),
            response -> answered(url, selector, ignore, last, response, maxElements))
        .thenCompose(
            parsed -> {
              if (parsed.unrendered() == null)
                return CompletableFuture.completedFuture(parsed.as());
              // No content in the HTML: what the operator's browser renders, if one is configured.
              return rendered(url, selector, ignore, maxElements)
                  .thenApply(reading -> new Fetched(reading, null, null));
            });
  }

  /** A parsed answer, or the source error that asks for rendering ({@code unrendered} set). */
  private record Parsed(Fetched as, SourceError unrendered) {}

  private Parsed answered(
      String url,
      String selector,
      List<String> ignore,
      PageSnapshot last,
      SafeHttp.Response response,
      int maxElements) {
    if (response.status() == 304) {
      if (last == null)
        throw new Failed(
            new SourceError(url, "http", "unexpected 304 without an earlier collection", 304));
      return new Parsed(new Fetched(null, last.etag(), last.lastModified()), null);
    }
    String contentType = response.header("Content-Type");
    MediaType type = contentType == null ? null : MediaType.parse(contentType);
    if (type != null && !type.subtype().contains("html"))
      throw new Failed(
          new SourceError(
              url, "not-a-page", "the URL answers " + type.type() + "/" + type.subtype(), null));
    String html =
        TextDecoding.decode(response.body(), contentType, TextDecoding.Declaration.HTML_META)
            .text();
    Document document = BudgetedParse.html(html, response.finalUrl(), maxElements).document();
    try {
      PageText.Extracted read = PageText.of(document, selector, ignore);
      return new Parsed(
          new Fetched(
              new Reading(read.title(), read.blocks(), false),
              FeedCollector.sendable(response.header("ETag")),
              FeedCollector.sendable(response.header("Last-Modified"))),
          null);
    } catch (PageText.NoContent e) {
      SourceError error = new SourceError(url, "no-content", e.getMessage(), null);
      if (browser.isPresent()) return new Parsed(null, error);
      throw new Failed(
          new SourceError(
              url,
              "no-content",
              e.getMessage() + "; no headless browser is configured (BROWSER_URL)",
              null));
    }
  }

  private CompletionStage<Reading> rendered(
      String url, String selector, List<String> ignore, int maxElements) {
    return browser
        .get()
        .render(url, (int) budget.limits().pageMaxBytes())
        .thenApply(
            html -> {
              Document document = BudgetedParse.html(html, url, maxElements).document();
              try {
                PageText.Extracted read = PageText.of(document, selector, ignore);
                return new Reading(read.title(), read.blocks(), true);
              } catch (PageText.NoContent e) {
                throw new Failed(
                    new SourceError(
                        url,
                        "no-content",
                        "rendered by the headless browser, the page still has no content: "
                            + e.getMessage(),
                        null));
              }
            });
  }

  /** A source error that ends the collection, carried through the stage. */
  private static final class Failed extends RuntimeException {
    final SourceError error;

    Failed(SourceError error) {
      super(error.message(), null, false, false);
      this.error = error;
    }
  }

  /** The reason a fetch failed, as the page source's error. */
  static SourceResult failed(String url, Throwable failure) {
    Throwable cause = failure;
    while (cause.getCause() != null && !(cause instanceof Failed)) cause = cause.getCause();
    if (cause instanceof Failed f) return SourceResult.failed(f.error);
    if (cause instanceof BrowserRenderer.RenderFailure r)
      return SourceResult.failed(
          new SourceError(url, "unreachable", "the headless browser: " + r.getMessage(), null));
    return SourceResult.failed(url, failure);
  }

  /** The source error of a check that failed. */
  public static Unreadable unreadable(String url, Throwable failure) {
    return new Unreadable(failed(url, failure).error());
  }

  /** The first blocks within the snapshot's bounds, their texts cut as the snapshot keeps them. */
  static List<PageText.Found> bounded(List<PageText.Found> all) {
    List<PageSnapshot.Block> kept =
        PageSnapshot.bounded(all.stream().map(PageText.Found::block).toList());
    List<PageText.Found> blocks = new ArrayList<>(kept.size());
    for (int i = 0; i < kept.size(); i++)
      blocks.add(
          new PageText.Found(kept.get(i).text(), kept.get(i).anchor(), all.get(i).heading()));
    return blocks;
  }

  /**
   * The item of one change. Its identity is the change itself (what it was and what it is), so a
   * block that changes back is a change again.
   */
  static Item item(String url, String pageTitle, PageChanges.Change change) {
    PageText.Found now = change.now();
    String identity =
        "page:"
            + ItemBounds.sha256Hex(
                (change.before() == null ? "" : change.before()) + "\u0000" + now.text());
    String name = pageTitle == null || pageTitle.isBlank() ? hostOf(url) : pageTitle;
    String what = now.heading() != null && !now.heading().equals(now.text()) ? now.heading() : null;
    String title =
        name
            + " — "
            + (change.before() == null ? "added: " : "changed: ")
            + (what != null ? what + ": " : "")
            + ItemBounds.cut(now.text(), TITLE_WORDS_CHARS);
    StringBuilder text = new StringBuilder();
    if (what != null) text.append("Under: ").append(what).append('\n');
    if (change.before() == null) text.append("Added: ").append(quoted(now.text()));
    else
      text.append("Before: ")
          .append(quoted(change.before()))
          .append('\n')
          .append("Now: ")
          .append(quoted(now.text()));
    String link = now.anchor() == null ? url : withoutFragment(url) + "#" + fragment(now.anchor());
    return new Item(
        identity, title, link, text.toString(), null, SOURCE_TYPE, url, null, List.of());
  }

  private static String quoted(String text) {
    return text.length() <= QUOTED_CHARS ? text : ItemBounds.cut(text, QUOTED_CHARS - 1) + "…";
  }

  private static String withoutFragment(String url) {
    int hash = url.indexOf('#');
    return hash < 0 ? url : url.substring(0, hash);
  }

  private static String fragment(String anchor) {
    return URLEncoder.encode(anchor, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static String hostOf(String url) {
    HttpUrl parsed = HttpUrl.parse(url);
    return parsed == null ? url : parsed.host();
  }
}
