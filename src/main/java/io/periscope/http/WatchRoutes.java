package io.periscope.http;

import static io.periscope.entity.Refusal.Kind.NOT_FOUND;
import static io.periscope.http.ApiDirectives.answer;
import static io.periscope.http.ApiDirectives.jsonBody;
import static io.periscope.http.ApiDirectives.perAccount;
import static io.periscope.http.Reply.json;
import static io.periscope.http.Reply.ok;
import static io.periscope.watch.WatchEntity.WATCH_NOT_FOUND;
import static org.apache.pekko.http.javadsl.model.HttpMethods.DELETE;
import static org.apache.pekko.http.javadsl.model.HttpMethods.GET;
import static org.apache.pekko.http.javadsl.model.HttpMethods.POST;
import static org.apache.pekko.http.javadsl.model.HttpMethods.PUT;
import static org.apache.pekko.http.javadsl.server.Directives.*;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.account.OnDemandRuns;
import io.periscope.auth.Principal;
import io.periscope.auth.Role;
import io.periscope.channels.SealedChannels;
import io.periscope.entity.EntityRefusal;
import io.periscope.entity.Failures;
import io.periscope.entity.OverQuota;
import io.periscope.entity.Refusal;
import io.periscope.json.Issue;
import io.periscope.json.Json;
import io.periscope.ratelimit.FixedWindowRateLimiter;
import io.periscope.ratelimit.HeldSlots;
import io.periscope.run.EntityRunAll;
import io.periscope.run.RunAllJob;
import io.periscope.run.RunAllResult;
import io.periscope.run.RunView;
import io.periscope.source.FeedFinder;
import io.periscope.watch.Actor;
import io.periscope.watch.RunPages;
import io.periscope.watch.Watch;
import io.periscope.watch.WatchSource;
import io.periscope.watch.WatchValidator;
import io.periscope.watches.WatchWarnings;
import io.periscope.watches.Watches;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.model.headers.Location;
import org.apache.pekko.http.javadsl.model.sse.ServerSentEvent;
import org.apache.pekko.http.javadsl.server.Route;
import org.apache.pekko.pattern.AskTimeoutException;

/**
 * /watches: create, list, get, replace, delete, always scoped to the caller. Another owner's watch
 * is addressed under the caller's own entity id, so it answers 404 exactly like an absent one.
 */
public final class WatchRoutes implements Routes {
  private final Watches watches;
  private final SealedChannels sealed;
  private final ZoneId scheduleZone;
  private final OnDemandRuns runs;
  private final RunPages history;
  private final long maxBody;
  private final HeldSlots<String> eventStreams;
  private final FixedWindowRateLimiter reads;
  private final SourceWarnings warnings;
  private final WatchWarnings capabilities;

  /**
   * @param watches refuses a watch naming a channel its owner may not use (400) or past its owner's
   *     quotas (400 on its schedule, 409 otherwise)
   * @param sealed seals the credentials of the channels stored; answers show them masked
   * @param finder looks at a saved watch's new rss sources, for the answer's warnings
   * @param capabilities what this instance cannot serve in a watch, for the answer's warnings
   * @param scheduleZone the time zone of watches that name none (SCHEDULE_TIME_ZONE)
   * @param eventStreams the job event streams each account may hold open on this node
   *     (EVENT_STREAMS_PER_ACCOUNT); past them 429
   * @param reads the reads limit of each account (a whole run record reads the journal)
   */
  public WatchRoutes(
      Watches watches,
      SealedChannels sealed,
      OnDemandRuns runs,
      RunPages history,
      FeedFinder finder,
      long maxBody,
      ZoneId scheduleZone,
      HeldSlots<String> eventStreams,
      FixedWindowRateLimiter reads,
      WatchWarnings capabilities) {
    this.watches = watches;
    this.reads = reads;
    this.sealed = sealed;
    this.scheduleZone = scheduleZone;
    this.runs = runs;
    this.history = history;
    this.maxBody = maxBody;
    this.eventStreams = eventStreams;
    this.warnings = new SourceWarnings(finder);
    this.capabilities = capabilities;
  }

  /** The body of GET /watches. */
  public record WatchList(List<Watch> watches) {}

