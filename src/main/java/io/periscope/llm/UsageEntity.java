package io.periscope.llm;

import io.periscope.entity.GroupCommit;
import io.periscope.entity.JournaledEntity;
import io.periscope.entity.JsonSerializable;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.typed.SnapshotAdapter;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.ReplyEffect;

/**
 * What one account's model calls took (entity id = account id), per UTC day and per watch: each
 * call's tokens and cost as it is answered, a run's and an assistance call's alike. Days older than
 * {@link #KEPT_DAYS} before the newest are forgotten, so the state stays bounded whatever the
 * account does. The calls recorded at once are written by one persist ({@link GroupCommit}), one
 * event per day and watch.
 */
public final class UsageEntity
    extends JournaledEntity<UsageEntity.Command, UsageEntity.Event, UsageEntity.State> {

  public static final EntityTypeKey<Command> TYPE_KEY =
      EntityTypeKey.create(Command.class, "ModelUsage");

  /** How a service reaches this entity: an account's model usage. */
  @FunctionalInterface
  public interface Refs {
    RecipientRef<Command> usage(String accountId);
  }

  /** Days of usage an account keeps: a year and more, so a year's series is always whole. */
  public static final int KEPT_DAYS = 400;

  /** The watch key of calls no watch made (assistance without a watch). */
  public static final String NO_WATCH = "";

  // ---- state
  // -------------------------------------------------------------------------------------

  /**
   * {@code days}: per UTC day ({@code yyyy-mm-dd}, so their order is the days'), per watch id
   * ({@link #NO_WATCH} for none), what the calls took.
   *
   * <p>Updated in place by each event, so a call costs what it changes rather than a copy of up to
   * {@link #KEPT_DAYS} days of every watch; the state never leaves the entity (a read gets its own
   * {@link Spent} list), and a snapshot is a copy taken when it is made ({@link #snapshotAdapter}).
   */
  public record State(TreeMap<String, Map<String, ModelUsage>> days) implements JsonSerializable {
    public State {
      days = days == null ? new TreeMap<>() : days;
    }

    State with(Used e) {
      days.computeIfAbsent(e.day().toString(), day -> new HashMap<>())
          .merge(e.watchId() == null ? NO_WATCH : e.watchId(), e.usage(), ModelUsage::plus);
      String oldest = e.day().minusDays(KEPT_DAYS - 1).toString();
      days.headMap(oldest).clear();
      return this;
    }

    /** A copy that no later event changes. */
    State copy() {
      TreeMap<String, Map<String, ModelUsage>> copy = new TreeMap<>();
      days.forEach((day, watches) -> copy.put(day, new HashMap<>(watches)));
      return new State(copy);
    }

    List<Spent> between(LocalDate from, LocalDate to) {
      List<Spent> spent = new ArrayList<>();
      days.subMap(from.toString(), true, to.toString(), true)
          .forEach(
              (day, watches) ->
                  watches.forEach(
                      (watch, usage) -> spent.add(new Spent(LocalDate.parse(day), watch, usage))));
      return spent;
    }
  }

  /** What the calls of one day and watch ({@link #NO_WATCH}: none) took. */
  public record Spent(LocalDate day, String watchId, ModelUsage usage)
      implements JsonSerializable {}

  /** The usage of some days, one entry a day and watch. */
  public record Period(List<Spent> spent) implements JsonSerializable {}

  // ---- commands
  // ----------------------------------------------------------------------------------

  public sealed interface Command extends JsonSerializable {}

  /** Adds what a call took on {@code day}, made for {@code watchId} (null: no watch). */
  public record Record(
      LocalDate day, String watchId, ModelUsage usage, ActorRef<StatusReply<Done>> replyTo)
      implements Command {}

  /** The usage of the days {@code from} to {@code to}, both included. */
  public record Get(LocalDate from, LocalDate to, ActorRef<StatusReply<Period>> replyTo)
      implements Command {}

  /** Writes the calls recorded since the last write (sent by the entity to itself). */
  record WriteUsage() implements Command {}

  // ---- events
  // ------------------------------------------------------------------------------------

  public sealed interface Event extends JsonSerializable {}

  public record Used(LocalDate day, String watchId, ModelUsage usage) implements Event {}

  // ---- behaviour
  // ---------------------------------------------------------------------------------

  public static Behavior<Command> create(String accountId) {
    return Behaviors.setup(
        context -> new UsageEntity(accountId, () -> context.getSelf().tell(new WriteUsage())));
  }

  private final GroupCommit<Record> recorded;

  private UsageEntity(String entityId, Runnable writeSoon) {
    super(TYPE_KEY, entityId);
    this.recorded = new GroupCommit<>(writeSoon);
  }

  /**
   * The calls recorded since the last write, one event per day and watch in the order they first
   * came: summed as the state sums them.
   */
  static List<Used> summed(List<Record> records) {
    Map<List<Object>, Used> byDayAndWatch = new LinkedHashMap<>();
    for (Record r : records) {
      String watch = r.watchId() == null ? NO_WATCH : r.watchId();
      byDayAndWatch.merge(
          List.of(r.day(), watch),
          new Used(r.day(), r.watchId(), r.usage()),
          (a, b) -> new Used(a.day(), a.watchId(), a.usage().plus(b.usage())));
    }
    return List.copyOf(byDayAndWatch.values());
  }

  private ReplyEffect<Event, State> writeUsage() {
    List<Record> records = recorded.take();
    if (records.isEmpty()) return Effect().noReply();
    return Effect()
        .persist(List.<Event>copyOf(summed(records)))
        .thenRun(s -> records.forEach(r -> r.replyTo().tell(StatusReply.success(Done.done()))))
        .thenNoReply();
  }

  /** The state with the calls recorded but not written yet. */
  private State withPending(State state) {
    State all = state;
    for (Used u : summed(recorded.pending())) all = all.with(u);
    return all;
  }

  @Override
  public State emptyState() {
    return new State(new TreeMap<>());
  }

  /** The snapshot store serializes a snapshot after the entity has moved on: it gets a copy. */
  static final SnapshotAdapter<State> SNAPSHOTS =
      new SnapshotAdapter<>() {
        @Override
        public Object toJournal(State state) {
          return state.copy();
        }

        @Override
        public State fromJournal(Object from) {
          return (State) from;
        }
      };

  @Override
  public SnapshotAdapter<State> snapshotAdapter() {
    return SNAPSHOTS;
  }

  @Override
  public CommandHandlerWithReply<Command, Event, State> commandHandler() {
    return newCommandHandlerWithReplyBuilder()
        .forAnyState()
        .onCommand(
            Record.class,
            (state, cmd) -> {
              recorded.add(cmd);
              return Effect().noReply();
            })
        .onCommand(WriteUsage.class, (state, cmd) -> writeUsage())
        .onCommand(
            Get.class,
            (state, cmd) ->
                Effect()
                    .reply(
                        cmd.replyTo(),
                        StatusReply.success(
                            new Period(withPending(state).between(cmd.from(), cmd.to())))))
        .build();
  }

  @Override
  public EventHandler<State, Event> eventHandler() {
    return newEventHandlerBuilder().forAnyState().onEvent(Used.class, State::with).build();
  }
}
