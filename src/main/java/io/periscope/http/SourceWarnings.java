package io.periscope.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.json.Json;
import io.periscope.source.FeedFinder;
import io.periscope.watch.WatchSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * The {@code warnings} of a saved watch's answer: each new rss source whose URL answers an HTML
 * page rather than a feed. Such a source is kept as given; each run collects the first feed the
 * page names in its place (the run record's {@code collection.feedsFound} says which). A URL that
 * cannot be fetched now warns of nothing: its runs record the failure.
 */
final class SourceWarnings {
  /** A warning about the source at {@code source} (its index in {@code sources}). */
  record Warning(int source, String kind, String message, String feed) {}

  static final String FEED_FOUND = "feed-found";
  static final String NO_FEED = "no-feed";

  /** The looks together wait at most this long; the watch is saved already. */
  static final Duration WAIT = FeedFinder.TIMEOUT.plusSeconds(2);

  private final FeedFinder finder;

  SourceWarnings(FeedFinder finder) {
    this.finder = finder;
  }

  /**
   * {@code saved} (a watch's answer) with the warnings about its rss sources other than {@code
   * known} (the URLs of those it had before), when there are any.
   */
  CompletionStage<Reply> warned(Reply saved, List<WatchSource> sources, Set<String> known) {
    List<CompletableFuture<Warning>> looks = new ArrayList<>();
    for (int i = 0; i < sources.size(); i++) {
      WatchSource s = sources.get(i);
      if (WatchSource.RSS.equals(s.type()) && !known.contains(s.value()))
        looks.add(look(i, s.value()));
    }
    if (looks.isEmpty()) return CompletableFuture.completedFuture(saved);
    return CompletableFuture.allOf(looks.toArray(CompletableFuture[]::new))
        .thenApply(
            all -> {
              List<Warning> warnings =
                  looks.stream().map(CompletableFuture::join).filter(w -> w != null).toList();
              if (warnings.isEmpty()) return saved;
              ObjectNode body = Json.MAPPER.valueToTree(saved.body());
              body.set("warnings", Json.MAPPER.valueToTree(warnings));
              return new Reply(saved.status(), saved.headers(), body);
            });
  }

  /** {@code saved} with {@code more} warnings after those it has, when there are any. */
  static Reply adding(Reply saved, List<?> more) {
    if (more.isEmpty()) return saved;
    ObjectNode body = Json.MAPPER.valueToTree(saved.body());
    ArrayNode all =
        body.has("warnings") ? (ArrayNode) body.get("warnings") : body.putArray("warnings");
    more.forEach(w -> all.add(Json.MAPPER.valueToTree(w)));
    return new Reply(saved.status(), saved.headers(), body);
  }

  private CompletableFuture<Warning> look(int index, String url) {
    return finder
        .discover(url)
        .toCompletableFuture()
        .thenApply(
            d -> {
              if (!d.page()) return null;
              if (d.feeds().isEmpty())
                return new Warning(
                    index,
                    NO_FEED,
                    "the URL answers an HTML page that names no feed: its runs will fail",
                    null);
              String feed = d.feeds().get(0).url();
              return new Warning(
                  index,
                  FEED_FOUND,
                  "the URL answers an HTML page: each run collects the first feed it names, "
                      + feed,
                  feed);
            })
        .completeOnTimeout(null, WAIT.toMillis(), TimeUnit.MILLISECONDS)
        .exceptionally(failure -> null);
  }
}