  @Override
  public List<Endpoint> endpoints() {
    return List.of(
        new Endpoint(GET, "/watches", (caller, p) -> answer(list(caller.accountId()))),
        new Endpoint(
            POST,
            "/watches",
            (caller, p) -> jsonBody(maxBody, body -> answer(create(caller, body)))),
        new Endpoint(
            POST,
            "/watches/warnings",
            (caller, p) -> jsonBody(maxBody, body -> answer(warningsOf(caller.accountId(), body)))),
        new Endpoint(
            POST,
            "/watches/check",
            (caller, p) ->
                jsonBody(
                    maxBody, body -> answer(checked(caller.accountId(), null, body, List.of())))),
        new Endpoint(
            POST,
            "/watches/{id}/check",
            watch(
                (accountId, id, p) ->
                    jsonBody(
                        maxBody,
                        body ->
                            answer(
                                watches
                                    .get(accountId, id)
                                    .thenCompose(
                                        stored ->
                                            checked(accountId, id, body, stored.channels())))))),
        new Endpoint(
            GET, "/watches/{id}", watch((accountId, id, p) -> answer(read(accountId, id)))),
        new Endpoint(
            PUT,
            "/watches/{id}",
            (caller, p) ->
                watch(
                        (accountId, id, q) ->
                            jsonBody(
                                maxBody,
                                body -> answer(replace(caller.role(), accountId, id, body))))
                    .apply(caller, p)),
        new Endpoint(
            DELETE, "/watches/{id}", watch((accountId, id, p) -> answer(remove(accountId, id)))),
        new Endpoint(
            POST,
            "/watches/{id}/run",
            watch(
                (accountId, id, p) ->
                    withRequestTimeout(
                        RUN_TIMEOUT.plusSeconds(5), () -> answer(run(accountId, id))))),
        new Endpoint(
            GET,
            "/watches/{id}/runs",
            watch(
                (accountId, id, p) ->
                    parameterOptional(
                        "limit",
                        limit ->
                            parameterOptional(
                                "before", before -> answer(runs(accountId, id, limit, before)))))),
        new Endpoint(
            GET,
            "/watches/{id}/runs/{runId}",
            perAccount(
                reads, watch((accountId, id, p) -> answer(run(accountId, id, p.get("runId")))))),
        new Endpoint(
            POST,
            "/watches/run-all",
            (caller, p) ->
                parameterOptional(
                    "async",
                    async ->
                        switch (async.orElse("false")) {
                          case "true" -> answer(startRunAll(caller.accountId()));
                          case "false" ->
                              withRequestTimeout(
                                  RUN_ALL_WAIT.plusSeconds(5),
                                  () -> answer(runAll(caller.accountId())));
                          default ->
                              answer(
                                  Reply.invalid(
                                      List.of(
                                          Issue.at("must be true or false", "query", "async"))));
                        })),
        new Endpoint(
            GET,
            "/watches/run-all/jobs/{job}",
            (caller, p) -> answer(job(caller.accountId(), p.get("job")))),
        new Endpoint(
            GET,
            "/watches/run-all/jobs/{job}/events",
            (caller, p) ->
                optionalHeaderValueByName(
                    "Last-Event-ID", last -> jobEvents(caller.accountId(), p.get("job"), last))));
  }

  /**
   * The answer of a route of the caller's watch {@code {id}}: given the owner, the id and the
   * path's parameters.
   */
  @FunctionalInterface
  interface WatchAnswer {
    Route apply(String accountId, String id, Map<String, String> params);
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

  /**
   * How long the synchronous run-all waits for its run-all to finish; after it, a 503 names the
   * job, which goes on (server.idle-timeout in conf/periscope.conf is longer, so the answer
   * arrives).
   */
  static final Duration RUN_ALL_WAIT = EntityRunAll.RUN_ALL_WAIT;

  static final int DEFAULT_RUNS = 20;
  static final int MAX_RUNS = 100;

  /** The body of POST /watches/:id/run. */
  public record RunResult(RunView result) {}

  /** The body of POST /watches/run-all. */
  public record RunAllBody(RunAllResult.Summary summary, List<OutcomeView> outcomes) {}

  /**
   * One watch of a run-all: {@code result} when a run was recorded, {@code error} when it failed.
   */
  public record OutcomeView(String watchId, String status, RunView result, String error) {
    static OutcomeView of(RunAllResult.WatchOutcome o) {
      return new OutcomeView(
          o.watchId(),
          o.status(),
          o.record() == null ? null : RunView.of(o.watchId(), o.record()),
          o.error());
    }
  }

