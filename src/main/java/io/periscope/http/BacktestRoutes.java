package io.periscope.http;

import static io.periscope.entity.Refusal.Kind.NOT_FOUND;
import static io.periscope.http.ApiDirectives.answer;
import static io.periscope.http.ApiDirectives.jsonBody;
import static io.periscope.http.ApiDirectives.perAccount;
import static io.periscope.http.ApiDirectives.rateLimited;
import static io.periscope.http.Reply.json;
import static io.periscope.http.Reply.ok;
import static org.apache.pekko.http.javadsl.model.HttpMethods.GET;
import static org.apache.pekko.http.javadsl.model.HttpMethods.POST;
import static org.apache.pekko.http.javadsl.server.Directives.*;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.backtest.Backtest;
import io.periscope.backtest.BacktestJob;
import io.periscope.backtest.BacktestJobs;
import io.periscope.backtest.Backtester;
import io.periscope.entity.Asks;
import io.periscope.entity.Refusal;
import io.periscope.json.Issue;
import io.periscope.json.Json;
import io.periscope.ratelimit.FixedWindowRateLimiter;
import io.periscope.ratelimit.HeldSlots;
import io.periscope.run.EntityRunAll;
import io.periscope.runtime.Entities;
import io.periscope.watch.Watch;
import io.periscope.watch.WatchEntity;
import io.periscope.watch.WatchValidator;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.model.headers.Location;
import org.apache.pekko.http.javadsl.model.sse.ServerSentEvent;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * Backtests of the caller's watch: POST /watches/:id/backtest tries a candidate condition and
 * thresholds on the watch's past verdict runs and answers when done, or with {@code async=true} at
 * once (202) with a job followed at /watches/:id/backtest/jobs/:job and its {@code /events}. The
 * POST passes, in this order: the token (401), the caller's window of the AI limit (429), the
 * body's fields (400), the watch's ownership (404), the candidate's values (400); then each model
 * call counts against the caller's quota (429 once past it).
 */
public final class BacktestRoutes implements Routes {
  /** What a backtest may try other than the watch's. */
  private static final Set<String> OVERRIDES = Set.of("condition", "threshold", "weakThreshold");

  private final Backtester backtester;
  private final BacktestJobs jobs;
  private final Entities entities;
  private final Asks asks;
  private final FixedWindowRateLimiter limiter;
  private final long maxBody;
  private final HeldSlots<String> eventStreams;
  private final ZoneId scheduleZone;
  private final FixedWindowRateLimiter reads;

  /**
   * @param limiter the AI routes' limit, shared with assistance
   * @param eventStreams the job event streams each account may hold open on this node, shared with
   *     run-all's
   * @param scheduleZone the time zone of watches that name none (SCHEDULE_TIME_ZONE)
   * @param reads the reads limit of each account, which the job routes count against
   */
  public BacktestRoutes(
      Backtester backtester,
      BacktestJobs jobs,
      Entities entities,
      Asks asks,
      FixedWindowRateLimiter limiter,
      long maxBody,
      HeldSlots<String> eventStreams,
      ZoneId scheduleZone,
      FixedWindowRateLimiter reads) {
    this.reads = reads;
    this.backtester = backtester;
    this.jobs = jobs;
    this.entities = entities;
    this.asks = asks;
    this.limiter = limiter;
    this.maxBody = maxBody;
    this.eventStreams = eventStreams;
    this.scheduleZone = scheduleZone;
  }

  /** The body of a backtest's job routes. */
  public record JobBody(BacktestJob job) {}

