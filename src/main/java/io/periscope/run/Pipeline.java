package io.periscope.run;

import io.periscope.entity.Failures;
import io.periscope.entity.OverQuota;
import io.periscope.keys.KeyPoolEntity;
import io.periscope.keys.KeyPools;
import io.periscope.llm.InvalidModelOutput;
import io.periscope.llm.Judged;
import io.periscope.llm.ModelCallMeter;
import io.periscope.llm.ModelUsage;
import io.periscope.llm.PooledModel;
import io.periscope.llm.UsageRecorder;
import io.periscope.llm.Verdict;
import io.periscope.llm.VerdictPrompt;
import io.periscope.notify.AdminAlerts;
import io.periscope.notify.Alert;
import io.periscope.notify.Delivery;
import io.periscope.notify.Notifier;
import io.periscope.notify.RepeatedAlerts;
import io.periscope.provider.ProviderFailure;
import io.periscope.source.ArticleExtractor;
import io.periscope.source.FeedCollector;
import io.periscope.source.Item;
import io.periscope.source.PageCollector;
import io.periscope.source.PageSnapshot;
import io.periscope.source.SearchProvider;
import io.periscope.source.SourceError;
import io.periscope.source.SourceResult;
import io.periscope.trust.TrustRules;
import io.periscope.watch.RunPipeline;
import io.periscope.watch.RunRecord;
import io.periscope.watch.RunRecords;
import io.periscope.watch.Watch;
import io.periscope.watch.WatchSource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The run of a watch: collect every source (a failing one becomes a source error and the run goes
 * on), give each item the trust the owner's trust rules set for its domain (else its source's),
 * keep the items this watch has not judged, extract their pages' text, ask the model once, alert by
 * threshold and weakThreshold, and name the judged items to mark seen — only when a verdict was
 * had, so a failed judgement leaves them for the next run. An alert is handed back unsent: the
 * watch entity sends it once the run is recorded. Operational trouble goes to the admin chat, best
 * effort.
 */
public final class Pipeline implements RunPipeline {
  private static final Logger log = LoggerFactory.getLogger(Pipeline.class);

  /** Fresh items whose pages are fetched at once. */
  static final int EXTRACT_CONCURRENCY = 4;

  /** Results asked of the search provider per search source. */
  static final int SEARCH_RESULTS = 10;

  private final FeedCollector feeds;
  private final PageCollector pages;
  private final Optional<SearchProvider> search;
  private final ArticleExtractor extractor;
  private final PooledModel model;
  private final KeyPools keyPools;
  private final Notifier notifier;
  private final AdminAlerts adminAlerts;
  private final RepeatedAlerts runAlerts;
  private final TrustRules.Lookup trustRules;
  private final ModelCallMeter meter;
  private final UsageRecorder usage;
  private final Clock clock;

  /**
   * @param keyPools the search key pool's way in (the model reaches its own through {@code model})
   * @param runAlerts the node's throttle of the alerts about failing watches
   * @param meter counts each verdict against its owner's model calls of the day
   * @param usage keeps what each verdict's calls took, for its owner and watch
   */
  public Pipeline(
      FeedCollector feeds,
      PageCollector pages,
      Optional<SearchProvider> search,
      ArticleExtractor extractor,
      PooledModel model,
      KeyPools keyPools,
      Notifier notifier,
      AdminAlerts adminAlerts,
      RepeatedAlerts runAlerts,
      TrustRules.Lookup trustRules,
      ModelCallMeter meter,
      UsageRecorder usage,
      Clock clock) {
    this.feeds = feeds;
    this.pages = pages;
    this.search = search;
    this.extractor = extractor;
    this.model = model;
    this.keyPools = keyPools;
    this.notifier = notifier;
    this.adminAlerts = adminAlerts;
    this.runAlerts = runAlerts;
    this.trustRules = trustRules;
    this.meter = meter;
    this.usage = usage;
    this.clock = clock;
  }

  @Override
  public void alertInterrupted(Watch watch, String runId, List<String> channels) {
    adminAlerts.alert(
        AdminAlerts.Kind.ALERT_INTERRUPTED,
        watch.owner(),
        watch.id(),
        "the alert of run "
            + runId
            + " to "
            + channels.size()
            + " channel(s) was interrupted by a node stopping; it may not have arrived");
  }