  /** A run-all job as the interface shows it: its outcomes as the synchronous answer's. */
  public record JobView(
      String id,
      String status,
      java.time.Instant startedAt,
      java.time.Instant finishedAt,
      int total,
      List<OutcomeView> outcomes,
      RunAllResult.Summary summary,
      String error) {
    static JobView of(RunAllJob job) {
      return new JobView(
          job.id(),
          job.status(),
          job.startedAt(),
          job.finishedAt(),
          job.total(),
          job.outcomes().stream().map(OutcomeView::of).toList(),
          job.summary(),
          job.error());
    }
  }

  /** The body of the run-all job routes. */
  public record JobBody(JobView job) {}

  /** The body of a synchronous run-all that did not finish in time: the job goes on. */
  public record UnfinishedBody(String error, JobView job) {}

  /**
   * The body of GET /watches/:id/runs, newest first; {@code next}, when older kept runs follow, is
   * the {@code before} of the next page.
   */
  public record RunHistory(List<RunView> runs, String next) {}

  /** A run now; a spent budget of the month is the owner's 429, any other refusal a 404. */
  private CompletionStage<Reply> run(String accountId, String id) {
    return runs.runNow(accountId, id)
        .thenApply(record -> ok(new RunResult(RunView.of(id, record))))
        .exceptionally(
            failure ->
                Failures.unwrap(failure) instanceof OverQuota
                    ? Failures.rethrow(failure)
                    : Refusal.<Reply>as(NOT_FOUND, WATCH_NOT_FOUND).apply(failure));
  }

  /**
   * Starts the caller's run-all and waits for it: 200 with every outcome, 409 while another is in
   * flight, 503 when it failed, was interrupted or is still going after {@link #RUN_ALL_WAIT}.
   */
  private CompletionStage<Reply> runAll(String accountId) {
    return runs.startRunAll(accountId)
        .thenCompose(
            started ->
                runs.awaitRunAllJob(accountId, started.id(), RUN_ALL_WAIT)
                    .thenApply(
                        job -> {
                          if (!job.status().equals(RunAllJob.DONE))
                            throw new Refusal(Refusal.Kind.UNAVAILABLE, job.error());
                          return ok(new RunAllBody(job.summary(), JobView.of(job).outcomes()));
                        })
                    .exceptionally(
                        e ->
                            Failures.unwrap(e) instanceof AskTimeoutException
                                ? stillRunning(started)
                                : rethrow(e)));
  }

  private Reply stillRunning(RunAllJob job) {
    return json(
            StatusCodes.SERVICE_UNAVAILABLE,
            new UnfinishedBody(
                "the run-all did not finish within "
                    + RUN_ALL_WAIT.toMinutes()
                    + " minutes and goes on; follow its job",
                JobView.of(job)))
        .withHeader(Location.create(jobPath(job)));
  }

  private static String jobPath(RunAllJob job) {
    return "/watches/run-all/jobs/" + job.id();
  }

  /** 202 with the started job, and where to follow it. */
  private CompletionStage<Reply> startRunAll(String accountId) {
    return runs.startRunAll(accountId)
        .thenApply(
            job ->
                json(StatusCodes.ACCEPTED, new JobBody(JobView.of(job)))
                    .withHeader(Location.create(jobPath(job))));
  }

  private CompletionStage<Reply> job(String accountId, String jobId) {
    return runs.runAllJob(accountId, jobId).thenApply(job -> ok(new JobBody(JobView.of(job))));
  }

  /**
   * The job as server-sent events: an {@code outcome} event per finished watch (those finished
   * before the client came first), its id the outcome's place in the job from 1, then {@code done}
   * with the final job. A client back with {@code Last-Event-ID} gets the outcomes after that one.
   * The stream polls the run-all entity, whose jobs are journaled, so it works from any node and
   * after the node that ran the job died.
   */
  private Route jobEvents(String accountId, String jobId, Optional<String> lastEventId) {
    int after;
    try {
      after = lastEventId.map(String::strip).map(Integer::parseInt).orElse(0);
    } catch (NumberFormatException e) {
      after = -1;
    }
    if (after < 0)
      return answer(
          Reply.invalid(
              List.of(
                  Issue.at(
                      "must be the id of an outcome event (a whole number)",
                      "header",
                      "Last-Event-ID"))));
    int[] sent = {after};
    return onSuccess(
        runs.runAllJob(accountId, jobId),
        job ->
            JobEvents.stream(
                accountId,
                eventStreams,
                job,
                RunAllJob::finished,
                () -> runs.runAllJob(accountId, jobId),
                // a run-all's outcomes are counted, not keyed: Last-Event-ID is a count
                (look, keysSent) -> eventsOf(look, sent)));
  }

