package io.periscope.http;

import static io.periscope.entity.Refusal.Kind.NOT_FOUND;
import static io.periscope.entity.Refusal.Kind.UNAVAILABLE;
import static io.periscope.entity.Refusal.Kind.UPSTREAM_FAILED;
import static io.periscope.http.ApiDirectives.answer;
import static io.periscope.http.ApiDirectives.jsonBody;
import static io.periscope.http.ApiDirectives.rateLimited;
import static io.periscope.http.Reply.ok;
import static org.apache.pekko.http.javadsl.model.HttpMethods.POST;
import static org.apache.pekko.http.javadsl.server.Directives.*;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.assist.AssistRequests;
import io.periscope.assist.Assistant;
import io.periscope.assist.Draft;
import io.periscope.assist.Revision;
import io.periscope.assist.RevisionPrompt;
import io.periscope.auth.Principal;
import io.periscope.entity.Asks;
import io.periscope.entity.EntityRefusal;
import io.periscope.entity.Failures;
import io.periscope.entity.Refusal;
import io.periscope.feedback.Feedbacks;
import io.periscope.keys.KeyPools;
import io.periscope.llm.InvalidModelOutput;
import io.periscope.llm.ModelCallMeter;
import io.periscope.llm.UsageRecorder;
import io.periscope.provider.ProviderFailure;
import io.periscope.ratelimit.FixedWindowRateLimiter;
import io.periscope.runtime.Entities;
import io.periscope.watch.Watch;
import io.periscope.watch.WatchEntity;
import io.periscope.watch.WatchSource;
import io.periscope.watch.WatchValidator;
import io.periscope.watches.WatchWarnings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.apache.pekko.http.javadsl.server.Route;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * AI assistance: POST /watches/draft, /watches/draft/preview, /watches/draft/check-domains,
 * /watches/:id/explain and /watches/:id/revise. Nothing is persisted. Each request passes, in this
 * order: the token (401), the caller's window of the AI limit shared by the five routes (429), the
 * capability (503 without a usable model key; preview also without a search provider and a usable
 * search key), the body (400), the watch's ownership (404). A failed or unusable upstream answer is
 * a 502.
 *
 * <p>Placed before {@link WatchRoutes}: a watch may be called {@code draft}, and only these POSTs
 * are assistance; every other request to /watches/draft… falls through to the watch routes.
 */
public final class AssistRoutes implements Routes {
  private static final Logger log = LoggerFactory.getLogger(AssistRoutes.class);

  /** Room for the capability check and the watch read before the upstream deadline starts. */
  static final Duration REQUEST_TIMEOUT = Assistant.UPSTREAM_DEADLINE.plusSeconds(30);

  private final Assistant assistant;
  private final Feedbacks feedbacks;
  private final Entities entities;
  private final Asks asks;
  private final FixedWindowRateLimiter limiter;
  private final ModelCallMeter meter;
  private final UsageRecorder usage;
  private final long maxBody;
  private final WatchWarnings warnings;

  /**
   * @param meter counts each model call (draft, explain, revise) against the caller's quota
   * @param usage keeps what each of those calls took, for the caller and the watch (if any)
   */
  public AssistRoutes(
      Assistant assistant,
      Feedbacks feedbacks,
      Entities entities,
      Asks asks,
      FixedWindowRateLimiter limiter,
      ModelCallMeter meter,
      UsageRecorder usage,
      long maxBody,
      WatchWarnings warnings) {
    this.assistant = assistant;
    this.feedbacks = feedbacks;
    this.entities = entities;
    this.asks = asks;
    this.limiter = limiter;
    this.meter = meter;
    this.usage = usage;
    this.maxBody = maxBody;
    this.warnings = warnings;
  }

  /** {@code call} once the caller's model call is counted (429 past its quota). */
  private <T> CompletionStage<T> metered(String accountId, Supplier<CompletionStage<T>> call) {
    return meter.use(accountId).thenCompose(counted -> call.get());
  }

  /**
   * The body of POST /watches/draft: with what this instance could not serve in it (a search
   * without a search key).
   */
  public record DraftBody(Draft draft, List<WatchWarnings.Warning> warnings) {}

