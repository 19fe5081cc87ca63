package io.periscope.watch;

import io.periscope.entity.JsonSerializable;
import io.periscope.llm.Judged;
import io.periscope.llm.ModelUsage;
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
 *
 * <p>{@code judged}: the items put before the model and the ones set aside (docs/runs.md, "What was
 * judged"); {@code usage}: what the run's model calls took. Both are null in records written before
 * they were kept; the watch keeps {@code judged} in its journal only ({@link #lean}).
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
    String decision,
    Judged judged,
    ModelUsage usage)
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

  /** A dry run's: its record is answered, never kept. */
  public static final String TRIGGER_TEST = "test";

  /** An item the verdict cites. */
  public record Evidence(String url, String title, String quote) implements JsonSerializable {}

  /**
   * {@code attempted}, {@code extracted} and {@code failed} count article-page fetches of fresh
   * items; {@code recovered} counts the faults the run's feeds were read past (an encoding, control
   * characters, broken markup, undeclared prefixes, a missing end, the element budget: one each a
   * feed), 0 in records from before it was counted. {@code feedsFound}: each rss source whose URL
   * answered an HTML page, and the feed it names that was collected in its place (empty in records
   * from before).
   */
  public record Collection(
      int attempted,
      int collected,
      int extracted,
      int failed,
      int recovered,
      List<FeedFound> feedsFound)
      implements JsonSerializable {
    public Collection {
      feedsFound = feedsFound == null ? List.of() : List.copyOf(feedsFound);
    }

    public Collection(int attempted, int collected, int extracted, int failed) {
      this(attempted, collected, extracted, failed, 0);
    }

    public Collection(int attempted, int collected, int extracted, int failed, int recovered) {
      this(attempted, collected, extracted, failed, recovered, List.of());
    }
  }

  /** A source whose URL answered a page, and the feed the page names that was collected. */
  public record FeedFound(String source, String feed) implements JsonSerializable {}

  /** What the model was not shown: items beyond the bound, and texts cut to the per-item bound. */
  public record Trimmed(int itemsDropped, int textsCut) implements JsonSerializable {}

  /**
   * One channel's delivery of the run's alert; for {@code push}, one device's ({@code device} is
   * its id). {@code ok}: delivered; {@code error}: the latest attempt's reason while not delivered.
   * {@code state} is {@link #DELIVERED}, {@link #FAILED} (for good), {@link #PENDING} (a retry
   * follows at {@code nextAttemptAt}) or {@link #HELD} (quiet hours or a digest: it goes out at
   * {@code nextAttemptAt}); {@code attempts} the newest {@link #ATTEMPTS_KEPT} attempts, oldest
   * first. Records written before retries have neither: their state follows from {@code ok}. {@code
   * notice} is null for the run's alert; for a notice to the watch's owner that this run set off,
   * what it said: {@link #NOTICE_FAILING} or {@link #NOTICE_RECOVERED} (docs/runs.md, "Operational
   * alerts"); {@link #NOTICE_ACCOUNT} for a notice of the owner's account that this watch's
   * channels carry (a spent budget), which no run set off.
   */
  public record DeliveryRecord(
      String channel,
      String device,
      boolean ok,
      String error,
      String state,
      List<Attempt> attempts,
      Instant nextAttemptAt,
      String notice)
      implements JsonSerializable {
    public static final String NOTICE_FAILING = "failing";
    public static final String NOTICE_RECOVERED = "recovered";
    public static final String NOTICE_ACCOUNT = "account";

    public static final String DELIVERED = "delivered";
    public static final String FAILED = "failed";
    public static final String PENDING = "pending";
    public static final String HELD = "held";

    /** Attempts a record shows; a delivery retried longer shows its newest ones. */
    public static final int ATTEMPTS_KEPT = 20;

    public DeliveryRecord {
      if (state == null) state = ok ? DELIVERED : FAILED;
      attempts = attempts == null ? List.of() : List.copyOf(attempts);
    }

    /** A final delivery without attempts (records written before retries, interruptions). */
    public DeliveryRecord(String channel, String device, boolean ok, String error) {
      this(channel, device, ok, error, null, List.of(), null);
    }

    /** The delivery to {@code channel} of an alert held until {@code until}. */
    public static DeliveryRecord held(String channel, Instant until) {
      return new DeliveryRecord(channel, null, false, null, HELD, List.of(), until);
    }

    /** A delivery of the run's alert. */
    public DeliveryRecord(
        String channel,
        String device,
        boolean ok,
        String error,
        String state,
        List<Attempt> attempts,
        Instant nextAttemptAt) {
      this(channel, device, ok, error, state, attempts, nextAttemptAt, null);
    }

    /** This delivery as that of the notice {@code notice} (null: of the run's alert). */
    public DeliveryRecord asNotice(String notice) {
      return new DeliveryRecord(channel, device, ok, error, state, attempts, nextAttemptAt, notice);
    }

    public boolean pending() {
      return PENDING.equals(state);
    }

    /** This delivery ended as failed for good, saying {@code reason}. */
    public DeliveryRecord failedForGood(String reason) {
      return new DeliveryRecord(channel, device, false, reason, FAILED, attempts, null, notice);
    }

    /** This delivery with one more attempt, which ended it ({@code state}) or left it pending. */
    public DeliveryRecord after(Attempt attempt, String state, Instant nextAttemptAt) {
      List<Attempt> all = new java.util.ArrayList<>(attempts);
      all.add(attempt);
      if (all.size() > ATTEMPTS_KEPT) all = all.subList(all.size() - ATTEMPTS_KEPT, all.size());
      return new DeliveryRecord(
          channel, device, attempt.ok(), attempt.error(), state, all, nextAttemptAt, notice);
    }
  }

  /**
   * One attempt of a delivery: when it was made and how it ended ({@code error} when it failed).
   */
  public record Attempt(Instant at, boolean ok, String error) implements JsonSerializable {}

  /**
   * This run once its alert (or a notice it set off) went out, was cut short or was tried again, to
   * {@code sent}: each channel in {@code sent} has these deliveries of the same alert or notice in
   * place of its earlier ones, the others keep theirs. A negative {@code totalMs} keeps the run's
   * duration. {@code notificationsSent} counts the alert's deliveries, not the notices'.
   */
  public RunRecord withDeliveries(List<DeliveryRecord> sent, long totalMs) {
    java.util.Map<String, List<DeliveryRecord>> byChannel = new java.util.LinkedHashMap<>();
    for (DeliveryRecord d : deliveries == null ? List.<DeliveryRecord>of() : deliveries)
      byChannel.computeIfAbsent(deliveryKey(d), c -> new java.util.ArrayList<>()).add(d);
    java.util.Set<String> replaced = new java.util.HashSet<>();
    for (DeliveryRecord d : sent) {
      if (replaced.add(deliveryKey(d))) byChannel.put(deliveryKey(d), new java.util.ArrayList<>());
      byChannel.get(deliveryKey(d)).add(d);
    }
    List<DeliveryRecord> all = byChannel.values().stream().flatMap(List::stream).toList();
    return new RunRecord(
        runId,
        trigger,
        startedAt,
        totalMs < 0 ? durationMs : totalMs,
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
        all,
        (int) all.stream().filter(d -> d.ok() && d.notice() == null).count(),
        trimmed,
        error,
        setAside,
        decision,
        judged,
        usage);
  }

  /** This record without its judged items: as run lists show it and the watch holds it. */
  public RunRecord lean() {
    return judged == null ? this : withJudged(null);
  }

  /** This record with {@code judged} for its judged items. */
  public RunRecord withJudged(Judged judged) {
    return new RunRecord(
        runId,
        trigger,
        startedAt,
        durationMs,
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
        deliveries,
        notificationsSent,
        trimmed,
        error,
        setAside,
        decision,
        judged,
        usage);
  }

  /** This run with each delivery's channel as {@code shown} makes it (masked, for answers). */
  public RunRecord withChannelsShown(java.util.function.UnaryOperator<String> shown) {
    if (deliveries == null) return this;
    return new RunRecord(
        runId,
        trigger,
        startedAt,
        durationMs,
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
        deliveries.stream()
            .map(
                d ->
                    new DeliveryRecord(
                        shown.apply(d.channel()),
                        d.device(),
                        d.ok(),
                        d.error(),
                        d.state(),
                        d.attempts(),
                        d.nextAttemptAt(),
                        d.notice()))
            .toList(),
        notificationsSent,
        trimmed,
        error,
        setAside,
        decision,
        judged,
        usage);
  }

  private static String deliveryKey(DeliveryRecord d) {
    return d.notice() == null ? d.channel() : d.notice() + " " + d.channel();
  }
}