  /**
   * The events a look at the job adds: outcomes after the first {@code sent[0]} (a job's outcomes
   * only grow, in order), and done once it finished.
   */
  private static List<ServerSentEvent> eventsOf(RunAllJob job, int[] sent) {
    List<ServerSentEvent> events = new ArrayList<>();
    List<RunAllResult.WatchOutcome> outcomes = job.outcomes();
    for (; sent[0] < outcomes.size(); sent[0]++) {
      RunAllResult.WatchOutcome o = outcomes.get(sent[0]);
      events.add(
          ServerSentEvent.create(
              Json.text(OutcomeView.of(o)), "outcome", Integer.toString(sent[0] + 1)));
    }
    if (job.finished()) events.add(ServerSentEvent.create(Json.text(JobView.of(job)), "done"));
    return events;
  }

  /**
   * A page of the watch's kept runs, newest first: {@code limit} 1 to {@link #MAX_RUNS}, older than
   * the run {@code before} when given; {@code next} is the cursor of the next page.
   */
  private CompletionStage<Reply> runs(
      String accountId, String id, Optional<String> limitParam, Optional<String> before) {
    int limit;
    try {
      limit = limitParam.map(Integer::parseInt).orElse(DEFAULT_RUNS);
    } catch (NumberFormatException e) {
      limit = -1;
    }
    if (limit < 1 || limit > MAX_RUNS) {
      return CompletableFuture.completedFuture(
          Reply.invalid(
              List.of(Issue.at("must be a whole number from 1 to " + MAX_RUNS, "query", "limit"))));
    }
    return history
        .page(accountId, id, limit, before.orElse(null))
        .thenApply(
            history -> {
              List<RunView> runs = history.runs().stream().map(rec -> RunView.of(id, rec)).toList();
              return ok(
                  new RunHistory(
                      runs,
                      history.more() && !runs.isEmpty()
                          ? runs.get(runs.size() - 1).run().runId()
                          : null));
            })
        .exceptionally(
            e -> {
              if (!Failures.isRefusal(e)) return Failures.rethrow(e);
              return EntityRefusal.is(e, EntityRefusal.Code.NO_SUCH_RUN)
                  ? Reply.invalid(
                      List.of(
                          Issue.at("is not a run of this watch's kept history", "query", "before")))
                  : Failures.rethrow(noSuchWatch());
            });
  }

  /** One kept run, whole: with the items it judged. */
  private CompletionStage<Reply> run(String accountId, String id, String runId) {
    return history
        .whole(accountId, id, runId)
        .thenApply(record -> ok(RunView.whole(id, record)))
        .exceptionally(
            e -> {
              if (!Failures.isRefusal(e)) return Failures.rethrow(e);
              throw EntityRefusal.is(e, EntityRefusal.Code.NO_SUCH_RUN)
                  ? new Refusal(NOT_FOUND, "run not found")
                  : noSuchWatch();
            });
  }

  private CompletionStage<Reply> list(String accountId) {
    return watches
        .list(accountId)
        .thenApply(all -> ok(new WatchList(all.stream().map(SealedChannels::mask).toList())));
  }

  private CompletionStage<Reply> create(Principal caller, JsonNode body) {
    Validated sent = validated(body, null, caller.accountId(), List.of());
    Watch watch = sent.watch();
    return watches
        .create(caller.role(), watch, sent.stored(), Actor.owner(caller.accountId()), null)
        .thenApply(created -> json(StatusCodes.CREATED, SealedChannels.mask(created)))
        .thenCompose(saved -> warnings.warned(saved, watch.sources(), Set.of()))
        .thenCombine(savedWarnings(watch), SourceWarnings::adding);
  }

  /** A sent watch body once validated, and its opened channels, which a save stores sealed. */
  private record Validated(Watch watch, SealedChannels.Opened opened) {
    /** The watch as it is stored: its channels sealed (only a save needs them sealed). */
    Watch stored() {
      return opened.store(watch);
    }
  }

  /**
   * The one way create, replace and check read a body, so that they refuse alike: its masked
   * channels opened against the {@code stored} ones, then validated as the watch {@code id} (null:
   * a new one) of {@code accountId}; a 400 ({@link io.periscope.json.ValidationException}) with
   * every issue, a masked channel the watch does not have among them.
   */
  private Validated validated(JsonNode body, String id, String accountId, List<String> stored) {
    SealedChannels.Opened opened = sealed.open(body, stored);
    return new Validated(
        WatchValidator.validate(opened.body(), id, accountId, scheduleZone), opened);
  }

