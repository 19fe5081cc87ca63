package io.periscope.assist;

import io.periscope.assist.AssistRequests.DraftRequest;
import io.periscope.assist.AssistRequests.PreviewRequest;
import io.periscope.feedback.Feedback;
import io.periscope.keys.KeyPoolEntity;
import io.periscope.keys.KeyPools;
import io.periscope.llm.ModelUsage;
import io.periscope.llm.PooledModel;
import io.periscope.source.ItemBounds;
import io.periscope.source.SearchProvider;
import io.periscope.watch.Watch;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * AI assistance (docs/http-interface.md, AI assistance): drafts, revisions and explanations from
 * the model, previews from the search provider, domain liveness from the network. Nothing here
 * persists anything. Model calls go through the model key pool ({@link PooledModel}), searches
 * through the search key pool, so keys cool down and die as they do for runs.
 *
 * <p>Failures: {@link KeyPools.NoUsableKey} when a pool has no usable key, {@link
 * io.periscope.provider.ProviderFailure} when the provider failed, {@link
 * io.periscope.llm.InvalidModelOutput} when the model answered unusably twice, {@link
 * UpstreamTimeout} past {@link #UPSTREAM_DEADLINE}.
 */
public final class Assistant {
  /** A preview shows at most this many candidates (openapi.json, the preview's answer). */
  public static final int MAX_CANDIDATES = 5;

  /**
   * How long one assistance call may take in all, key retries and the second try included; under
   * the route's request timeout, so the caller gets a 502 rather than the server's own timeout.
   */
  public static final Duration UPSTREAM_DEADLINE = Duration.ofSeconds(100);

  private final PooledModel model;
  private final KeyPools keyPools;
  private final Optional<SearchProvider> search;
  private final DomainLiveness liveness;
  private final ZoneId scheduleZone;

  /**
   * @param scheduleZone the time zone drafts are written for (SCHEDULE_TIME_ZONE)
   */
  public Assistant(
      PooledModel model,
      KeyPools keyPools,
      Optional<SearchProvider> search,
      DomainLiveness liveness,
      ZoneId scheduleZone) {
    this.model = model;
    this.keyPools = keyPools;
    this.search = search;
    this.liveness = liveness;
    this.scheduleZone = scheduleZone;
  }

  /** The time zone of watches that name none, which drafts are written for. */
  public ZoneId scheduleZone() {
    return scheduleZone;
  }

  /** An upstream call that did not finish within {@link #UPSTREAM_DEADLINE}. */
  public static final class UpstreamTimeout extends RuntimeException {
    UpstreamTimeout(String upstream) {
      super(
          "the " + upstream + " did not answer within " + UPSTREAM_DEADLINE.toSeconds() + " s",
          null,
          false,
          false);
    }
  }

  /**
   * One search result offered as a source: title (the URL when it has none), URL, and when known
   * its date and text.
   */
  public record Candidate(String title, String url, Instant publishedAt, String snippet) {}

  /** Whether assistance is configured: a model key is usable now. */
  public CompletionStage<Boolean> modelReady() {
    return keyPools.hasUsableKey(KeyPoolEntity.MODEL);
  }

  /** Whether previews are configured: a search provider, and a search key usable now. */
  public CompletionStage<Boolean> searchReady() {
    return search.isEmpty()
        ? CompletableFuture.completedFuture(false)
        : keyPools.hasUsableKey(KeyPoolEntity.SEARCH);
  }

  /** A draft; {@code used} is told what each model call took (so are explain's and revise's). */
  public CompletionStage<Draft> draft(DraftRequest request, Consumer<ModelUsage> used) {
    return fromModel(
        model.ask(
            DraftPrompt.of(request, scheduleZone),
            answer -> Draft.check(answer, scheduleZone),
            consulted -> {},
            used));
  }

  public CompletionStage<String> explain(Watch watch, Consumer<ModelUsage> used) {
    return fromModel(
        model.ask(ExplainPrompt.of(watch), ExplainPrompt::read, consulted -> {}, used));
  }

  /**
   * The changes the model proposes to {@code base} for {@code instruction}, in the light of the
   * owner's {@code feedback} on the watch's runs (most recent first), as a diff against {@code
   * base}.
   */
  public CompletionStage<Revision> revise(
      Watch base, String instruction, List<Feedback> feedback, Consumer<ModelUsage> used) {
    return fromModel(
        model.ask(
            RevisionPrompt.of(base, instruction, feedback),
            answer -> Revision.read(answer, base),
            consulted -> {},
            used));
  }

  /** What a search source with this query would find now: one search, no model call. */
  public CompletionStage<List<Candidate>> preview(PreviewRequest request) {
    if (search.isEmpty())
      return CompletableFuture.failedFuture(new KeyPools.NoUsableKey(KeyPoolEntity.SEARCH));
    return bounded(
        keyPools
            .withKey(
                KeyPoolEntity.SEARCH,
                key ->
                    search
                        .get()
                        .search(request.value(), request.recencyDays(), MAX_CANDIDATES, key))
            .thenApply(
                items ->
                    items.stream()
                        // as a run's items: bounded, and a link only when it is http(s)
                        .map(ItemBounds::bounded)
                        .filter(i -> i.url() != null)
                        .limit(MAX_CANDIDATES)
                        .map(
                            i ->
                                new Candidate(
                                    i.title() == null ? i.url() : i.title(),
                                    i.url(),
                                    i.published(),
                                    i.summary()))
                        .toList()),
        "search provider");
  }

  public CompletionStage<Map<String, Boolean>> checkDomains(List<String> domains) {
    return liveness.check(domains);
  }

  /** The model's answer within the upstream deadline. */
  private static <T> CompletionStage<T> fromModel(CompletionStage<PooledModel.Answer<T>> asked) {
    return bounded(asked.thenApply(PooledModel.Answer::value), "model");
  }

  private static <T> CompletionStage<T> bounded(CompletionStage<T> call, String upstream) {
    CompletableFuture<T> result = new CompletableFuture<>();
    call.whenComplete(
        (value, failure) -> {
          if (failure != null) result.completeExceptionally(failure);
          else result.complete(value);
        });
    CompletableFuture.delayedExecutor(UPSTREAM_DEADLINE.toMillis(), TimeUnit.MILLISECONDS)
        .execute(() -> result.completeExceptionally(new UpstreamTimeout(upstream)));
    return result;
  }
}
