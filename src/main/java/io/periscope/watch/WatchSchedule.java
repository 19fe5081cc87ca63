package io.periscope.watch;

import static io.periscope.watch.WatchEntity.SCHEDULE_TAG;

import io.periscope.watch.WatchEntity.DeliveriesDue;
import io.periscope.watch.WatchEntity.Event;
import io.periscope.watch.WatchEntity.ScheduleAdvanced;
import io.periscope.watch.WatchEntity.State;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A watch's schedule, as pure functions over its state: the next fire time when the watch is
 * created, replaced or has run, and the wake-up the index needs while deliveries are owed or alerts
 * held (timers die with the entity, so the wake-up index starts it again).
 */
final class WatchSchedule {
  private WatchSchedule() {}

  /** The first due time after {@code now}; none for a disabled watch. */
  static Instant firstFire(Watch watch, Instant now) {
    return watch.enabled()
        ? CronExpressions.nextFireAfter(watch.schedule(), watch.scheduleZone(), now, now)
        : null;
  }

  /**
   * The next fire time of {@code replacement}: an unchanged schedule keeps its due time, since
   * replacing a watch must not postpone (or repeat) a due run; otherwise the first after {@code
   * now}.
   */
  static Instant nextFireOnReplace(State state, Watch replacement, Instant now) {
    Watch before = state.watch();
    boolean sameSchedule =
        before.enabled()
            && replacement.enabled()
            && before.schedule().equals(replacement.schedule())
            && before.timeZone().equals(replacement.timeZone())
            && state.nextFireAt() != null;
    return sameSchedule ? state.nextFireAt() : firstFire(replacement, now);
  }

  /**
   * The schedule advanced after the scheduled run due at {@code scheduledFor}, from that time (to
   * the first due time after now when that is already past); none for a run not scheduled, or when
   * the schedule changed during the run (the change already set the next fire time).
   */
  static Optional<ScheduleAdvanced> advanced(State state, Instant scheduledFor, Instant now) {
    if (scheduledFor == null || !scheduledFor.equals(state.nextFireAt())) return Optional.empty();
    return Optional.of(
        new ScheduleAdvanced(
            scheduledFor,
            CronExpressions.nextFireAfter(
                state.watch().schedule(), state.watch().scheduleZone(), scheduledFor, now)));
  }

  /**
   * What keeps the wake-up index right once {@code events} took the watch from {@code before} to
   * {@code after}: a {@link DeliveriesDue} when the wake-up time moved or a schedule event would
   * have set the index to the next fire time alone, and the next fire time written again once
   * nothing is owed or held any more.
   */
  static Optional<Event> wakeUp(State before, State after, List<Event> events) {
    boolean scheduleWritten =
        events.stream().anyMatch(e -> WatchEntity.tagsOf(e).contains(SCHEDULE_TAG));
    Instant wake = wakeAt(after);
    if (wake != null && (scheduleWritten || !wake.equals(wakeAt(before))))
      return Optional.of(new DeliveriesDue(wake));
    if (wake == null && wakeAt(before) != null)
      return Optional.of(new ScheduleAdvanced(null, after.nextFireAt()));
    return Optional.empty();
  }

  /**
   * When the wake-up index should start this watch: the earliest of its next fire time, its owed
   * deliveries' next attempts and its held alerts' release; null when nothing is owed or held (the
   * index holds the fire time).
   */
  static Instant wakeAt(State state) {
    Instant wake = null;
    for (WatchEntity.Pending p : state.outbox())
      if (wake == null || p.dueAt().isBefore(wake)) wake = p.dueAt();
    for (HeldAlert h : state.held())
      if (wake == null || h.releaseAt().isBefore(wake)) wake = h.releaseAt();
    if (wake != null && state.nextFireAt() != null && state.nextFireAt().isBefore(wake))
      wake = state.nextFireAt();
    return wake;
  }
}