  /**
   * What this instance cannot serve in a saved watch; the watch is stored already, so a warning
   * that cannot be worked out now is left out rather than failing the answer.
   */
  private CompletionStage<List<WatchWarnings.Warning>> savedWarnings(Watch watch) {
    return capabilities
        .of(watch.owner(), watch.sources(), watch.channels())
        .exceptionally(failure -> List.of());
  }

  /** The body of POST /watches/warnings. */
  public record Warnings(List<WatchWarnings.Warning> warnings) {}

  /**
   * What this instance could not serve in a watch's sources and channels, before it is saved:
   * {@code {sources?, channels?}} as a watch's body has them; other fields are not read.
   */
  private CompletionStage<Reply> warningsOf(String accountId, JsonNode body) {
    List<Issue> issues = new ArrayList<>();
    if (!body.isObject()) issues.add(Issue.at("must be an object"));
    List<WatchSource> sources = new ArrayList<>();
    JsonNode s = body.path("sources");
    if (!s.isMissingNode() && !s.isArray()) issues.add(Issue.at("must be an array", "sources"));
    for (int i = 0; i < s.size(); i++) {
      JsonNode source = s.get(i);
      if (!source.path("type").isTextual())
        issues.add(Issue.at("must be a string", "sources", i, "type"));
      sources.add(
          new WatchSource(
              source.path("type").asText(""), source.path("value").asText(""), null, null));
    }
    List<String> channels = new ArrayList<>();
    JsonNode c = body.path("channels");
    if (!c.isMissingNode() && !c.isArray()) issues.add(Issue.at("must be an array", "channels"));
    for (int i = 0; i < c.size(); i++) {
      if (!c.get(i).isTextual()) issues.add(Issue.at("must be a string", "channels", i));
      channels.add(c.get(i).asText(""));
    }
    if (!issues.isEmpty()) return CompletableFuture.completedFuture(Reply.invalid(issues));
    return capabilities
        .of(accountId, sources, c.isMissingNode() ? null : channels)
        .thenApply(found -> ok(new Warnings(found)));
  }

  /**
   * A whole create body (no {@code id}) or replace body (of the stored watch {@code id}, its {@code
   * stored} channels behind the masked ones), checked as the save checks it and saving nothing: a
   * 400 with every issue, else what this instance could not serve in it. The editor asks this
   * before a save, so a person reads what is wrong before what may not work.
   */
  private CompletionStage<Reply> checked(
      String accountId, String id, JsonNode body, List<String> stored) {
    Watch watch = validated(body, id, accountId, stored).watch();
    return capabilities
        .of(accountId, watch.sources(), watch.channels())
        .thenApply(found -> ok(new Warnings(found)));
  }

  private CompletionStage<Reply> read(String accountId, String id) {
    return watches.get(accountId, id).thenApply(watch -> ok(SealedChannels.mask(watch)));
  }

  /**
   * The channels the client sends back masked are the stored ones they mask (a watch not there:
   * none, and the replace answers 404 after the body was checked).
   */
  private CompletionStage<Reply> replace(Role role, String accountId, String id, JsonNode body) {
    return watches
        .find(accountId, id)
        .thenCompose(
            stored -> {
              Validated sent =
                  validated(body, id, accountId, stored.map(Watch::channels).orElse(List.of()));
              return watches
                  .replace(role, sent.watch(), sent.stored(), Actor.owner(accountId), null)
                  .thenCompose(
                      saved ->
                          warnings
                              .warned(
                                  ok(SealedChannels.mask(saved)), saved.sources(), known(stored))
                              .thenCombine(savedWarnings(saved), SourceWarnings::adding));
            });
  }

  private CompletionStage<Reply> remove(String accountId, String id) {
    return watches
        .delete(accountId, id, Actor.owner(accountId))
        .thenApply(done -> Reply.noContent());
  }

  /** The URLs of the rss sources a stored watch had. */
  private static Set<String> known(Optional<Watch> stored) {
    Set<String> urls = new HashSet<>();
    stored.ifPresent(
        w ->
            w.sources().stream()
                .filter(s -> WatchSource.RSS.equals(s.type()))
                .forEach(s -> urls.add(s.value())));
    return urls;
  }

  static Refusal noSuchWatch() {
    return new Refusal(NOT_FOUND, WATCH_NOT_FOUND);
  }

  private static <T> T rethrow(Throwable e) {
    return Failures.rethrow(e);
  }
}
