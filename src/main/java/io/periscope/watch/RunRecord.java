package io.periscope.watch;

import io.periscope.entity.JsonSerializable;
import io.periscope.source.SourceError;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * One run of a watch, whatever its outcome, as the journal keeps it and the interface shows it.
 *
 * <p>Outcomes: {@code nothing-new} (no fresh item; no model call), {@code no-match} (judged,
 * condition not met strongly enough), {@code weak-alert} (met with weakThreshold ≤ confidence <
 * threshold; an unconfirmed alert was sent), {@code alert} (met with confidence ≥ threshold; an
 * alert was sent), {@code error} (no verdict could be had — model unavailable, not configured or
 * answering nonsense — or every source failed; the fresh items stay unseen so the next run judges
 * them).
 *
 * <p>{@code setAside} counts the items recorded as seen without being judged because they are old
 * news (see docs/model-protocol.md, "What is new"); {@code decision} says which alert rule decided
 * the outcome of a judged run (see "Evidence and trust" there).
 */
public record RunRecord(
    String runId,
    String trigger,
    Instant startedAt,
    long durationMs,
    String outcome,
    String summary,
    Double confidence,
    List<Evidence> evidence,
    String reasoning,
    List<SourceError> sourceErrors,
    int collected,
    int fresh,
    Collection collection,
    List<String> models,
    String trustTier,
    List<DeliveryRecord> deliveries,
    int notificationsSent,
    Trimmed trimmed,
    String error,
    int setAside,
    String decision)
    implements JsonSerializable {

  public static final String NOTHING_NEW = "nothing-new";
  public static final String NO_MATCH = "no-match";
  public static final String WEAK_ALERT = "weak-alert";
  public static final String ALERT = "alert";
  public static final String ERROR = "error";

  /** Every outcome a run can have, as above. */
  public static final Set<String> OUTCOMES =
      Set.of(NOTHING_NEW, NO_MATCH, WEAK_ALERT, ALERT, ERROR);

  /**
   * What started a run: run-now (HTTP), run-all (HTTP or the command line's {@code run}), or the
   * schedule.
   */
  public static final String TRIGGER_MANUAL = "manual";

  public static final String TRIGGER_RUN_ALL = "run-all";
  public static final String TRIGGER_SCHEDULE = "schedule";

  /** An item the verdict cites. */
  public record Evidence(String url, String title, String quote) implements JsonSerializable {}

  /**
   * {@code attempted}, {@code extracted} and {@code failed} count article-page fetches of fresh
   * items; {@code recovered} counts the faults the run's feeds were read past (an encoding, control
   * characters, broken markup, undeclared prefixes, a missing end, the element budget: one each a
   * feed), 0 in records from before it was counted.
   */
  public record Collection(int attempted, int collected, int extracted, int failed, int recovered)
      implements JsonSerializable {
    public Collection(int attempted, int collected, int extracted, int failed) {
      this(attempted, collected, extracted, failed, 0);
    }
  }

  /** What the model was not shown: items beyond the bound, and texts cut to the per-item bound. */
  public record Trimmed(int itemsDropped, int textsCut) implements JsonSerializable {}

  /**
   * One channel's delivery of the run's alert; for {@code push}, one device's ({@code device} is
   * its id).
   */
  public record DeliveryRecord(String channel, String device, boolean ok, String error)
      implements JsonSerializable {}

  /** This run once its alert went out (or was cut short) to {@code sent}. */
  public RunRecord withDeliveries(List<DeliveryRecord> sent, long totalMs) {
    return new RunRecord(
        runId,
        trigger,
        startedAt,
        totalMs,
        outcome,
        summary,
        confidence,
        evidence,
        reasoning,
        sourceErrors,
        collected,
        fresh,
        collection,
        models,
        trustTier,
        List.copyOf(sent),
        (int) sent.stream().filter(DeliveryRecord::ok).count(),
        trimmed,
        error,
        setAside,
        decision);
  }
}
