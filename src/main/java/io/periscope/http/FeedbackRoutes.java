package io.periscope.http;

import static io.periscope.entity.Refusal.Kind.NOT_FOUND;
import static io.periscope.http.ApiDirectives.answer;
import static io.periscope.http.ApiDirectives.jsonBody;
import static io.periscope.http.ApiDirectives.perAccount;
import static io.periscope.http.Reply.ok;
import static io.periscope.http.WatchRoutes.watch;
import static org.apache.pekko.http.javadsl.model.HttpMethods.DELETE;
import static org.apache.pekko.http.javadsl.model.HttpMethods.GET;
import static org.apache.pekko.http.javadsl.model.HttpMethods.PUT;
import static org.apache.pekko.http.javadsl.server.Directives.*;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.entity.Asks;
import io.periscope.entity.Refusal;
import io.periscope.feedback.Feedback;
import io.periscope.feedback.FeedbackEntity;
import io.periscope.feedback.FeedbackValidator;
import io.periscope.feedback.Feedbacks;
import io.periscope.feedback.Quality;
import io.periscope.ratelimit.FixedWindowRateLimiter;
import io.periscope.runtime.Entities;
import io.periscope.watch.WatchEntity;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * Feedback on runs: {@code /watches/:id/feedback} lists a watch's, {@code
 * /watches/:id/runs/:runId/feedback} gives (PUT), reads and withdraws one run's, {@code
 * /watches/:id/quality} measures the watch by it. Both paths are deeper than any of {@link
 * WatchRoutes}' (whose {@code /watches/:id/runs/:runId} ends there), so the two never answer the
 * same request. Scoped like watches: another owner's watch is addressed under the caller's own id
 * and is not found.
 */
public final class FeedbackRoutes implements Routes {
  private final Feedbacks feedbacks;
  private final Entities entities;
  private final Asks asks;
  private final long maxBody;
  private final FixedWindowRateLimiter reads;

  /**
   * @param reads the reads limit of each account, which quality counts against
   */
  public FeedbackRoutes(
      Feedbacks feedbacks,
      Entities entities,
      Asks asks,
      long maxBody,
      FixedWindowRateLimiter reads) {
    this.reads = reads;
    this.feedbacks = feedbacks;
    this.entities = entities;
    this.asks = asks;
    this.maxBody = maxBody;
  }

  private static final String RUN_FEEDBACK = "/watches/{id}/runs/{runId}/feedback";

  /** The body of GET /watches/:id/feedback, most recently given first. */
  public record FeedbackBody(List<Feedback> feedback) {}

  /** The body of GET /watches/:id/quality: each window, shortest first. */
  public record QualityBody(int minimumLabels, List<Quality> windows) {}

  @Override
  public List<Endpoint> endpoints() {
    return List.of(
        new Endpoint(
            GET,
            "/watches/{id}/feedback",
            watch((accountId, id, p) -> answer(list(accountId, id)))),
        new Endpoint(
            GET,
            "/watches/{id}/quality",
            perAccount(reads, watch((accountId, id, p) -> answer(quality(accountId, id))))),
        new Endpoint(
            GET,
            RUN_FEEDBACK,
            watch((accountId, id, p) -> answer(read(accountId, id, p.get("runId"))))),
        new Endpoint(
            PUT,
            RUN_FEEDBACK,
            watch(
                (accountId, id, p) ->
                    jsonBody(maxBody, body -> answer(give(accountId, id, p.get("runId"), body))))),
        new Endpoint(
            DELETE,
            RUN_FEEDBACK,
            watch((accountId, id, p) -> answer(withdraw(accountId, id, p.get("runId"))))));
  }

  /**
   * 404 for a watch the caller never had, as its run history; a deleted watch's feedback is still
   * listed.
   */
  private CompletionStage<Reply> list(String accountId, String id) {
    return known(accountId, id)
        .thenCompose(history -> feedbacks.newest(accountId, id, FeedbackEntity.KEPT))
        .thenApply(list -> ok(new FeedbackBody(list)))
        .exceptionally(Refusal.as(NOT_FOUND, WatchEntity.WATCH_NOT_FOUND));
  }

  /** Found as the watch's feedback list is. */
  private CompletionStage<Reply> quality(String accountId, String id) {
    return known(accountId, id)
        .thenCompose(history -> feedbacks.quality(accountId, id))
        .thenApply(windows -> ok(new QualityBody(Quality.MIN_LABELS, windows)))
        .exceptionally(Refusal.as(NOT_FOUND, WatchEntity.WATCH_NOT_FOUND));
  }

  /** Refused for a watch the caller never had; a deleted one still has its run history. */
  private CompletionStage<WatchEntity.Runs> known(String accountId, String id) {
    return asks.ask(entities.watch(accountId, id), r -> new WatchEntity.GetRuns(1, r));
  }

  private CompletionStage<Reply> read(String accountId, String id, String runId) {
    return feedbacks
        .onRun(accountId, id, runId)
        .thenApply(
            given ->
                given.map(Reply::ok).orElseThrow(() -> new Refusal(NOT_FOUND, FEEDBACK_NOT_FOUND)));
  }

  /**
   * The watch must exist and the run be among its recent ones; the refusal says which is missing.
   */
  private CompletionStage<Reply> give(String accountId, String id, String runId, JsonNode body) {
    FeedbackValidator.Judgement judgement = FeedbackValidator.validate(body);
    return feedbacks
        .give(accountId, id, runId, judgement)
        .thenApply(Reply::ok)
        .exceptionally(Refusal.as(NOT_FOUND));
  }

  private CompletionStage<Reply> withdraw(String accountId, String id, String runId) {
    return feedbacks
        .withdraw(accountId, id, runId)
        .thenApply(done -> Reply.noContent())
        .exceptionally(Refusal.as(NOT_FOUND, FEEDBACK_NOT_FOUND));
  }

  private static final String FEEDBACK_NOT_FOUND = "feedback not found";
}
