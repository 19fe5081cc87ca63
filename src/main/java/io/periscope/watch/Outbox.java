package io.periscope.watch;

import static io.periscope.watch.WatchEntity.INTERRUPTED;

import io.periscope.config.Durations;
import io.periscope.config.Settings;
import io.periscope.notify.Delivery;
import io.periscope.watch.WatchEntity.AlertDelivered;
import io.periscope.watch.WatchEntity.Delivering;
import io.periscope.watch.WatchEntity.Pending;
import io.periscope.watch.WatchEntity.State;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A watch's outbox, as pure functions over what it owes ({@link Pending}): what an attempt's
 * results make of a delivery (delivered, failed for good, or tried again after a backoff with
 * jitter, until DELIVERY_RETRY_FOR), and what a delivery cut short by an older incarnation records.
 * The entity makes the attempts and schedules the retries ({@link WatchBehavior}).
 */
final class Outbox {
  private Outbox() {}

  /** What an attempt that ended unexpectedly (a sender broke its promise) records. */
  static final String ATTEMPT_FAILED = "the delivery failed unexpectedly";

  /**
   * The delivery records after one attempt of {@code p} ended with {@code results}: delivered,
   * failed for good, or pending with its next attempt after a backoff. Only a single delivery is
   * retried; {@code push}'s per-device deliveries are final (a device that got it must not get it
   * twice).
   */
  static List<RunRecord.DeliveryRecord> afterAttempt(
      Pending p, List<Delivery> results, Instant at, Instant now, Settings.DeliveryRetry retry) {
    if (results.isEmpty()) results = List.of(Delivery.retryable(p.channel(), ATTEMPT_FAILED, null));
    RunRecord.DeliveryRecord before = p.recordSoFar();
    if (results.size() > 1 || results.get(0).device() != null) {
      return results.stream()
          .map(
              d ->
                  new RunRecord.DeliveryRecord(d.channel(), d.device(), false, null)
                      .asNotice(before.notice())
                      .after(
                          new RunRecord.Attempt(at, d.ok(), d.error()),
                          d.ok()
                              ? RunRecord.DeliveryRecord.DELIVERED
                              : RunRecord.DeliveryRecord.FAILED,
                          null))
          .toList();
    }
    Delivery d = results.get(0);
    RunRecord.Attempt attempt = new RunRecord.Attempt(at, d.ok(), d.error());
    if (d.ok()) return List.of(before.after(attempt, RunRecord.DeliveryRecord.DELIVERED, null));
    if (!d.retryable())
      return List.of(before.after(attempt, RunRecord.DeliveryRecord.FAILED, null));
    Instant next = now.plus(backoff(before.attempts().size() + 1, d.retryAfter(), retry));
    if (next.isAfter(p.retryUntil()))
      return List.of(
          before
              .after(attempt, RunRecord.DeliveryRecord.FAILED, null)
              .failedForGood(gaveUp(d.error(), retry.retryFor())));
    return List.of(before.after(attempt, RunRecord.DeliveryRecord.PENDING, next));
  }

  /** What a delivery that ran out of retries says, after its last attempt's reason. */
  static String gaveUp(String reason, Duration retryFor) {
    return (reason == null ? "" : reason + "; ")
        + "gave up: not delivered within "
        + Durations.spelled(retryFor)
        + " (DELIVERY_RETRY_FOR)";
  }

  /**
   * The wait before attempt {@code attempts + 1}: what the channel asked (Retry-After), else the
   * first backoff doubled per attempt made, up to the longest, with jitter (half to all of it) so
   * the deliveries failing together do not all come back together.
   */
  static Duration backoff(int attempts, Duration retryAfter, Settings.DeliveryRetry retry) {
    if (retryAfter != null)
      return retryAfter.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : retryAfter;
    long first = retry.firstBackoff().toMillis();
    long most = retry.maxBackoff().toMillis();
    long wait = first;
    for (int i = 1; i < attempts && wait < most; i++) wait *= 2;
    wait = Math.min(wait, most);
    return Duration.ofMillis(wait / 2 + ThreadLocalRandom.current().nextLong(wait / 2 + 1));
  }

  /**
   * The deliveries of {@code d}'s run as an older incarnation left them, interrupted: whether each
   * channel got the alert is not known (journals written before the outbox).
   */
  static AlertDelivered interrupted(State state, Delivering d) {
    long totalMs =
        state.recentRuns().stream()
            .filter(r -> r.runId().equals(d.runId()))
            .mapToLong(RunRecord::durationMs)
            .findFirst()
            .orElse(0);
    return new AlertDelivered(
        d.runId(),
        d.channels().stream()
            .map(c -> new RunRecord.DeliveryRecord(c, null, false, INTERRUPTED))
            .toList(),
        totalMs);
  }
}
