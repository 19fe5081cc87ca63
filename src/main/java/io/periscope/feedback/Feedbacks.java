package io.periscope.feedback;

import io.periscope.entity.Asks;
import io.periscope.watch.RunRecord;
import io.periscope.watch.WatchEntity;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.Done;

/**
 * Feedback as the rest of the service uses it: the routes give, read and withdraw it; a revision of
 * a watch reads {@link #newest} — the most recent judgements of its runs, each with what the run
 * concluded — to learn what the owner thought of the watch's results. A refusal ({@link
 * io.periscope.entity.EntityRefusal}) says what is absent.
 */
public final class Feedbacks {
  private final WatchEntity.Refs watches;
  private final FeedbackEntity.Refs feedback;
  private final Asks asks;
  private final Clock clock;

  public Feedbacks(WatchEntity.Refs watches, FeedbackEntity.Refs feedback, Asks asks, Clock clock) {
    this.watches = watches;
    this.feedback = feedback;
    this.asks = asks;
    this.clock = clock;
  }

  /**
   * Records the owner's judgement of one of the watch's {@link WatchEntity#RECENT_RUNS} newest
   * runs, replacing an earlier one on that run. Refused when the watch does not exist (now) or the
   * run is not among them.
   */
  public CompletionStage<Feedback> give(
      String owner, String watchId, String runId, FeedbackValidator.Judgement judgement) {
    return asks.<WatchEntity.Command, RunRecord>ask(
            watches.watch(owner, watchId), r -> new WatchEntity.GetRun(runId, r))
        .thenCompose(
            run ->
                asks.<FeedbackEntity.Command, Feedback>ask(
                    feedback.feedback(owner, watchId),
                    r ->
                        new FeedbackEntity.Give(
                            new Feedback(
                                runId,
                                judgement.kind(),
                                judgement.note(),
                                clock.instant(),
                                Feedback.RunSummary.of(run)),
                            r)));
  }

  /**
   * The {@code limit} most recently given feedback records of the watch (at most {@link
   * FeedbackEntity#KEPT}).
   */
  public CompletionStage<List<Feedback>> newest(String owner, String watchId, int limit) {
    return asks.<FeedbackEntity.Command, FeedbackEntity.FeedbackList>ask(
            feedback.feedback(owner, watchId), r -> new FeedbackEntity.GetFeedback(limit, r))
        .thenApply(FeedbackEntity.FeedbackList::feedback);
  }

  /** Refused when the run has no feedback. */
  public CompletionStage<Done> withdraw(String owner, String watchId, String runId) {
    return asks.ask(feedback.feedback(owner, watchId), r -> new FeedbackEntity.Withdraw(runId, r));
  }
}