  @Override
  public CompletionStage<List<Delivery>> deliver(String channel, Alert alert) {
    return notifier.send(List.of(channel), alert);
  }

  /**
   * The operator hears of it once per delivery, throttled per owner and channel (a dead channel on
   * many watches is one alert an hour, not one per delivery); the channel by its kind only, since
   * its target (a webhook's path, an address) is the owner's and may be a secret.
   */
  @Override
  public void deliveryFailed(Alert alert, String channel, String reason) {
    runAlerts.failedOn(
        AdminAlerts.Kind.DELIVERY_FAILED,
        alert.owner(),
        alert.watchId(),
        channel,
        "the alert of run "
            + alert.runId()
            + " to a "
            + io.periscope.notify.ChannelId.kindName(channel)
            + " channel was not delivered: "
            + (reason == null ? "no reason given" : reason));
  }

  @Override
  public void runCrashed(Watch watch, RunRecord record) {
    runAlerts.failed(AdminAlerts.Kind.WATCH_ERRORED, watch.owner(), watch.id(), record.error());
  }

  /**
   * What one run has gathered so far; each step adds to it. {@code setAside}: the items that are
   * old news, seen without being judged; {@code remapped}: keys of items seen before under another
   * name, recorded now under their own; {@code baselined}: the sources that took their baseline in
   * this run; {@code items}: the items to judge and set aside, none when all were seen; {@code
   * itemCount}: the items collected, as the record counts them.
   */
  private record Progress(
      Watch watch,
      Mode mode,
      String trigger,
      Instant startedAt,
      List<RunItems.Collected> items,
      int itemCount,
      List<SourceError> errors,
      List<RunItems.Collected> fresh,
      List<RunItems.Collected> setAside,
      List<String> remapped,
      Map<String, Instant> baselined,
      int recovered,
      List<RunRecord.FeedFound> feedsFound,
      Map<String, PageSnapshot> pages) {}

  /**
   * How a run runs: a real one tells the operator of its trouble and hands back its alert; a dry
   * one ({@link #trial}) does neither. {@code usageWatch}: the watch its model usage is kept for
   * (null: the account's alone).
   */
  private record Mode(boolean dry, String usageWatch) {}

  @Override
  public CompletionStage<Outcome> run(
      Watch watch, Memory memory, String trigger, Instant startedAt) {
    return run(watch, new Mode(false, watch.id()), memory, trigger, startedAt);
  }

  /**
   * A dry run of {@code watch}: collected and judged exactly as {@link #run} does, its model call
   * counted against the owner's quota and its usage kept, but the operator is told nothing and no
   * alert is made. The record it answers is the caller's to show, never recorded; nothing is marked
   * seen. An owner at its model-call quota fails it (with the {@link OverQuota}) instead of
   * recording an error.
   *
   * @param usageWatch the watch its model usage is kept for; null for a watch not saved
   */
  public CompletionStage<RunRecord> trial(Watch watch, Memory memory, String usageWatch) {
    return run(watch, new Mode(true, usageWatch), memory, RunRecord.TRIGGER_TEST, clock.instant())
        .thenApply(Outcome::record);
  }

  private CompletionStage<Outcome> run(
      Watch watch, Mode mode, Memory memory, String trigger, Instant startedAt) {
    return collect(watch, memory)
        .thenCompose(
            collected -> {
              // Items all seen (a feed that did not change) are no run's to judge: they are not
              // made into judged items, and the owner's trust rules, which rank those, are not
              // read.
              if (RunItems.allSeen(found(collected), memory.seen()))
                return judge(watch, mode, memory, trigger, startedAt, collected, null);
              return rulesOf(watch.owner())
                  .thenCompose(
                      trust -> judge(watch, mode, memory, trigger, startedAt, collected, trust));
            });
  }

