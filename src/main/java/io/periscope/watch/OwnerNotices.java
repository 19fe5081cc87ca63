package io.periscope.watch;

import io.periscope.entity.JsonSerializable;
import io.periscope.notify.Alert;
import io.periscope.notify.AlertFormat;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A watch's owner told of the watch's own trouble (docs/runs.md, "Operational alerts"): once it
 * failed WATCH_FAILING_AFTER runs in a row, on the watch's own channels, and once more when a run
 * goes well again. A run fails when its outcome is an error (every source failed, no verdict, a
 * crash) or when its alert reached none of its channels; it goes well otherwise. An alerting run
 * counts when its deliveries end, so the streak follows the order in which runs' outcomes became
 * known.
 *
 * <p>The streak is the watch's state, changed by the events that record runs and deliveries, so it
 * survives a restart and a hand-over and one watch counts it once, whatever node runs it. A notice
 * is an event ({@link WatchEntity.OwnerNoticed}) written with the event that called for it, and its
 * deliveries are owed in the outbox like an alert's (retried, never held by quiet hours), under the
 * id {@code <run>/<notice>}; they show in the deliveries of the run that set it off, marked with
 * the notice.
 */
final class OwnerNotices {
  private OwnerNotices() {}

  /** How long a failure's reason may be in a notice's headline. */
  private static final int MAX_PROBLEM = 300;

  /**
   * {@code failedRuns}: failed runs in a row, the latest saying {@code problem}; {@code runId}: the
   * run that changed the streak last; {@code ownerTold}: the owner was told it keeps failing and
   * not yet that it recovered.
   */
  public record Streak(int failedRuns, String problem, String runId, boolean ownerTold)
      implements JsonSerializable {
    static final Streak NONE = new Streak(0, null, null, false);

    Streak failed(String run, String why) {
      return new Streak(failedRuns + 1, why, run, ownerTold);
    }

    Streak wentWell(String run) {
      return new Streak(0, null, run, ownerTold);
    }
  }

  /** The streak after {@code event} took the watch from {@code before} to {@code after}. */
  static WatchEntity.State follow(
      WatchEntity.State before, WatchEntity.State after, WatchEntity.Event event) {
    Streak streak = after.failing();
    Streak next = streak;
    if (event instanceof WatchEntity.Created) {
      next = Streak.NONE;
    } else if (event instanceof WatchEntity.RunRecorded e) {
      next = judged(streak, e.record());
    } else if (event instanceof WatchEntity.RunJudged e) {
      // an alert that is owed counts once its deliveries end; one of an old journal was sent
      if (e.alert() == null || RunRecord.ERROR.equals(e.record().outcome()))
        next = judged(streak, e.record());
    } else if (event instanceof WatchEntity.AlertDelivered e
        && owes(before, e.runId())
        && !owes(after, e.runId())) {
      RunRecord run =
          after.recentRuns().stream()
              .filter(r -> r.runId().equals(e.runId()))
              .findFirst()
              .orElse(null);
      if (run != null) next = delivered(streak, run);
    }
    return next == streak ? after : after.withFailing(next);
  }

  private static Streak judged(Streak streak, RunRecord run) {
    return RunRecord.ERROR.equals(run.outcome())
        ? streak.failed(run.runId(), run.error() == null ? "the run failed" : run.error())
        : streak.wentWell(run.runId());
  }

  /** The run's alert reached one of its channels, or none. */
  private static Streak delivered(Streak streak, RunRecord run) {
    List<RunRecord.DeliveryRecord> alert =
        run.deliveries() == null
            ? List.of()
            : run.deliveries().stream().filter(d -> d.notice() == null).toList();
    if (alert.stream().anyMatch(RunRecord.DeliveryRecord::ok)) return streak.wentWell(run.runId());
    String reason =
        alert.stream()
            .map(RunRecord.DeliveryRecord::error)
            .filter(e -> e != null)
            .findFirst()
            .map(e -> " (" + e + ")")
            .orElse("");
    return streak.failed(run.runId(), "its alert reached none of its channels" + reason);
  }

  private static boolean owes(WatchEntity.State state, String runId) {
    return state.outbox().stream().anyMatch(p -> p.runId().equals(runId));
  }

