package io.periscope.http;

import static io.periscope.http.ApiDirectives.answer;
import static io.periscope.http.ApiDirectives.jsonBody;
import static io.periscope.http.ApiDirectives.rateLimited;
import static io.periscope.http.ApiDirectives.strictBody;
import static org.apache.pekko.http.javadsl.model.HttpMethods.GET;
import static org.apache.pekko.http.javadsl.model.HttpMethods.POST;
import static org.apache.pekko.http.javadsl.server.Directives.complete;
import static org.apache.pekko.http.javadsl.server.Directives.onSuccess;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.entity.Failures;
import io.periscope.entity.Refusal;
import io.periscope.json.Issue;
import io.periscope.json.ValidationException;
import io.periscope.net.FetchFailure;
import io.periscope.ratelimit.FixedWindowRateLimiter;
import io.periscope.source.FeedFinder;
import io.periscope.source.FeedUrls;
import io.periscope.source.Opml;
import io.periscope.source.PageCollector;
import io.periscope.source.PageText;
import io.periscope.source.SourceError;
import io.periscope.watch.Watch;
import io.periscope.watch.WatchSource;
import io.periscope.watch.WatchValidator;
import io.periscope.watches.Watches;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.apache.pekko.http.javadsl.model.ContentType;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import org.apache.pekko.http.javadsl.model.HttpEntity;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.headers.ContentDisposition;
import org.apache.pekko.http.javadsl.model.headers.ContentDispositionTypes;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * /sources: looks at sources for the editor, creating nothing. POST /sources/discover answers what
 * a URL is (a feed, or a page and the feeds it names); POST /sources/page/check the text a page
 * source would watch (422 when there is none at its selector); POST /sources/opml the feeds an OPML
 * file lists. Each passes the token (401), the caller's window of the sources limit they share
 * (429), then the body (400); the URL goes through the network guard of every fetch (400 when
 * refused), and a failed fetch is a 502. GET /watches/:id/sources.opml and GET
 * /account/sources.opml write the rss sources of one watch, or of each of the caller's watches (a
 * folder each), as OPML.
 */
public final class SourceRoutes implements Routes {
  static final List<String> OPML_TYPES =
      List.of(
          "text/x-opml", "application/xml", "text/xml", "text/plain", "application/octet-stream");

  /**
   * OPML is served as plain text (any reader takes it), saved under a name that says what it is.
   */
  private static final ContentType.WithCharset OPML = ContentTypes.TEXT_PLAIN_UTF8;

  private final FeedFinder finder;
  private final PageCollector pages;
  private final FixedWindowRateLimiter limiter;
  private final Watches watches;
  private final long maxBody;

  public SourceRoutes(
      FeedFinder finder,
      PageCollector pages,
      FixedWindowRateLimiter limiter,
      Watches watches,
      long maxBody) {
    this.finder = finder;
    this.pages = pages;
    this.limiter = limiter;
    this.watches = watches;
    this.maxBody = maxBody;
  }

  @Override
  public List<Endpoint> endpoints() {
    return List.of(
        new Endpoint(
            POST,
            "/sources/discover",
            (caller, p) ->
                limited(
                    caller.accountId(), () -> jsonBody(maxBody, body -> answer(discover(body))))),
        new Endpoint(
            POST,
            "/sources/page/check",
            (caller, p) ->
                limited(
                    caller.accountId(), () -> jsonBody(maxBody, body -> answer(checkPage(body))))),
        new Endpoint(
            POST,
            "/sources/opml",
            (caller, p) ->
                limited(
                    caller.accountId(),
                    () ->
                        strictBody(
                            Opml.MAX_BYTES,
                            OPML_TYPES,
                            "an OPML body is required",
                            "the body must be OPML: text/x-opml, application/xml or text/xml",
                            body -> answer(listed(body))))),
        new Endpoint(
            GET,
            "/watches/{id}/sources.opml",
            WatchRoutes.watch(
                (accountId, id, p) -> onSuccess(watchOpml(accountId, id), this::opml))),
        new Endpoint(
            GET,
            "/account/sources.opml",
            (caller, p) -> onSuccess(accountOpml(caller.accountId()), this::opml)));
  }

  private Route opml(String document) {
    return complete(
        HttpResponse.create()
            .withEntity(HttpEntities.create(OPML, document))
            .addHeader(
                ContentDisposition.create(
                    ContentDispositionTypes.ATTACHMENT, Map.of("filename", "sources.opml"))));
  }