  /**
   * The run once its sources are collected: what is fresh judged by the model, and the record.
   * {@code trust}: the owner's trust rules; null when every item found is seen.
   */
  private CompletionStage<Outcome> judge(
      Watch watch,
      Mode mode,
      Memory memory,
      String trigger,
      Instant startedAt,
      List<PageCollector.Collected> collected,
      TrustRules trust) {
    List<SourceResult> results = collected.stream().map(PageCollector.Collected::result).toList();
    Map<String, PageSnapshot> seenPages = new LinkedHashMap<>();
    for (int i = 0; i < collected.size(); i++) {
      PageSnapshot snapshot = collected.get(i).snapshot();
      if (snapshot != null) seenPages.put(watch.sources().get(i).key(), snapshot);
    }
    List<SourceError> errors =
        results.stream().map(SourceResult::error).filter(Objects::nonNull).toList();
    List<Item> found = found(collected);
    List<RunItems.Collected> items =
        trust == null ? List.of() : RunItems.of(found.stream().map(trust::applyTo).toList());
    int itemCount = trust == null ? RunItems.count(found) : items.size();
    Map<String, Instant> baselined = new LinkedHashMap<>();
    for (int i = 0; i < results.size(); i++) {
      String key = watch.sources().get(i).key();
      if (results.get(i).succeeded() && !memory.baselines().containsKey(key))
        baselined.put(key, memory.baselineAt());
    }
    Instant now = clock.instant();
    List<RunItems.Collected> fresh = new ArrayList<>();
    List<RunItems.Collected> setAside = new ArrayList<>();
    List<String> remapped = new ArrayList<>();
    for (RunItems.Collected item : items) {
      if (item.seenIn(memory.seen())) remapped.addAll(item.unrecordedIn(memory.seen()));
      else if (RunItems.oldNews(item.item(), watch, memory, now)) setAside.add(item);
      else fresh.add(item);
    }
    int recovered = results.stream().mapToInt(r -> r.recoveries().size()).sum();
    List<RunRecord.FeedFound> feedsFound = new ArrayList<>();
    for (int i = 0; i < results.size(); i++) {
      String feed = results.get(i).feedFound();
      if (feed != null)
        feedsFound.add(new RunRecord.FeedFound(watch.sources().get(i).value(), feed));
    }
    Progress run =
        new Progress(
            watch,
            mode,
            trigger,
            startedAt,
            items,
            itemCount,
            errors,
            fresh,
            setAside,
            remapped,
            baselined,
            recovered,
            feedsFound,
            seenPages);
    if (!results.isEmpty() && results.stream().noneMatch(SourceResult::succeeded)) {
      failed(run, AdminAlerts.Kind.ALL_SOURCES_FAILED, "every source failed: " + describe(errors));
      return done(
          run,
          record(
              run,
              RunRecord.ERROR,
              null,
              new RunRecord.Collection(0, 0, 0, 0, 0, feedsFound),
              null,
              List.of(),
              new RunRecord.Trimmed(0, 0),
              "every source failed",
              null,
              new Judged(List.of(), setAsideOf(run, List.of())),
              ModelUsage.NONE),
          List.of());
    }
    if (fresh.isEmpty()) {
      succeeded(run);
      return done(
          run,
          record(
              run,
              RunRecord.NOTHING_NEW,
              null,
              new RunRecord.Collection(0, itemCount, 0, 0, recovered, feedsFound),
              null,
              List.of(),
              new RunRecord.Trimmed(0, 0),
              null,
              null,
              new Judged(List.of(), setAsideOf(run, List.of())),
              ModelUsage.NONE),
          List.of());
    }
    // Only the items the verdict will judge have their pages fetched (newest first).
    return extractor
        .extractAll(
            judgeable(fresh).stream()
                .map(RunItems.Collected::item)
                .map(item -> extractable(item) ? item : item.withoutUrl())
                .toList(),
            EXTRACT_CONCURRENCY)
        .thenCompose(texts -> judgeAndAlert(run, texts));
  }

  /** Every source's items, in the watch's source order. */
  private static List<Item> found(List<PageCollector.Collected> collected) {
    return collected.stream().flatMap(c -> c.result().items().stream()).toList();
  }

  /**
   * The fresh items a verdict judges: the first {@link VerdictPrompt#MAX_ITEMS} (newest first). The
   * rest stay unseen, unfetched, for a later run (docs/model-protocol.md, "What is new").
   */
  static List<RunItems.Collected> judgeable(List<RunItems.Collected> fresh) {
    return fresh.subList(0, Math.min(VerdictPrompt.MAX_ITEMS, fresh.size()));
  }

  /**
   * Whether an item's page is fetched for its text: a page source's item is the change itself, its
   * text already what the model judges.
   */
  private static boolean extractable(Item item) {
    return item.url() != null && !PageCollector.SOURCE_TYPE.equals(item.sourceType());
  }