  /**
   * The notice the watch owes its owner now, if any: it keeps failing ({@code failingAfter} failed
   * runs in a row, not told yet) or it recovered (told, and a run went well since). None for a
   * deleted watch, one without channels, or with {@code failingAfter} 0.
   */
  static Optional<WatchEntity.OwnerNoticed> due(
      WatchEntity.State state, int failingAfter, Instant now, Duration retryFor) {
    Watch watch = state.watch();
    Streak streak = state.failing();
    if (failingAfter == 0 || watch == null || streak.runId() == null) return Optional.empty();
    String notice;
    String summary;
    if (!streak.ownerTold() && streak.failedRuns() >= failingAfter) {
      notice = RunRecord.DeliveryRecord.NOTICE_FAILING;
      summary =
          "keeps failing: "
              + AlertFormat.truncate(AlertFormat.oneLine(streak.problem()), MAX_PROBLEM)
              + "\n"
              + streak.failedRuns()
              + " runs in a row failed. You will be told once more when it runs well again.";
    } else if (streak.ownerTold() && streak.failedRuns() == 0) {
      notice = RunRecord.DeliveryRecord.NOTICE_RECOVERED;
      summary = "recovered: its latest run went well again.";
    } else {
      return Optional.empty();
    }
    List<String> channels = watch.channels().stream().distinct().toList();
    if (channels.isEmpty()) return Optional.empty();
    String batch = streak.runId() + "/" + notice;
    Alert alert =
        new Alert(
            watch.owner(),
            watch.id(),
            watch.name(),
            Alert.Strength.NOTICE,
            1,
            summary,
            List.of(),
            "",
            now,
            batch);
    return Optional.of(
        new WatchEntity.OwnerNoticed(notice, streak.runId(), channels, alert, now.plus(retryFor)));
  }

  /** The notice is owed on each of its channels, and the owner counts as told (or no longer). */
  static WatchEntity.State noticed(WatchEntity.State state, WatchEntity.OwnerNoticed e) {
    List<WatchEntity.Pending> owed = new ArrayList<>(state.outbox());
    for (String channel : e.channels())
      owed.add(
          new WatchEntity.Pending(
              e.alert().runId(),
              channel,
              e.alert(),
              e.retryUntil(),
              new RunRecord.DeliveryRecord(
                      channel, null, false, null, RunRecord.DeliveryRecord.PENDING, List.of(), null)
                  .asNotice(e.notice())));
    // a notice of the account says nothing of the watch's streak
    if (RunRecord.DeliveryRecord.NOTICE_ACCOUNT.equals(e.notice())) return state.withOutbox(owed);
    Streak s = state.failing();
    boolean told = RunRecord.DeliveryRecord.NOTICE_FAILING.equals(e.notice());
    return state
        .withOutbox(owed)
        .withFailing(new Streak(s.failedRuns(), s.problem(), s.runId(), told));
  }

  /**
   * The owner's notice of their account, owed on {@code channels} of the watch (those that owe it
   * already left out); none when nothing is left to owe or the watch does not exist.
   */
  static Optional<WatchEntity.OwnerNoticed> ofAccount(
      WatchEntity.State state, WatchEntity.OweAccountNotice cmd, Instant now, Duration retryFor) {
    Watch watch = state.watch();
    if (watch == null) return Optional.empty();
    String owed = owedId(cmd.noticeId(), RunRecord.DeliveryRecord.NOTICE_ACCOUNT);
    List<String> channels =
        cmd.channels().stream().distinct().filter(c -> state.owed(owed, c).isEmpty()).toList();
    if (channels.isEmpty()) return Optional.empty();
    Alert alert =
        new Alert(
            watch.owner(),
            null,
            "Periscope",
            Alert.Strength.NOTICE,
            1,
            cmd.summary(),
            List.of(),
            "",
            now,
            owed);
    return Optional.of(
        new WatchEntity.OwnerNoticed(
            RunRecord.DeliveryRecord.NOTICE_ACCOUNT,
            cmd.noticeId(),
            channels,
            alert,
            now.plus(retryFor)));
  }

  /**
   * The run an outbox entry's deliveries show on: {@code <run>/<notice>} is the run's notice (an
   * account's notice shows on no run).
   */
  static String runOf(String owedId) {
    for (String notice :
        List.of(
            RunRecord.DeliveryRecord.NOTICE_FAILING,
            RunRecord.DeliveryRecord.NOTICE_RECOVERED,
            RunRecord.DeliveryRecord.NOTICE_ACCOUNT))
      if (owedId.endsWith("/" + notice))
        return owedId.substring(0, owedId.length() - notice.length() - 1);
    return owedId;
  }

  /** The outbox id of run {@code runId}'s alert ({@code notice} null) or notice. */
  static String owedId(String runId, String notice) {
    return notice == null ? runId : runId + "/" + notice;
  }
}