  /**
   * The body of POST /watches/draft/preview: at most {@link Assistant#MAX_CANDIDATES}, in the
   * provider's order.
   */
  public record PreviewBody(List<Assistant.Candidate> candidates) {}

  /** The body of POST /watches/draft/check-domains. */
  public record LivenessBody(Map<String, Boolean> liveness) {}

  /** The body of POST /watches/:id/explain. */
  public record ExplanationBody(String explanation) {}

  /**
   * The body of POST /watches/:id/revise: with what this instance could not serve in the proposed
   * sources.
   */
  public record RevisionBody(Revision revision, List<WatchWarnings.Warning> warnings) {}

  @Override
  public List<Endpoint> endpoints() {
    return List.of(
        new Endpoint(
            POST,
            "/watches/draft",
            (caller, p) ->
                assisted(
                    caller,
                    false,
                    () -> jsonBody(maxBody, body -> answer(draft(caller.accountId(), body))))),
        new Endpoint(
            POST,
            "/watches/draft/preview",
            (caller, p) ->
                assisted(caller, true, () -> jsonBody(maxBody, body -> answer(preview(body))))),
        new Endpoint(
            POST,
            "/watches/draft/check-domains",
            (caller, p) ->
                assisted(
                    caller, false, () -> jsonBody(maxBody, body -> answer(checkDomains(body))))),
        new Endpoint(
            POST,
            "/watches/{id}/explain",
            (caller, p) ->
                assisted(caller, false, () -> answer(explain(caller.accountId(), p.get("id"))))),
        new Endpoint(
            POST,
            "/watches/{id}/revise",
            (caller, p) ->
                assisted(
                    caller,
                    false,
                    () ->
                        jsonBody(
                            maxBody,
                            body -> answer(revise(caller.accountId(), p.get("id"), body))))));
  }

  /** The limit, then the capability, then {@code inner}, with time for the upstream calls. */
  private Route assisted(Principal caller, boolean needsSearch, Supplier<Route> inner) {
    return rateLimited(
        limiter,
        caller.accountId(),
        () ->
            onSuccess(
                ready(needsSearch),
                ready ->
                    ready
                        ? withRequestTimeout(REQUEST_TIMEOUT, inner)
                        : failWith(
                            new Refusal(
                                UNAVAILABLE,
                                needsSearch
                                    ? "preview is not configured: it needs a usable model key, a"
                                        + " search provider and a usable search key"
                                    : "AI assistance is not configured: no usable model key"))));
  }

  private CompletionStage<Boolean> ready(boolean needsSearch) {
    return needsSearch
        ? assistant
            .modelReady()
            .thenCombine(assistant.searchReady(), (model, search) -> model && search)
        : assistant.modelReady();
  }

  private CompletionStage<Reply> draft(String accountId, JsonNode body) {
    AssistRequests.DraftRequest request = AssistRequests.draft(body);
    return answered(
        metered(accountId, () -> assistant.draft(request, usage.recorder(accountId, null)))
            .thenCompose(
                draft ->
                    sourceWarnings(accountId, sources(draft))
                        .thenApply(found -> new DraftBody(draft, found))),
        "draft",
        "model");
  }

  private CompletionStage<Reply> preview(JsonNode body) {
    AssistRequests.PreviewRequest request = AssistRequests.preview(body);
    return answered(
        assistant.preview(request).thenApply(PreviewBody::new), "preview", "search provider");
  }

  private CompletionStage<Reply> checkDomains(JsonNode body) {
    AssistRequests.DomainsRequest request = AssistRequests.domains(body);
    return assistant
        .checkDomains(request.domains())
        .thenApply(liveness -> ok(new LivenessBody(liveness)));
  }

  private CompletionStage<Reply> explain(String accountId, String id) {
    return stored(accountId, id)
        .thenCompose(
            watch ->
                answered(
                    metered(
                            accountId,
                            () -> assistant.explain(watch, usage.recorder(accountId, id)))
                        .thenApply(ExplanationBody::new),
                    "explain",
                    "model"))
        .exceptionally(Refusal.as(NOT_FOUND, WatchEntity.WATCH_NOT_FOUND));
  }