  /**
   * The owner's trust rules, read once per run; a run whose rules cannot be read goes on with none.
   */
  private CompletionStage<TrustRules> rulesOf(String accountId) {
    try {
      return trustRules.of(accountId).exceptionally(e -> withoutRules(accountId, e));
    } catch (RuntimeException e) {
      return CompletableFuture.completedFuture(withoutRules(accountId, e));
    }
  }

  /** The operator hears of a real run's trouble (throttled); of a dry run's, never. */
  private void failed(Progress run, AdminAlerts.Kind kind, String problem) {
    if (!run.mode().dry()) runAlerts.failed(kind, run.watch().owner(), run.watch().id(), problem);
  }

  private void succeeded(Progress run) {
    if (!run.mode().dry()) runAlerts.succeeded(run.watch().owner(), run.watch().id());
  }

  private static TrustRules withoutRules(String accountId, Throwable failure) {
    log.warn(
        "event=trust-rules-unavailable owner={} problem={}",
        accountId,
        Failures.unwrap(failure).getClass().getSimpleName());
    return TrustRules.NONE;
  }

  private CompletionStage<Outcome> judgeAndAlert(Progress run, List<Optional<String>> texts) {
    List<RunItems.Collected> judgeable = judgeable(run.fresh());
    int attempted = (int) judgeable.stream().filter(i -> extractable(i.item())).count();
    int extracted = (int) texts.stream().filter(Optional::isPresent).count();
    RunRecord.Collection collection =
        new RunRecord.Collection(
            attempted,
            run.itemCount(),
            extracted,
            attempted - extracted,
            run.recovered(),
            run.feedsFound());
    List<VerdictPrompt.Candidate> candidates = new ArrayList<>();
    for (int i = 0; i < run.fresh().size(); i++) {
      Item item = run.fresh().get(i).item();
      // A page that could not be extracted (or, past the judged ones, was not fetched) falls back
      // to the feed's own summary.
      Optional<String> page = i < texts.size() ? texts.get(i) : Optional.empty();
      String text = page.orElse(item.summary() == null ? "" : item.summary());
      candidates.add(
          new VerdictPrompt.Candidate(
              item.url(),
              item.title(),
              item.published() == null ? null : item.published().toString(),
              item.trust(),
              text));
    }
    VerdictPrompt prompt = VerdictPrompt.build(run.watch().condition(), candidates);
    RunRecord.Trimmed trimmed =
        new RunRecord.Trimmed(prompt.trimming().itemsDropped(), prompt.trimming().textsCut());
    List<String> consulted = new java.util.concurrent.CopyOnWriteArrayList<>();
    Consumer<ModelUsage> recorded = usage.recorder(run.watch().owner(), run.mode().usageWatch());
    AtomicReference<ModelUsage> spent = new AtomicReference<>(ModelUsage.NONE);
    return meter
        .use(run.watch().owner())
        .thenCompose(
            counted ->
                model.ask(
                    prompt.prompt(),
                    prompt::parse,
                    consulted::add,
                    used -> {
                      spent.accumulateAndGet(used, ModelUsage::plus);
                      recorded.accept(used);
                    }))
        .handle(
            (answer, failure) -> {
              List<RunItems.Collected> listed = run.fresh().subList(0, prompt.judged().size());
              if (failure != null) {
                Throwable cause = Failures.unwrap(failure);
                // a dry run past the quota is refused, as any model call is
                if (cause instanceof OverQuota && run.mode().dry())
                  return CompletableFuture.<Outcome>failedFuture(cause);
                // an owner at its model-call quota is no failure of the service to alert about
                if (!(cause instanceof OverQuota))
                  failed(
                      run,
                      cause instanceof InvalidModelOutput || cause instanceof ProviderFailure
                          ? AdminAlerts.Kind.VERDICT_UNAVAILABLE
                          : AdminAlerts.Kind.WATCH_ERRORED,
                      problem(cause));
                return done(
                    run,
                    record(
                        run,
                        RunRecord.ERROR,
                        null,
                        collection,
                        null,
                        // no model was asked when no key was usable
                        cause instanceof KeyPools.NoUsableKey ? List.of() : List.copyOf(consulted),
                        trimmed,
                        problem(cause),
                        null,
                        judged(run, prompt, listed, Set.of()),
                        spent.get()),
                    List.<String>of());
              }
              succeeded(run);
              Verdict verdict = answer.value();
              String tier =
                  AlertRule.corroboratingTier(
                      verdict.evidence(),
                      run.items().stream().map(RunItems.Collected::item).toList());
              AlertRule.Decision decision = AlertRule.decide(run.watch(), verdict, tier);
              // The prompt lists the first fresh items: exactly those were judged.
              List<String> newlySeen = listed.stream().flatMap(c -> c.keys().stream()).toList();
              RunRecord record =
                  record(
                      run,
                      decision.outcome(),
                      verdict,
                      collection,
                      tier,
                      List.of(answer.model()),
                      trimmed,
                      null,
                      decision.rule(),
                      judged(
                          run,
                          prompt,
                          listed,
                          verdict.evidence().stream()
                              .map(Verdict.Evidence::url)
                              .collect(Collectors.toSet())),
                      answer.usage());
              List<String> channels = run.watch().channels().stream().distinct().toList();
              if (run.mode().dry()
                  || decision.outcome().equals(RunRecord.NO_MATCH)
                  || channels.isEmpty()) return done(run, record, newlySeen);
              Alert alert = alert(run.watch(), decision.outcome(), verdict, record.runId());
              return CompletableFuture.completedFuture(
                  outcome(run, record, newlySeen, new PendingAlert(channels, alert)));
            })
        .thenCompose(stage -> stage);
  }

