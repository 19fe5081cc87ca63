package io.periscope.http;

import static io.periscope.entity.Refusal.Kind.NOT_FOUND;
import static io.periscope.http.ApiDirectives.answer;
import static io.periscope.http.ApiDirectives.jsonBody;
import static io.periscope.http.ApiDirectives.rateLimited;
import static io.periscope.watch.WatchEntity.WATCH_NOT_FOUND;
import static org.apache.pekko.http.javadsl.model.HttpMethods.POST;
import static org.apache.pekko.http.javadsl.server.Directives.withRequestTimeout;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.auth.Principal;
import io.periscope.entity.Refusal;
import io.periscope.notify.ChannelPolicy;
import io.periscope.ratelimit.FixedWindowRateLimiter;
import io.periscope.run.DryRuns;
import io.periscope.watch.Watch;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * Dry runs: POST /watches/:id/test (a saved watch, with overrides) and POST /watches/test (a watch
 * not saved). Each asks the model as a run does, so it is rate limited with the AI routes and
 * counted against the caller's model-call quota (429 past either); it waits as long as run-now.
 */
public final class DryRunRoutes implements Routes {
  private final DryRuns dryRuns;
  private final ChannelPolicy channels;
  private final FixedWindowRateLimiter limiter;
  private final long maxBody;

  /**
   * @param channels an unsaved watch naming a channel its owner may not use is refused (400), as
   *     its create would be
   * @param limiter the AI routes' limit per caller
   */
  public DryRunRoutes(
      DryRuns dryRuns, ChannelPolicy channels, FixedWindowRateLimiter limiter, long maxBody) {
    this.dryRuns = dryRuns;
    this.channels = channels;
    this.limiter = limiter;
    this.maxBody = maxBody;
  }

  @Override
  public List<Endpoint> endpoints() {
    return List.of(
        new Endpoint(
            POST,
            "/watches/test",
            (caller, p) ->
                limited(
                    caller.accountId(),
                    () -> jsonBody(maxBody, body -> answer(unsaved(caller, body))))),
        new Endpoint(
            POST,
            "/watches/{id}/test",
            WatchRoutes.watch(
                (accountId, id, p) ->
                    limited(
                        accountId,
                        () -> jsonBody(maxBody, body -> answer(saved(accountId, id, body)))))));
  }

  /** The AI routes' limit, then time for collection, extraction and a model call. */
  private Route limited(String accountId, Supplier<Route> inner) {
    return rateLimited(
        limiter,
        accountId,
        () -> withRequestTimeout(WatchRoutes.RUN_TIMEOUT.plusSeconds(5), inner));
  }

  private CompletionStage<Reply> saved(String accountId, String id, JsonNode body) {
    return dryRuns
        .saved(accountId, id, body)
        .thenApply(Reply::ok)
        .exceptionally(Refusal.as(NOT_FOUND, WATCH_NOT_FOUND));
  }

  private CompletionStage<Reply> unsaved(Principal caller, JsonNode body) {
    Watch watch = dryRuns.described(body, caller.accountId());
    return channels
        .require(watch.owner(), watch.channels())
        .thenCompose(ok -> dryRuns.unsaved(watch))
        .thenApply(Reply::ok);
  }
}
