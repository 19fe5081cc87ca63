package io.periscope.source;

import io.periscope.net.SafeHttp;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * Looks at what a URL answers, through {@link SafeHttp} (its network guard) and the node's {@link
 * CollectionBudget}: a feed itself, or an HTML page and the feeds it names ({@link FeedDiscovery}).
 * What a watch's answer warns about and the editor's "Find feeds" show.
 */
public final class FeedFinder {
  /**
   * What {@code url} answered: {@code page} when it is no feed, then {@code feeds} the feeds it
   * names (maybe none); when it is a feed, {@code feeds} is that one feed.
   */
  public record Discovered(String url, boolean page, List<FeedDiscovery.Found> feeds) {}

  /** A look is quicker than a collection: an editor waits for it. */
  public static final Duration TIMEOUT = Duration.ofSeconds(10);

  private static final String ACCEPT =
      "text/html, application/xhtml+xml, application/rss+xml, application/atom+xml,"
          + " application/feed+json, application/xml;q=0.9, */*;q=0.5";

  private final SafeHttp http;
  private final CollectionBudget budget;

  public FeedFinder(SafeHttp http, CollectionBudget budget) {
    this.http = http;
    this.budget = budget;
  }

  /**
   * What {@code url} answers; fails with the {@link io.periscope.net.FetchFailure} of a refused or
   * failed fetch.
   */
  public CompletionStage<Discovered> discover(String url) {
    long maxBytes = budget.limits().feedMaxBytes();
    int maxElements = budget.limits().parseMaxElements();
    return budget.fetchAndParse(
        () -> http.get(url, Map.of("Accept", ACCEPT), maxBytes, TIMEOUT),
        response -> {
          String type = response.header("Content-Type");
          try {
            FeedReader.read(response.body(), type, response.finalUrl(), 1, maxElements);
            return new Discovered(url, false, List.of(new FeedDiscovery.Found(url, null, null)));
          } catch (FeedReader.NotAFeed notAFeed) {
            return new Discovered(
                url,
                true,
                FeedDiscovery.in(response.body(), type, response.finalUrl(), maxElements));
          }
        });
  }
}
