package io.periscope.http;

import static io.periscope.http.ApiDirectives.answer;
import static io.periscope.http.ApiDirectives.jsonBody;
import static io.periscope.http.ApiDirectives.rateLimited;
import static org.apache.pekko.http.javadsl.model.HttpMethods.POST;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.entity.Failures;
import io.periscope.entity.Refusal;
import io.periscope.json.Issue;
import io.periscope.json.ValidationException;
import io.periscope.net.FetchFailure;
import io.periscope.ratelimit.FixedWindowRateLimiter;
import io.periscope.source.FeedFinder;
import io.periscope.source.FeedUrls;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * /sources: looks at sources for the editor, creating nothing. POST /sources/discover answers what
 * a URL is (a feed, or a page and the feeds it names). Each request passes the token (401), the
 * caller's window of the sources limit shared by these routes (429), then the body (400); the URL
 * goes through the network guard of every fetch (400 when refused), and a failed fetch is a 502.
 */
public final class SourceRoutes implements Routes {
  private final FeedFinder finder;
  private final FixedWindowRateLimiter limiter;
  private final long maxBody;

  public SourceRoutes(FeedFinder finder, FixedWindowRateLimiter limiter, long maxBody) {
    this.finder = finder;
    this.limiter = limiter;
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
                    caller.accountId(), () -> jsonBody(maxBody, body -> answer(discover(body))))));
  }

  private Route limited(String owner, Supplier<Route> inner) {
    return rateLimited(limiter, owner, inner);
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