  @Override
  public List<Endpoint> endpoints() {
    return List.of(
        new Endpoint(
            POST,
            "/watches/{id}/backtest",
            (caller, p) ->
                rateLimited(
                    limiter,
                    caller.accountId(),
                    () ->
                        WatchRoutes.watch(
                                (accountId, id, q) ->
                                    parameterOptional(
                                        "async",
                                        async ->
                                            jsonBody(
                                                maxBody,
                                                body ->
                                                    start(
                                                        accountId,
                                                        id,
                                                        async.orElse("false"),
                                                        body))))
                            .apply(caller, p))),
        new Endpoint(
            GET,
            "/watches/{id}/backtest/jobs/{job}",
            perAccount(
                reads,
                WatchRoutes.watch(
                    (accountId, id, p) ->
                        followed(
                            accountId, id, p.get("job"), job -> answer(ok(new JobBody(job))))))),
        new Endpoint(
            GET,
            "/watches/{id}/backtest/jobs/{job}/events",
            perAccount(
                reads,
                WatchRoutes.watch(
                    (accountId, id, p) ->
                        followed(
                            accountId,
                            id,
                            p.get("job"),
                            job ->
                                JobEvents.stream(
                                    accountId,
                                    eventStreams,
                                    job,
                                    BacktestJob::finished,
                                    () -> jobs.job(accountId, id, job.id()),
                                    BacktestRoutes::eventsOf))))));
  }

  /** {@code inner} of the caller's job {@code jobId} of the watch; 404 for any other. */
  private Route followed(
      String accountId,
      String id,
      String jobId,
      java.util.function.Function<BacktestJob, Route> inner) {
    return onComplete(
        jobs.job(accountId, id, jobId),
        found -> found.isSuccess() ? inner.apply(found.get()) : failWith(found.failed().get()));
  }

  private Route start(String accountId, String id, String async, JsonNode body) {
    List<Issue> issues = new ArrayList<>();
    if (!async.equals("true") && !async.equals("false"))
      issues.add(Issue.at("must be true or false", "query", "async"));
    int runs = runs(body, issues);
    if (!issues.isEmpty()) return answer(Reply.invalid(issues));
    CompletionStage<Watch> candidate =
        asks.<WatchEntity.Command, Watch>ask(entities.watch(accountId, id), WatchEntity.Get::new)
            .exceptionally(Refusal.as(NOT_FOUND, WatchEntity.WATCH_NOT_FOUND))
            .thenApply(stored -> WatchValidator.overridden(stored, body, OVERRIDES, scheduleZone));
    if (async.equals("true"))
      return answer(
          candidate
              .thenCompose(tried -> jobs.start(tried, runs))
              .thenApply(
                  job ->
                      json(StatusCodes.ACCEPTED, new JobBody(job))
                          .withHeader(Location.create(jobPath(id, job)))));
    return withRequestTimeout(
        EntityRunAll.RUN_ALL_WAIT,
        () ->
            answer(
                candidate.thenCompose(
                    tried ->
                        backtester
                            .run(tried, runs, Backtester.Progress.NONE)
                            .thenApply(Reply::ok))));
  }

  /** The body's {@code runs}, 1 to {@link Backtester#MAX_RUNS}; an issue for unknown fields. */
  private static int runs(JsonNode body, List<Issue> issues) {
    if (!body.isObject()) {
      issues.add(Issue.at("the body must be a JSON object"));
      return 0;
    }
    body.fieldNames()
        .forEachRemaining(
            f -> {
              if (!OVERRIDES.contains(f) && !f.equals("runs"))
                issues.add(Issue.at("is not a field of a backtest", f));
            });
    JsonNode runs = body.get("runs");
    if (runs == null || runs.isNull()) return Backtester.DEFAULT_RUNS;
    if (!runs.canConvertToInt()
        || !runs.isIntegralNumber()
        || runs.asInt() < 1
        || runs.asInt() > Backtester.MAX_RUNS) {
      issues.add(Issue.at("must be a whole number from 1 to " + Backtester.MAX_RUNS, "runs"));
      return 0;
    }
    return runs.asInt();
  }

  private static String jobPath(String watchId, BacktestJob job) {
    return "/watches/" + watchId + "/backtest/jobs/" + job.id();
  }

  /** The events a look at the job adds: runs not sent yet, and done once it finished. */
  private static List<ServerSentEvent> eventsOf(BacktestJob job, Set<String> sent) {
    List<ServerSentEvent> events = new ArrayList<>();
    for (Backtest.Replay run : job.runs()) {
      if (sent.add(run.runId())) events.add(ServerSentEvent.create(Json.text(run), "run"));
    }
    if (job.finished()) events.add(ServerSentEvent.create(Json.text(job), "done"));
    return events;
  }
}
