package io.periscope.http;

import static io.periscope.entity.Refusal.Kind.CONFLICT;
import static io.periscope.entity.Refusal.Kind.NOT_FOUND;
import static io.periscope.http.ApiDirectives.jsonBody;
import static io.periscope.http.HttpResponses.error;
import static io.periscope.http.HttpResponses.json;
import static io.periscope.http.HttpResponses.ok;
import static org.apache.pekko.http.javadsl.model.HttpMethods.DELETE;
import static org.apache.pekko.http.javadsl.model.HttpMethods.GET;
import static org.apache.pekko.http.javadsl.model.HttpMethods.POST;
import static org.apache.pekko.http.javadsl.model.HttpMethods.PUT;
import static org.apache.pekko.http.javadsl.server.Directives.*;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.entity.Asks;
import io.periscope.entity.Failures;
import io.periscope.entity.Refusal;
import io.periscope.json.Issue;
import io.periscope.json.ValidationException;
import io.periscope.notify.ChannelPolicy;
import io.periscope.owner.OnDemandRuns;
import io.periscope.owner.OwnerEntity;
import io.periscope.run.EntityRunAll;
import io.periscope.run.RunAllResult;
import io.periscope.run.RunView;
import io.periscope.runtime.Entities;
import io.periscope.watch.Watch;
import io.periscope.watch.WatchEntity;
import io.periscope.watch.WatchValidator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.Done;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * /watches: create, list, get, replace, delete, always scoped to the caller. Another owner's watch
 * is addressed under the caller's own entity id, so it answers 404 exactly like an absent one.
 */
public final class WatchRoutes implements Routes {
  private final Entities entities;
  private final Asks asks;
  private final OnDemandRuns runs;
  private final ChannelPolicy channels;
  private final long maxBody;

  /**
   * @param channels a watch naming a channel its owner may not use is refused (400)
   */
  public WatchRoutes(
      Entities entities, Asks asks, OnDemandRuns runs, ChannelPolicy channels, long maxBody) {
    this.entities = entities;
    this.runs = runs;
    this.asks = asks;
    this.channels = channels;
    this.maxBody = maxBody;
  }

  /** The body of GET /watches. */
  public record WatchList(List<Watch> watches) {}

  @Override
  public List<Endpoint> endpoints() {
    return List.of(
        new Endpoint(GET, "/watches", (caller, p) -> completeWithFuture(list(caller.accountId()))),
        new Endpoint(
            POST,
            "/watches",
            (caller, p) ->
                jsonBody(maxBody, body -> completeWithFuture(create(caller.accountId(), body)))),
        new Endpoint(
            GET, "/watches/{id}", watch((owner, id, p) -> completeWithFuture(read(owner, id)))),
        new Endpoint(
            PUT,
            "/watches/{id}",
            watch(
                (owner, id, p) ->
                    jsonBody(maxBody, body -> completeWithFuture(replace(owner, id, body))))),
        new Endpoint(
            DELETE,
            "/watches/{id}",
            watch((owner, id, p) -> completeWithFuture(remove(owner, id)))),
        new Endpoint(
            POST,
            "/watches/{id}/run",
            watch(
                (owner, id, p) ->
                    withRequestTimeout(
                        RUN_TIMEOUT.plusSeconds(5), () -> completeWithFuture(run(owner, id))))),
        new Endpoint(
            GET,
            "/watches/{id}/runs",
            watch(
                (owner, id, p) ->
                    parameterOptional(
                        "limit", limit -> completeWithFuture(runs(owner, id, limit))))),
        new Endpoint(
            POST,
            "/watches/run-all",
            (caller, p) ->
                withRequestTimeout(
                    RUN_ALL_TIMEOUT.plusSeconds(5),
                    () -> completeWithFuture(runAll(caller.accountId())))));
  }

  /**
   * The answer of a route of the caller's watch {@code {id}}: given the owner, the id and the
   * path's parameters.
   */
  @FunctionalInterface
  interface WatchAnswer {
    Route apply(String owner, String id, Map<String, String> params);
  }

  /** A route of the caller's watch {@code {id}}: an id no watch can have is not found. */
  static Endpoint.Answer watch(WatchAnswer inner) {
    return (caller, p) ->
        WatchValidator.ID.matcher(p.get("id")).matches()
            ? inner.apply(caller.accountId(), p.get("id"), p)
            : failWith(noSuchWatch());
  }

  /** How long run-now waits for a run: collection, extraction and a model call, each bounded. */
  static final Duration RUN_TIMEOUT = EntityRunAll.RUN_TIMEOUT;

  static final Duration RUN_ALL_TIMEOUT = EntityRunAll.RUN_ALL_TIMEOUT;
  static final int DEFAULT_RUNS = 20;
  static final int MAX_RUNS = 100;

  /** The body of POST /watches/:id/run. */
  public record RunResult(RunView result) {}

  /** The body of POST /watches/run-all. */
  public record RunAllBody(RunAllResult.Summary summary, List<OutcomeView> outcomes) {}

  /**
   * One watch of a run-all: {@code result} when a run was recorded, {@code error} when it failed.
   */
  public record OutcomeView(String watchId, String status, RunView result, String error) {}

  /** The body of GET /watches/:id/runs, newest first. */
  public record RunHistory(List<RunView> runs) {}

  private CompletionStage<HttpResponse> run(String owner, String id) {
    return runs.runNow(owner, id)
        .thenApply(record -> ok(new RunResult(RunView.of(id, record))))
        .exceptionally(Refusal.as(NOT_FOUND, WATCH_NOT_FOUND));
  }

