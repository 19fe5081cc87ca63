package io.periscope.backtest;

import io.periscope.entity.Failures;
import io.periscope.entity.OverQuota;
import io.periscope.feedback.FeedbackEntity;
import io.periscope.feedback.Feedbacks;
import io.periscope.llm.JudgedItem;
import io.periscope.llm.ModelCallMeter;
import io.periscope.llm.ModelUsage;
import io.periscope.llm.PooledModel;
import io.periscope.llm.UsageRecorder;
import io.periscope.llm.Verdict;
import io.periscope.llm.VerdictPrompt;
import io.periscope.run.AlertRule;
import io.periscope.run.Pipeline;
import io.periscope.watch.RunPages;
import io.periscope.watch.RunRecord;
import io.periscope.watch.Watch;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.stream.javadsl.Sink;
import org.apache.pekko.stream.javadsl.Source;

/**
 * Backtests a candidate judgement of a watch: the items each of its last verdict runs judged (as
 * the journal keeps them) are put before the verdicts' model again under the candidate's condition,
 * one call per run with the prompt a run builds, and decided by the candidate's thresholds and the
 * run's alert rule. Each call counts against the owner's model calls and is kept in its usage, for
 * the watch; an owner past a quota stops the backtest there.
 */
public final class Backtester {
  public static final int DEFAULT_RUNS = 20;
  public static final int MAX_RUNS = 100;

  /** Runs judged again at once. */
  static final int AT_ONCE = 4;

  /** What a backtest reports while it goes; called from any thread. */
  public interface Progress {
    /** The backtest found {@code total} runs to try. */
    void listed(int total);

    /** One run was tried (replayed, not replayable or failed). */
    void tried(Backtest.Replay run);

    Progress NONE =
        new Progress() {
          @Override
          public void listed(int total) {}

          @Override
          public void tried(Backtest.Replay run) {}
        };
  }

  private final ActorSystem<?> system;
  private final RunPages history;
  private final Feedbacks feedbacks;
  private final PooledModel model;
  private final ModelCallMeter meter;
  private final UsageRecorder usage;

  /**
   * @param model the model verdicts are asked of
   * @param meter counts each call against its owner's model calls of the day
   * @param usage keeps what each call took, for its owner and watch
   */
  public Backtester(
      ActorSystem<?> system,
      RunPages history,
      Feedbacks feedbacks,
      PooledModel model,
      ModelCallMeter meter,
      UsageRecorder usage) {
    this.system = system;
    this.history = history;
    this.feedbacks = feedbacks;
    this.model = model;
    this.meter = meter;
    this.usage = usage;
  }

  /**
   * {@code candidate} (the watch judging by the condition and thresholds to try) on the watch's
   * newest {@code runs} verdict runs, newest first. Fails with {@link OverQuota} when the owner
   * reaches a quota.
   */
  public CompletionStage<Backtest> run(Watch candidate, int runs, Progress progress) {
    String accountId = candidate.owner();
    String watchId = candidate.id();
    Consumer<ModelUsage> recorder = usage.recorder(accountId, watchId);
    AtomicReference<ModelUsage> spent = new AtomicReference<>(ModelUsage.NONE);
    Consumer<ModelUsage> used =
        call -> {
          spent.accumulateAndGet(call, ModelUsage::plus);
          recorder.accept(call);
        };
    return history
        .judgedRuns(accountId, watchId, runs)
        .thenCombine(
            feedbacks.newest(accountId, watchId, FeedbackEntity.KEPT),
            (records, given) -> {
              Map<String, String> kinds = new HashMap<>();
              given.forEach(f -> kinds.putIfAbsent(f.runId(), f.kind()));
              progress.listed(records.size());
              return Source.from(records)
                  .mapAsync(AT_ONCE, run -> replay(candidate, run, kinds.get(run.runId()), used))
                  .map(
                      tried -> {
                        progress.tried(tried);
                        return tried;
                      })
                  .runWith(Sink.seq(), system);
            })
        .thenCompose(tried -> tried)
        .thenApply(tried -> Backtest.of(tried, spent.get()));
  }

  private CompletionStage<Backtest.Replay> replay(
      Watch candidate, RunRecord run, String feedback, Consumer<ModelUsage> used) {
    if (run.judged() == null || run.judged().items().isEmpty())
      return CompletableFuture.completedFuture(Backtest.Replay.notReplayable(run, feedback));
    List<JudgedItem> items = run.judged().items();
    VerdictPrompt prompt =
        VerdictPrompt.build(
            candidate.condition(),
            items.stream()
                .map(
                    i ->
                        new VerdictPrompt.Candidate(
                            i.url(),
                            i.title(),
                            i.published() == null ? null : i.published().toString(),
                            i.trust(),
                            i.excerpt()))
                .toList());
    return meter
        .use(candidate.owner())
        .thenCompose(counted -> model.ask(prompt.prompt(), prompt::parse, consulted -> {}, used))
        .handle(
            (answer, failure) -> {
              if (failure != null) {
                Throwable cause = Failures.unwrap(failure);
                if (cause instanceof OverQuota) return Failures.<Backtest.Replay>rethrow(cause);
                return Backtest.Replay.failed(run, feedback, Pipeline.problem(cause));
              }
              Verdict verdict = answer.value();
              Map<String, String> trustByUrl = new HashMap<>();
              items.forEach(
                  i -> {
                    if (i.url() != null && i.trust() != null)
                      trustByUrl.putIfAbsent(i.url(), i.trust());
                  });
              AlertRule.Decision decision =
                  AlertRule.decide(
                      candidate,
                      verdict,
                      AlertRule.corroboratingTier(verdict.evidence(), trustByUrl));
              return Backtest.Replay.replayed(
                  run,
                  new Backtest.Judgement(
                      decision.outcome(), verdict.confidence(), verdict.summary(), decision.rule()),
                  verdict.evidence().stream()
                      .map(Verdict.Evidence::url)
                      .collect(Collectors.toList()),
                  feedback);
            });
  }
}
