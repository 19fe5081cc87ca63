package io.periscope.backtest;

import io.periscope.entity.JsonSerializable;
import io.periscope.feedback.Feedback;
import io.periscope.llm.ModelUsage;
import io.periscope.watch.RunRecord;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * A candidate judgement (condition, threshold, weakThreshold) tried on a watch's past runs: each
 * run's recorded outcome beside the candidate's, a summary weighed against the owner's feedback on
 * those runs, and what the model calls took.
 */
public record Backtest(List<Replay> runs, Summary summary, ModelUsage usage)
    implements JsonSerializable {
  /** The run's items were judged again under the candidate. */
  public static final String REPLAYED = "replayed";

  /** The run was recorded before runs kept what they judged: nothing to judge again. */
  public static final String NOT_REPLAYABLE = "not-replayable";

  /** The model gave no verdict for the run (the error says why); the run counts as unchanged. */
  public static final String FAILED = "failed";

  /** The outcomes that alert someone. */
  static final Set<String> ALERTING = Set.of(RunRecord.ALERT, RunRecord.WEAK_ALERT);

  /**
   * What a judgement concluded: outcome, confidence, the model's summary, the rule that decided.
   */
  public record Judgement(String outcome, Double confidence, String summary, String decision)
      implements JsonSerializable {
    static Judgement recorded(RunRecord run) {
      return new Judgement(run.outcome(), run.confidence(), run.summary(), run.decision());
    }

    boolean alerts() {
      return ALERTING.contains(outcome);
    }
  }

  /**
   * One past run: {@code candidate} is null unless {@code status} is {@link #REPLAYED}; {@code
   * feedback} the kind the owner gave the run, if any; {@code evidence} the URLs the candidate's
   * verdict cites.
   */
  public record Replay(
      String runId,
      Instant startedAt,
      String status,
      Judgement recorded,
      Judgement candidate,
      boolean changed,
      List<String> evidence,
      String feedback,
      String error)
      implements JsonSerializable {
    static Replay notReplayable(RunRecord run, String feedback) {
      return new Replay(
          run.runId(),
          run.startedAt(),
          NOT_REPLAYABLE,
          Judgement.recorded(run),
          null,
          false,
          List.of(),
          feedback,
          null);
    }

    static Replay failed(RunRecord run, String feedback, String error) {
      return new Replay(
          run.runId(),
          run.startedAt(),
          FAILED,
          Judgement.recorded(run),
          null,
          false,
          List.of(),
          feedback,
          error);
    }

    static Replay replayed(
        RunRecord run, Judgement candidate, List<String> evidence, String feedback) {
      return new Replay(
          run.runId(),
          run.startedAt(),
          REPLAYED,
          Judgement.recorded(run),
          candidate,
          !candidate.outcome().equals(run.outcome()),
          evidence,
          feedback,
          null);
    }

    /** Replayed and the candidate alerts where the run did not, or the other way round. */
    boolean alertFlips() {
      return candidate != null && candidate.alerts() != recorded.alerts();
    }
  }

  /**
   * {@code runs} listed, of which {@code replayed}, {@code notReplayable}, {@code failed}; {@code
   * changed} replayed runs whose outcome differs; {@code alertsRecorded} and {@code
   * alertsCandidate} the replayed runs that alerted and would alert; and against the feedback:
   * {@code usefulLost} runs marked useful that would no longer alert, {@code wrongAlerting} runs
   * marked wrong that would alert (still or now), {@code missedFound} runs marked missed that now
   * would.
   */
  public record Summary(
      int runs,
      int replayed,
      int notReplayable,
      int failed,
      int changed,
      int alertsRecorded,
      int alertsCandidate,
      int usefulLost,
      int wrongAlerting,
      int missedFound)
      implements JsonSerializable {
    static Summary of(List<Replay> runs) {
      List<Replay> replayed = runs.stream().filter(r -> r.candidate() != null).toList();
      return new Summary(
          runs.size(),
          replayed.size(),
          count(runs, r -> r.status().equals(NOT_REPLAYABLE)),
          count(runs, r -> r.status().equals(FAILED)),
          count(replayed, Replay::changed),
          count(replayed, r -> r.recorded().alerts()),
          count(replayed, r -> r.candidate().alerts()),
          count(
              replayed,
              r ->
                  Feedback.USEFUL.equals(r.feedback())
                      && r.alertFlips()
                      && !r.candidate().alerts()),
          count(replayed, r -> Feedback.WRONG.equals(r.feedback()) && r.candidate().alerts()),
          count(
              replayed,
              r ->
                  Feedback.MISSED.equals(r.feedback())
                      && r.alertFlips()
                      && r.candidate().alerts()));
    }

    private static int count(List<Replay> runs, java.util.function.Predicate<Replay> which) {
      return (int) runs.stream().filter(which).count();
    }
  }

  static Backtest of(List<Replay> runs, ModelUsage usage) {
    return new Backtest(List.copyOf(runs), Summary.of(runs), usage);
  }
}
