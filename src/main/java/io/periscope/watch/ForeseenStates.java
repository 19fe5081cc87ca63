package io.periscope.watch;

import io.periscope.watch.WatchEntity.Event;
import io.periscope.watch.WatchEntity.State;
import java.util.List;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;

/**
 * A watch's event handler that remembers the states its command handler already worked out: to
 * decide the owner's notice and the wake-up, a command applies its events ahead ({@code
 * WatchBehavior#persistAll}), and Pekko then applies the same events again. A state foreseen is
 * taken only for the very state object and event object it was worked out from, in order, so it is
 * what applying the event would give ({@link WatchEvents#apply} is a function of the two); anything
 * else, such as a recovery, is applied. Used by one entity's thread only.
 */
final class ForeseenStates implements EventHandler<State, Event> {
  private State from;
  private List<Event> events = List.of();
  private List<State> states = List.of();
  private int next;

  /**
   * {@code states.get(i)} is {@code from} after {@code events} up to {@code i}, for the handler's
   * next applications.
   */
  void foresee(State from, List<Event> events, List<State> states) {
    this.from = from;
    this.events = events;
    this.states = states;
    this.next = 0;
  }

  @Override
  public State apply(State state, Event event) {
    if (state == from && next < events.size() && events.get(next) == event) {
      State after = states.get(next++);
      if (next == events.size()) forget();
      else from = after;
      return after;
    }
    forget();
    return WatchEvents.apply(state, event);
  }

  /** Nothing foreseen is held on to past its use: a state keeps up to 100 runs. */
  private void forget() {
    from = null;
    events = List.of();
    states = List.of();
    next = 0;
  }
}
