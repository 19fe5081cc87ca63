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
 * revision prompt — when the run is long out of recent history. For the same reason the items it
 * names keep their title and URL.
 *
 * @param note null when none was given
 * @param at when the feedback was given (or last replaced)
 * @param items the run's judged items the owner marked {@code relevant} or {@code irrelevant};
 *     empty in feedback given before items could be marked
 * @param missedItem with {@code missed}: what should have alerted, when the owner said; else null
 */
public record Feedback(
    String runId,
    String kind,
    String note,
    Instant at,
    RunSummary run,
    List<ItemLabel> items,
    MissedItem missedItem)
    implements JsonSerializable {
  public static final String USEFUL = "useful";
  public static final String WRONG = "wrong";
  public static final String MISSED = "missed";
  public static final List<String> KINDS = List.of(USEFUL, WRONG, MISSED);

  public static final String RELEVANT = "relevant";
  public static final String IRRELEVANT = "irrelevant";
  public static final List<String> LABELS = List.of(RELEVANT, IRRELEVANT);

  public Feedback {
    items = items == null ? List.of() : List.copyOf(items);
  }

  /** Feedback on the run as a whole, naming no item. */
  public Feedback(String runId, String kind, String note, Instant at, RunSummary run) {
    this(runId, kind, note, at, run, List.of(), null);
  }

  /** Whether the run alerted: an alert or a weak alert went out. */
  public boolean alerted() {
    return run != null && alerting(run.outcome());
  }

  static boolean alerting(String outcome) {
    return RunRecord.ALERT.equals(outcome) || RunRecord.WEAK_ALERT.equals(outcome);
  }

  /**
   * A judged item of the run and the owner's label for it, {@link #RELEVANT} or {@link
   * #IRRELEVANT}; {@code alerted}: the run alerted citing it.
   */
  public record ItemLabel(String key, String label, String title, String url, boolean alerted)
      implements JsonSerializable {}

  /**
   * What should have alerted: one of the run's judged items ({@code key}, with its title and URL)
   * or, for an item the run never judged, its {@code url} alone.
   */
  public record MissedItem(String key, String url, String title) implements JsonSerializable {}

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