  private static Reply listed(HttpEntity.Strict body) {
    try {
      return Reply.ok(Opml.read(body.getData().toArray(), body.getContentType().toString()));
    } catch (Opml.NotOpml e) {
      return Reply.invalid(List.of(Issue.at(e.getMessage(), "body")));
    }
  }

  private CompletionStage<String> watchOpml(String accountId, String id) {
    return watches
        .get(accountId, id)
        .thenApply(w -> Opml.write(w.name(), List.of(new Opml.Folder(null, feeds(w)))));
  }

  private CompletionStage<String> accountOpml(String accountId) {
    return watches
        .list(accountId)
        .thenApply(
            watches ->
                Opml.write(
                    "Periscope: the feeds of " + accountId + "'s watches",
                    watches.stream()
                        .filter(w -> !feeds(w).isEmpty())
                        .map(w -> new Opml.Folder(w.name(), feeds(w)))
                        .toList()));
  }

  /** A watch's rss sources as feeds, each titled by its address (a watch names no feed). */
  private static List<Opml.Feed> feeds(Watch watch) {
    return watch.sources().stream()
        .filter(s -> WatchSource.RSS.equals(s.type()))
        .map(s -> new Opml.Feed(s.value(), s.value(), watch.name()))
        .toList();
  }

  private Route limited(String accountId, Supplier<Route> inner) {
    return rateLimited(limiter, accountId, inner);
  }

  private CompletionStage<Reply> discover(JsonNode body) {
    JsonNode url = body.path("url");
    String valid = url.isTextual() ? FeedUrls.valid(url.asText()).orElse(null) : null;
    if (valid == null)
      throw new ValidationException(
          List.of(
              Issue.at(
                  "must be an http(s) URL of at most " + FeedUrls.MAX_LENGTH + " characters",
                  "url")));
    return finder.discover(valid).thenApply(Reply::ok).exceptionally(SourceRoutes::fetchFailed);
  }

  /** What the page reads as: its title, its text a block a line, and the blocks. */
  record PageCheck(String title, String text, List<PageText.Found> blocks, boolean rendered) {}

  private CompletionStage<Reply> checkPage(JsonNode body) {
    List<Issue> issues = new ArrayList<>();
    JsonNode url = body.path("url");
    String valid = url.isTextual() ? FeedUrls.valid(url.asText()).orElse(null) : null;
    if (valid == null)
      issues.add(
          Issue.at(
              "must be an http(s) URL of at most " + FeedUrls.MAX_LENGTH + " characters", "url"));
    String selector = WatchValidator.selector(body.get("selector"), issues, "selector");
    List<String> ignore = WatchValidator.ignore(body.get("ignore"), issues, "ignore");
    if (!issues.isEmpty()) throw new ValidationException(issues);
    return pages
        .read(valid, selector, ignore == null ? List.of() : ignore)
        .thenApply(
            r ->
                Reply.ok(
                    new PageCheck(
                        r.title(), PageText.asText(r.blocks()), r.blocks(), r.rendered())))
        .exceptionally(failure -> pageFailed(valid, failure));
  }

  /**
   * No content at the selector is a 422 that says so; a refused address the caller's (400); any
   * other failure the upstream's (502).
   */
  private static Reply pageFailed(String url, Throwable failure) {
    SourceError error = PageCollector.unreadable(url, failure).error();
    if (error.kind().equals("no-content") || error.kind().equals("not-a-page"))
      throw new Refusal(Refusal.Kind.UNPROCESSABLE, error.message());
    if (error.kind().equals("refused"))
      return Reply.invalid(List.of(Issue.at("is refused: " + error.message(), "url")));
    throw new Refusal(
        Refusal.Kind.UPSTREAM_FAILED, "the page could not be fetched: " + error.message());
  }

  /** A refused address is the caller's (400); any other failed fetch is the upstream's (502). */
  private static Reply fetchFailed(Throwable failure) {
    Throwable cause = Failures.unwrap(failure);
    if (cause instanceof FetchFailure f) {
      if (f.kind() == FetchFailure.Kind.REFUSED)
        return Reply.invalid(List.of(Issue.at("is refused: " + f.getMessage(), "url")));
      throw new Refusal(
          Refusal.Kind.UPSTREAM_FAILED, "the URL could not be fetched: " + f.getMessage());
    }
    throw failure instanceof RuntimeException r ? r : new IllegalStateException(failure);
  }
}