  private CompletionStage<HttpResponse> runAll(String owner) {
    return runs.runAll(owner)
        .thenApply(
            result ->
                ok(
                    new RunAllBody(
                        result.summary(),
                        result.outcomes().stream()
                            .map(
                                o ->
                                    new OutcomeView(
                                        o.watchId(),
                                        o.status(),
                                        o.record() == null
                                            ? null
                                            : RunView.of(o.watchId(), o.record()),
                                        o.error()))
                            .toList())))
        .exceptionally(Refusal.as(CONFLICT));
  }

  private CompletionStage<HttpResponse> runs(String owner, String id, Optional<String> limitParam) {
    int limit;
    try {
      limit = limitParam.map(Integer::parseInt).orElse(DEFAULT_RUNS);
    } catch (NumberFormatException e) {
      limit = -1;
    }
    if (limit < 1) {
      return CompletableFuture.completedFuture(
          error(StatusCodes.BAD_REQUEST, "limit must be a positive integer"));
    }
    int bounded = Math.min(limit, MAX_RUNS);
    return asks.<WatchEntity.Command, WatchEntity.Runs>ask(
            entities.watch(owner, id), r -> new WatchEntity.GetRuns(bounded, r))
        .thenApply(
            history ->
                ok(
                    new RunHistory(
                        history.runs().stream().map(rec -> RunView.of(id, rec)).toList())))
        .exceptionally(Refusal.as(NOT_FOUND, WATCH_NOT_FOUND));
  }

  private CompletionStage<HttpResponse> list(String owner) {
    return asks.<OwnerEntity.Command, OwnerEntity.WatchIds>ask(
            entities.owner(owner), OwnerEntity.ListWatches::new)
        .thenCompose(
            ids -> {
              List<CompletableFuture<Watch>> reads =
                  ids.ids().stream()
                      .map(
                          id ->
                              asks.<WatchEntity.Command, Watch>ask(
                                      entities.watch(owner, id), WatchEntity.Get::new)
                                  // a watch deleted after its id was listed is simply not there any
                                  // more
                                  .exceptionally(
                                      e -> Failures.isRefusal(e) ? null : Failures.rethrow(e))
                                  .toCompletableFuture())
                      .toList();
              return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new))
                  .thenApply(
                      all ->
                          ok(
                              new WatchList(
                                  reads.stream()
                                      .map(CompletableFuture::join)
                                      .filter(Objects::nonNull)
                                      .toList())));
            });
  }

  private CompletionStage<HttpResponse> create(String owner, JsonNode body) {
    Watch watch = WatchValidator.validate(body, null, owner);
    return permitted(watch).thenCompose(ok -> created(owner, watch));
  }

  /**
   * Fails with a {@link ValidationException} naming each channel the owner may not use (the rules
   * of {@link ChannelPolicy}).
   */
  private CompletionStage<Watch> permitted(Watch watch) {
    return channels
        .refusals(watch.owner(), watch.channels())
        .thenApply(
            refused -> {
              List<Issue> issues = new ArrayList<>();
              for (int i = 0; i < watch.channels().size(); i++) {
                String why = refused.get(watch.channels().get(i));
                if (why != null) issues.add(Issue.at(why, "channels", i));
              }
              if (!issues.isEmpty()) throw new ValidationException(issues);
              return watch;
            });
  }

  private CompletionStage<HttpResponse> created(String owner, Watch watch) {
    // The id is registered with the owner and the watch created at once; the 201 waits for both, so
    // it is always in the next list. Every attempt registers (idempotently), so a create cut short
    // by a crash is listed once the client retries, even when the retry answers 409; an id whose
    // create failed is skipped by the list because its entity holds no watch.
    CompletableFuture<Done> registered =
        asks.<OwnerEntity.Command, Done>ask(
                entities.owner(owner), r -> new OwnerEntity.AddWatch(watch.id(), r))
            .toCompletableFuture();
    CompletableFuture<Watch> created =
        asks.<WatchEntity.Command, Watch>ask(
                entities.watch(owner, watch.id()), r -> new WatchEntity.Create(watch, r))
            .toCompletableFuture();
    return CompletableFuture.allOf(registered, created)
        .thenApply(both -> json(StatusCodes.CREATED, created.join()))
        .exceptionally(Refusal.as(CONFLICT));
  }

  private CompletionStage<HttpResponse> read(String owner, String id) {
    return asks.<WatchEntity.Command, Watch>ask(entities.watch(owner, id), WatchEntity.Get::new)
        .thenApply(HttpResponses::ok)
        .exceptionally(Refusal.as(NOT_FOUND, WATCH_NOT_FOUND));
  }

  private CompletionStage<HttpResponse> replace(String owner, String id, JsonNode body) {
    Watch watch = WatchValidator.validate(body, id, owner);
    return permitted(watch)
        .thenCompose(
            ok ->
                asks.<WatchEntity.Command, Watch>ask(
                    entities.watch(owner, id), r -> new WatchEntity.Replace(watch, r)))
        .thenApply(HttpResponses::ok)
        .exceptionally(Refusal.as(NOT_FOUND, WATCH_NOT_FOUND));
  }

  private CompletionStage<HttpResponse> remove(String owner, String id) {
    return asks.<WatchEntity.Command, Done>ask(entities.watch(owner, id), WatchEntity.Delete::new)
        .thenApply(done -> HttpResponse.create().withStatus(StatusCodes.NO_CONTENT))
        .exceptionally(Refusal.as(NOT_FOUND, WATCH_NOT_FOUND));
  }

  static final String WATCH_NOT_FOUND = "watch not found";

  static Refusal noSuchWatch() {
    return new Refusal(NOT_FOUND, WATCH_NOT_FOUND);
  }
}
