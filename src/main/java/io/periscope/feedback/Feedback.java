package io.periscope.feedback;

import io.periscope.entity.JsonSerializable;
import io.periscope.watch.RunRecord;
import java.time.Instant;
import java.util.List;

/**
 * An owner's judgement of one run of a watch: {@code useful} (the run got it right), {@code wrong}
 * (it alerted, or judged, wrongly) or {@code missed} (it failed to alert on something it should
 * have), with an optional note. {@code run} is what the run said, as it was when the feedback was
 * given (run records never change), so the feedback stays readable — for the owner and for a
 * revision prompt — when the run is long out of recent history.
 *
 * @param note null when none was given
 * @param at when the feedback was given (or last replaced)
 */
public record Feedback(String runId, String kind, String note, Instant at, RunSummary run)
    implements JsonSerializable {
  public static final String USEFUL = "useful";
  public static final String WRONG = "wrong";
  public static final String MISSED = "missed";
  public static final List<String> KINDS = List.of(USEFUL, WRONG, MISSED);

  /** Characters of the run's summary kept with the feedback. */
  static final int MAX_SUMMARY = 500;

  /**
   * What the run concluded. {@code summary} and {@code confidence} are null when the run had no
   * verdict.
   */
  public record RunSummary(Instant startedAt, String outcome, String summary, Double confidence)
      implements JsonSerializable {

    public static RunSummary of(RunRecord record) {
      String summary =
          record.summary() == null || record.summary().length() <= MAX_SUMMARY
              ? record.summary()
              : record.summary().substring(0, MAX_SUMMARY - 1) + "…";
      return new RunSummary(record.startedAt(), record.outcome(), summary, record.confidence());
    }
  }
}
