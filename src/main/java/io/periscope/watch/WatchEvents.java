package io.periscope.watch;

import io.periscope.watch.WatchEntity.AlertDelivered;
import io.periscope.watch.WatchEntity.ChannelsResealed;
import io.periscope.watch.WatchEntity.Created;
import io.periscope.watch.WatchEntity.Deleted;
import io.periscope.watch.WatchEntity.DeliveriesDue;
import io.periscope.watch.WatchEntity.Delivering;
import io.periscope.watch.WatchEntity.Event;
import io.periscope.watch.WatchEntity.HeldReleased;
import io.periscope.watch.WatchEntity.OwnerNoticed;
import io.periscope.watch.WatchEntity.Pending;
import io.periscope.watch.WatchEntity.Replaced;
import io.periscope.watch.WatchEntity.RunJudged;
import io.periscope.watch.WatchEntity.RunRecorded;
import io.periscope.watch.WatchEntity.ScheduleAdvanced;
import io.periscope.watch.WatchEntity.State;
import java.util.ArrayList;
import java.util.List;

/**
 * How each event of a watch changes its state: the entity's event handler, and what its pure
 * functions apply to see the state the events they decide will leave.
 */
final class WatchEvents {
  private WatchEvents() {}

  /** {@code state} after {@code event}, and what the notices to the owner follow of it. */
  static State apply(State state, Event event) {
    return OwnerNotices.follow(state, applyOwn(state, event), event);
  }

  private static State applyOwn(State state, Event event) {
    if (event instanceof Created e)
      return WatchVersions.recorded(state, e).created(e.watch(), e.at(), e.nextFireAt());
    if (event instanceof Replaced e)
      return WatchVersions.recorded(state, e).withWatch(e.watch(), e.nextFireAt());
    if (event instanceof ChannelsResealed e)
      return state.withWatch(state.watch().withChannels(e.channels()), state.nextFireAt());
    if (event instanceof Deleted e) return WatchVersions.recorded(state, e).withWatch(null, null);
    if (event instanceof ScheduleAdvanced e) return state.withNextFire(e.nextFireAt());
    if (event instanceof RunRecorded e)
      return state.withRun(e.record(), e.newlySeen(), e.baselined(), e.pages());
    if (event instanceof RunJudged e) {
      State judged = state.withRun(e.record(), e.newlySeen(), e.baselined(), e.pages());
      if (e.alert() == null)
        return judged.withDelivering(new Delivering(e.record().runId(), e.channels()));
      if (e.heldUntil() != null) {
        List<HeldAlert> held = new ArrayList<>(state.held());
        held.add(new HeldAlert(e.record().runId(), e.channels(), e.alert(), e.heldUntil()));
        return judged.withHeld(held);
      }
      List<Pending> owed = new ArrayList<>(state.outbox());
      for (String channel : e.channels())
        owed.add(new Pending(e.record().runId(), channel, e.alert(), e.retryUntil(), null));
      return judged.withOutbox(owed);
    }
    if (event instanceof DeliveriesDue) return state;
    if (event instanceof HeldReleased e) {
      List<Pending> owed = new ArrayList<>(state.outbox());
      owed.addAll(e.owed());
      return state
          .withOutbox(owed)
          .withHeld(state.held().stream().filter(h -> !e.runIds().contains(h.runId())).toList());
    }
    if (event instanceof AlertDelivered e)
      return state.withDelivered(e.runId(), e.deliveries(), e.totalMs());
    if (event instanceof OwnerNoticed e) return OwnerNotices.noticed(state, e);
    throw new IllegalArgumentException("unknown watch event " + event.getClass().getName());
  }
}