  /**
   * What the run put before the model ({@code listed}, the fresh items {@code prompt} lists, whose
   * URLs in {@code cited} the verdict cites) and what it set aside.
   */
  private static Judged judged(
      Progress run, VerdictPrompt prompt, List<RunItems.Collected> listed, Set<String> cited) {
    return new Judged(
        Judged.listed(
            prompt,
            listed.stream()
                .map(
                    c ->
                        new Judged.Origin(
                            c.key(),
                            c.item().sourceType() + ":" + c.item().sourceValue(),
                            c.item().published()))
                .toList(),
            cited),
        setAsideOf(run, run.fresh().subList(listed.size(), run.fresh().size())));
  }

  /**
   * The items set aside as old news, then the fresh ones {@code pastBound}, by key: the first
   * {@link Judged#MAX_SET_ASIDE} (the record counts them all in {@code setAside} and {@code
   * fresh}).
   */
  private static List<Judged.SetAside> setAsideOf(
      Progress run, List<RunItems.Collected> pastBound) {
    List<Judged.SetAside> all = new ArrayList<>();
    run.setAside().forEach(c -> all.add(new Judged.SetAside(c.key(), Judged.OLD_NEWS)));
    pastBound.forEach(c -> all.add(new Judged.SetAside(c.key(), Judged.PAST_BOUND)));
    return all.subList(0, Math.min(all.size(), Judged.MAX_SET_ASIDE));
  }

  /** The keys of the judged items, the ones set aside as old news and the remapped ones. */
  private static List<String> seenNow(Progress run, List<String> judged) {
    List<String> all = new ArrayList<>(run.remapped());
    run.setAside().forEach(c -> all.addAll(c.keys()));
    all.addAll(judged);
    return all;
  }

  /** Each source's result in the watch's order; a page source's with what was seen of it. */
  private CompletionStage<List<PageCollector.Collected>> collect(Watch watch, Memory memory) {
    List<CompletableFuture<PageCollector.Collected>> each =
        watch.sources().stream()
            .map(source -> collect(source, memory).toCompletableFuture())
            .toList();
    return CompletableFuture.allOf(each.toArray(CompletableFuture[]::new))
        .thenApply(all -> each.stream().map(CompletableFuture::join).toList());
  }

  private CompletionStage<PageCollector.Collected> collect(WatchSource source, Memory memory) {
    if (WatchSource.PAGE.equals(source.type()))
      return pages.collect(
          source.value(),
          source.selector(),
          source.ignoreSelectors(),
          source.trust(),
          memory.pages().get(source.key()));
    return collect(source).thenApply(result -> new PageCollector.Collected(result, null));
  }

