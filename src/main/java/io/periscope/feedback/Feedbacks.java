package io.periscope.feedback;

import io.periscope.entity.Asks;
import io.periscope.json.Issue;
import io.periscope.json.ValidationException;
import io.periscope.llm.Judged;
import io.periscope.llm.JudgedItem;
import io.periscope.watch.RunPages;
import io.periscope.watch.RunRecord;
import io.periscope.watch.WatchEntity;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.pekko.Done;

/**
 * Feedback as the rest of the service uses it: the routes give, read and withdraw it; a revision of
 * a watch reads {@link #newest} — the most recent judgements of its runs, each with what the run
 * concluded — to learn what the owner thought of the watch's results; {@link #onRun} answers one
 * run's. A refusal ({@link io.periscope.entity.EntityRefusal}) says what is absent.
 */
public final class Feedbacks {
  private final WatchEntity.Refs watches;
  private final FeedbackEntity.Refs feedback;
  private final RunPages runs;
  private final Asks asks;
  private final Clock clock;

  public Feedbacks(
      WatchEntity.Refs watches,
      FeedbackEntity.Refs feedback,
      RunPages runs,
      Asks asks,
      Clock clock) {
    this.watches = watches;
    this.feedback = feedback;
    this.runs = runs;
    this.asks = asks;
    this.clock = clock;
  }

  /**
   * Records the owner's judgement of one of the watch's {@link WatchEntity#RECENT_RUNS} newest
   * runs, replacing an earlier one on that run. Refused when the watch does not exist (now) or the
   * run is not among them; fails with a {@link ValidationException} when the judgement names an
   * item the run did not judge.
   */
  public CompletionStage<Feedback> give(
      String accountId, String watchId, String runId, FeedbackValidator.Judgement judgement) {
    return asks.<WatchEntity.Command, RunRecord>ask(
            watches.watch(accountId, watchId), r -> new WatchEntity.GetRun(runId, r))
        .thenCompose(
            run ->
                judgement.keys().isEmpty()
                    ? CompletableFuture.completedFuture(run)
                    : runs.whole(accountId, watchId, runId))
        .thenCompose(
            run -> {
              Feedback given = feedback(runId, judgement, run);
              return asks.<FeedbackEntity.Command, Feedback>ask(
                  feedback.feedback(accountId, watchId), r -> new FeedbackEntity.Give(given, r));
            });
  }

  /**
   * The feedback {@code judgement} gives on {@code run}, its items named as the run judged them.
   */
  private Feedback feedback(String runId, FeedbackValidator.Judgement judgement, RunRecord run) {
    Map<String, JudgedItem> judged =
        (run.judged() == null ? new Judged(null, null) : run.judged())
            .items().stream()
                .collect(Collectors.toMap(JudgedItem::key, Function.identity(), (a, b) -> a));
    List<Issue> issues = new ArrayList<>();
    for (int i = 0; i < judgement.items().size(); i++)
      if (!judged.containsKey(judgement.items().get(i).key()))
        issues.add(Issue.at("is not an item this run judged", "items", i, "key"));
    FeedbackValidator.Missed missed = judgement.missed();
    if (missed != null && missed.key() != null && !judged.containsKey(missed.key()))
      issues.add(Issue.at("is not an item this run judged", "missed", "key"));
    if (!issues.isEmpty()) throw new ValidationException(issues);
    boolean alerted = Feedback.alerting(run.outcome());
    List<Feedback.ItemLabel> labels =
        judgement.items().stream()
            .map(
                m -> {
                  JudgedItem item = judged.get(m.key());
                  return new Feedback.ItemLabel(
                      m.key(), m.label(), item.title(), item.url(), alerted && item.cited());
                })
            .toList();
    Feedback.MissedItem missedItem =
        missed == null
            ? null
            : missed.key() == null
                ? new Feedback.MissedItem(null, missed.url(), null)
                : new Feedback.MissedItem(
                    missed.key(), judged.get(missed.key()).url(), judged.get(missed.key()).title());
    return new Feedback(
        runId,
        judgement.kind(),
        judgement.note(),
        clock.instant(),
        Feedback.RunSummary.of(run),
        labels,
        missedItem);
  }

  /** The feedback given on the run {@code runId}, if any. */
  public CompletionStage<Optional<Feedback>> onRun(String accountId, String watchId, String runId) {
    return newest(accountId, watchId, FeedbackEntity.KEPT)
        .thenApply(list -> list.stream().filter(f -> f.runId().equals(runId)).findFirst());
  }

  /**
   * The {@code limit} most recently given feedback records of the watch (at most {@link
   * FeedbackEntity#KEPT}).
   */
  public CompletionStage<List<Feedback>> newest(String accountId, String watchId, int limit) {
    return asks.<FeedbackEntity.Command, FeedbackEntity.FeedbackList>ask(
            feedback.feedback(accountId, watchId), r -> new FeedbackEntity.GetFeedback(limit, r))
        .thenApply(FeedbackEntity.FeedbackList::feedback);
  }

  /**
   * How often the watch was right, over each of {@link Quality#WINDOWS}, from the feedback at hand
   * (the {@link FeedbackEntity#KEPT} most recently given).
   */
  public CompletionStage<List<Quality>> quality(String accountId, String watchId) {
    return newest(accountId, watchId, FeedbackEntity.KEPT)
        .thenApply(given -> Quality.windows(given, clock.instant()));
  }

  /** Refused when the run has no feedback. */
  public CompletionStage<Done> withdraw(String accountId, String watchId, String runId) {
    return asks.ask(
        feedback.feedback(accountId, watchId), r -> new FeedbackEntity.Withdraw(runId, r));
  }
}