  /**
   * Against {@code base} when the body's base counts (its id is the path's), else against the
   * stored watch; with the owner's most recent feedback on the watch's runs.
   */
  private CompletionStage<Reply> revise(String accountId, String id, JsonNode body) {
    AssistRequests.RevisionRequest request =
        AssistRequests.revision(body, id, accountId, assistant.scheduleZone());
    return stored(accountId, id)
        .thenCompose(
            watch ->
                feedbacks
                    .newest(accountId, id, RevisionPrompt.MAX_FEEDBACK)
                    .thenCompose(
                        feedback ->
                            answered(
                                metered(
                                        accountId,
                                        () ->
                                            assistant.revise(
                                                request.base() != null ? request.base() : watch,
                                                request.instruction(),
                                                feedback,
                                                usage.recorder(accountId, id)))
                                    .thenCompose(
                                        revision ->
                                            sourceWarnings(accountId, sources(revision))
                                                .thenApply(
                                                    found -> new RevisionBody(revision, found))),
                                "revise",
                                "model")))
        .exceptionally(Refusal.as(NOT_FOUND, WatchEntity.WATCH_NOT_FOUND));
  }

  /**
   * What this instance cannot serve in proposed sources; the model call is spent already, so a
   * warning that cannot be worked out now is left out rather than failing the answer.
   */
  private CompletionStage<List<WatchWarnings.Warning>> sourceWarnings(
      String accountId, List<WatchSource> sources) {
    return warnings.of(accountId, sources, null).exceptionally(failure -> List.of());
  }

  private static List<WatchSource> sources(Draft draft) {
    return draft.sources().stream()
        .map(s -> new WatchSource(s.type(), s.value(), s.trust(), s.recencyDays()))
        .toList();
  }

  /** The sources a revision proposes; none when it leaves them as they are. */
  private static List<WatchSource> sources(Revision revision) {
    JsonNode proposed = revision.changes().get("sources");
    if (proposed == null || !proposed.isArray()) return List.of();
    List<WatchSource> sources = new ArrayList<>();
    proposed.forEach(
        s ->
            sources.add(
                new WatchSource(s.path("type").asText(), s.path("value").asText(), null, null)));
    return sources;
  }

  /**
   * The caller's watch; refused (404) when absent or another owner's, since it is addressed under
   * the caller.
   */
  private CompletionStage<Watch> stored(String accountId, String id) {
    if (!WatchValidator.ID.matcher(id).matches()) {
      return CompletableFuture.failedFuture(new EntityRefusal("no such watch"));
    }
    return asks.ask(entities.watch(accountId, id), WatchEntity.Get::new);
  }

  /**
   * 200 with the body, or the refusal an upstream failure means: no usable key is unavailable,
   * anything else upstream failed.
   */
  private static CompletionStage<Reply> answered(
      CompletionStage<?> call, String route, String upstream) {
    return call.thenApply(Reply::ok)
        .exceptionally(
            e -> {
              Throwable t = Failures.unwrap(e);
              if (t instanceof KeyPools.NoUsableKey) throw new Refusal(UNAVAILABLE, t.getMessage());
              if (t instanceof ProviderFailure pf) {
                log.warn(
                    "event=assist-upstream-failure route={} kind={} status={}",
                    route,
                    pf.kind(),
                    pf.httpStatus());
                throw new Refusal(
                    UPSTREAM_FAILED, "the " + upstream + " call failed: " + pf.getMessage());
              }
              if (t instanceof InvalidModelOutput invalid) {
                log.warn(
                    "event=assist-upstream-failure route={} kind=invalid-output problems={}",
                    route,
                    invalid.problems().size());
                throw new Refusal(UPSTREAM_FAILED, "the model did not give a usable answer, twice");
              }
              if (t instanceof Assistant.UpstreamTimeout) {
                log.warn("event=assist-upstream-failure route={} kind=timeout", route);
                throw new Refusal(UPSTREAM_FAILED, t.getMessage());
              }
              return Failures.rethrow(e);
            });
  }
}
