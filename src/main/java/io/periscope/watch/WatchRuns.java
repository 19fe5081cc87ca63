package io.periscope.watch;

import static io.periscope.watch.WatchEntity.RUN_INTERRUPTED;

import io.periscope.entity.Asks;
import io.periscope.entity.EntityRefusal;
import io.periscope.watch.WatchEntity.Command;
import io.periscope.watch.WatchEntity.Event;
import io.periscope.watch.WatchEntity.OwesRun;
import io.periscope.watch.WatchEntity.Run;
import io.periscope.watch.WatchEntity.RunJudged;
import io.periscope.watch.WatchEntity.RunRecorded;
import io.periscope.watch.WatchEntity.Runs;
import io.periscope.watch.WatchEntity.State;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.pattern.StatusReply;

/**
 * A watch's runs, as pure functions over its state: how a finished run is recorded (with its alert
 * owed, held, or none), and how the kept runs are read. Also how a caller asks a watch for a run.
 */
public final class WatchRuns {
  private WatchRuns() {}

  /**
   * Asks {@code watch} for a run, waiting at most {@code patience}; fails with {@link
   * WatchEntity#RUN_INTERRUPTED} when the incarnation that took the run is gone, whether it ended
   * here (it says so as it stops) or its node died (a probe finds the watch no longer owes the
   * answer).
   */
  public static CompletionStage<RunRecord> askRun(
      Asks asks, RecipientRef<Command> watch, String trigger, Duration patience) {
    return asks.askWhileOwed(
        watch,
        replyTo -> new Run(trigger, replyTo),
        patience,
        asker ->
            asks.<Command, Boolean>ask(watch, replyTo -> new OwesRun(asker, replyTo))
                .exceptionally(failure -> null),
        () -> new EntityRefusal(EntityRefusal.Code.RUN_INTERRUPTED, RUN_INTERRUPTED));
  }

  /** Whether a run was refused with {@link WatchEntity#RUN_INTERRUPTED}. */
  public static boolean interrupted(Throwable failure) {
    return EntityRefusal.is(failure, EntityRefusal.Code.RUN_INTERRUPTED);
  }

  /** What a run that crashed records: its outcome as the pipeline would have given it. */
  static RunPipeline.Outcome crashed(String trigger, Instant startedAt, Throwable failure) {
    return new RunPipeline.Outcome(RunRecords.crashed(trigger, startedAt, failure), List.of());
  }

  /**
   * The event that records a finished run: without an alert its record alone; with one, the alert
   * owed to each of its channels until {@code retryFor} after it was decided, or, with {@code
   * heldUntil} (quiet hours, a digest), held until then.
   */
  static Event recorded(RunPipeline.Outcome outcome, Instant heldUntil, Duration retryFor) {
    RunPipeline.PendingAlert alert = outcome.alert();
    if (alert == null)
      return new RunRecorded(
          outcome.record(), outcome.newlySeen(), outcome.baselined(), outcome.pages());
    if (heldUntil != null) return held(outcome, alert, heldUntil);
    return new RunJudged(
        outcome.record(),
        outcome.newlySeen(),
        alert.channels(),
        outcome.baselined(),
        alert.alert(),
        alert.alert().at().plus(retryFor),
        null,
        outcome.pages());
  }

  /** Until when the run's alert is held (quiet hours, a digest); null when it goes out now. */
  static Instant heldUntil(State state, RunPipeline.Outcome outcome, Instant now) {
    return outcome.alert() == null || state.watch() == null
        ? null
        : state.watch().alertsHeldUntil(now).orElse(null);
  }

  /** The run's alert held until {@code until}: its record shows each channel's delivery held. */
  private static RunJudged held(
      RunPipeline.Outcome outcome, RunPipeline.PendingAlert alert, Instant until) {
    RunRecord record =
        outcome
            .record()
            .withDeliveries(
                alert.channels().stream()
                    .map(c -> RunRecord.DeliveryRecord.held(c, until))
                    .toList(),
                -1);
    return new RunJudged(
        record,
        outcome.newlySeen(),
        alert.channels(),
        outcome.baselined(),
        alert.alert(),
        null,
        until,
        outcome.pages());
  }

  /** The record as the event wrote it: a held alert's shows its deliveries held. */
  static RunRecord recordOf(Event recorded, RunPipeline.Outcome outcome) {
    return recorded instanceof RunJudged judged ? judged.record() : outcome.record();
  }

  /** A kept run, by id. */
  static Optional<RunRecord> kept(State state, String runId) {
    return state.recentRuns().stream().filter(r -> r.runId().equals(runId)).findFirst();
  }

  /**
   * A page of the kept runs, newest first: {@code limit} of them, older than the run {@code before}
   * when given; refused with {@link EntityRefusal.Code#NO_SUCH_RUN} when that is not a kept run.
   */
  static StatusReply<Runs> page(State state, int limit, String before) {
    List<RunRecord> kept = state.recentRuns();
    int from = 0;
    if (before != null) {
      int at = 0;
      while (at < kept.size() && !kept.get(at).runId().equals(before)) at++;
      if (at == kept.size()) return noSuchRun();
      from = at + 1;
    }
    int to = Math.min(kept.size(), from + limit);
    // With as many runs in memory as it keeps there, older ones may be in the journal.
    boolean more = to < kept.size() || kept.size() >= WatchEntity.RECENT_RUNS;
    return StatusReply.success(new Runs(List.copyOf(kept.subList(from, to)), more));
  }

  static <T> StatusReply<T> noSuchRun() {
    return EntityRefusal.reply(EntityRefusal.Code.NO_SUCH_RUN, WatchEntity.NO_SUCH_RUN);
  }
}