  private CompletionStage<SourceResult> collect(WatchSource source) {
    if (WatchSource.RSS.equals(source.type())) return feeds.collect(source.value(), source.trust());
    if (search.isEmpty()) {
      return CompletableFuture.completedFuture(
          SourceResult.failed(source.value(), new KeyPools.NoUsableKey("search")));
    }
    return keyPools
        .withKey(
            KeyPoolEntity.SEARCH,
            key -> search.get().search(source.value(), source.recencyDays(), SEARCH_RESULTS, key))
        .thenApply(
            found -> SourceResult.ok(found.stream().map(i -> i.withTrust(source.trust())).toList()))
        .exceptionally(e -> SourceResult.failed(source.value(), Failures.unwrap(e)));
  }

  /** The alert of run {@code runId}, whose id it takes. */
  private Alert alert(Watch watch, String outcome, Verdict verdict, String runId) {
    return new Alert(
        watch.owner(),
        watch.id(),
        watch.name(),
        outcome.equals(RunRecord.ALERT) ? Alert.Strength.CONFIRMED : Alert.Strength.WEAK,
        verdict.confidence(),
        verdict.summary(),
        verdict.evidence().stream().map(e -> new Alert.Evidence(e.title(), e.url())).toList(),
        watch.condition(),
        clock.instant(),
        runId);
  }

  /** An outcome with no alert to send; the items set aside as old news are seen in any case. */
  private CompletionStage<Outcome> done(Progress run, RunRecord record, List<String> judged) {
    return CompletableFuture.completedFuture(outcome(run, record, judged, null));
  }

  private static Outcome outcome(
      Progress run, RunRecord record, List<String> judged, PendingAlert alert) {
    List<String> seen = seenNow(run, judged);
    return new Outcome(record, seen, alert, run.baselined(), pagesNow(run, seen));
  }

  /**
   * What was seen of the pages whose changes are all judged or set aside: a page with a change left
   * unjudged (a failed verdict, past the item bound) keeps its old snapshot, so the change is found
   * again by the next run.
   */
  private static Map<String, PageSnapshot> pagesNow(Progress run, List<String> seenNow) {
    Set<String> seen = new HashSet<>(seenNow);
    Map<String, PageSnapshot> kept = new LinkedHashMap<>(run.pages());
    for (RunItems.Collected c : run.fresh())
      if (!seen.contains(c.key()))
        kept.remove(c.item().sourceType() + ":" + c.item().sourceValue());
    return kept;
  }

  /** The record as the run leaves it: deliveries, if any, are added once the alert went out. */
  private RunRecord record(
      Progress run,
      String outcome,
      Verdict verdict,
      RunRecord.Collection collection,
      String trustTier,
      List<String> models,
      RunRecord.Trimmed trimmed,
      String error,
      String decision,
      Judged judged,
      ModelUsage usage) {
    return new RunRecord(
        RunRecords.newRunId(),
        run.trigger(),
        run.startedAt(),
        Duration.between(run.startedAt(), clock.instant()).toMillis(),
        outcome,
        verdict == null ? null : verdict.summary(),
        verdict == null ? null : verdict.confidence(),
        verdict == null
            ? List.of()
            : verdict.evidence().stream()
                .map(e -> new RunRecord.Evidence(e.url(), e.title(), e.quote()))
                .toList(),
        verdict == null ? null : verdict.reasoning(),
        run.errors(),
        run.itemCount(),
        run.fresh().size(),
        collection,
        models,
        trustTier,
        List.of(),
        0,
        trimmed,
        error,
        run.setAside().size(),
        decision,
        judged,
        usage);
  }

  /** What a failed verdict means, for a person. */
  public static String problem(Throwable cause) {
    if (cause instanceof KeyPools.NoUsableKey) return "no usable model key is configured";
    if (cause instanceof InvalidModelOutput)
      return "the model did not produce a valid verdict, twice";
    if (cause instanceof ProviderFailure pf) return "the model call failed: " + pf.getMessage();
    if (cause instanceof OverQuota q) return "skipped, no model call: " + q.getMessage();
    return "the verdict failed (" + cause.getClass().getSimpleName() + ")";
  }

  private static String describe(List<SourceError> errors) {
    return errors.stream()
        .map(e -> e.kind() + (e.httpStatus() != null ? " " + e.httpStatus() : ""))
        .reduce((a, b) -> a + ", " + b)
        .orElse("no source");
  }
}
