package io.periscope.watch;

import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehaviorWithEnforcedReplies;
import org.apache.pekko.persistence.typed.javadsl.ReplyEffect;
import io.periscope.serialization.JsonSerializable;
import java.time.Duration;
import java.time.Instant;

/**
 * One watch of one owner, event sourced. The entity id is {@code owner:watchId}, so ids are unique per owner
 * and no owner can address another's watch. Deleting is an event: the journal, and with it the run history
 * later issues record here, outlives the definition, and the id may be created again.
 */
public final class WatchEntity
    extends EventSourcedBehaviorWithEnforcedReplies<WatchEntity.Command, WatchEntity.Event, WatchEntity.State> {

  public static final EntityTypeKey<Command> TYPE_KEY = EntityTypeKey.create(Command.class, "Watch");

  public static String entityId(String owner, String watchId) {
    return owner + ":" + watchId;
  }

  // ---- state -------------------------------------------------------------------------------------

  /** {@code watch} is null before the first create and after a delete. */
  public record State(Watch watch) implements JsonSerializable {
    static final State EMPTY = new State(null);

    public boolean exists() {
      return watch != null;
    }
  }

  // ---- commands ----------------------------------------------------------------------------------

  public sealed interface Command extends JsonSerializable {}

  /** Refused when the watch exists. */
  public record Create(Watch watch, ActorRef<StatusReply<Watch>> replyTo) implements Command {}

  /** Refused when the watch does not exist. */
  public record Replace(Watch watch, ActorRef<StatusReply<Watch>> replyTo) implements Command {}

  /** Refused when the watch does not exist. */
  public record Get(ActorRef<StatusReply<Watch>> replyTo) implements Command {}

  /** Refused when the watch does not exist. */
  public record Delete(ActorRef<StatusReply<Done>> replyTo) implements Command {}

  // ---- events ------------------------------------------------------------------------------------

  public sealed interface Event extends JsonSerializable {}

  public record Created(Watch watch, Instant at) implements Event {}

  public record Replaced(Watch watch, Instant at) implements Event {}

  public record Deleted(Instant at) implements Event {}

  // ---- behaviour ---------------------------------------------------------------------------------

  public static Behavior<Command> create(String entityId) {
    return new WatchEntity(PersistenceId.of(TYPE_KEY.name(), entityId));
  }

  private WatchEntity(PersistenceId persistenceId) {
    super(persistenceId, SupervisorStrategy.restartWithBackoff(Duration.ofMillis(200), Duration.ofSeconds(5), 0.1));
  }

  @Override
  public State emptyState() {
    return State.EMPTY;
  }

  @Override
  public CommandHandlerWithReply<Command, Event, State> commandHandler() {
    return newCommandHandlerWithReplyBuilder().forAnyState()
        .onCommand(Create.class, this::onCreate)
        .onCommand(Replace.class, this::onReplace)
        .onCommand(Get.class, this::onGet)
        .onCommand(Delete.class, this::onDelete)
        .build();
  }

  private ReplyEffect<Event, State> onCreate(State state, Create cmd) {
    if (state.exists()) {
      return Effect().reply(cmd.replyTo(), StatusReply.error("a watch with id '" + cmd.watch().id() + "' already exists"));
    }
    return Effect().persist(new Created(cmd.watch(), Instant.now()))
        .thenReply(cmd.replyTo(), s -> StatusReply.success(s.watch()));
  }

  private ReplyEffect<Event, State> onReplace(State state, Replace cmd) {
    if (!state.exists()) return Effect().reply(cmd.replyTo(), notFound());
    return Effect().persist(new Replaced(cmd.watch(), Instant.now()))
        .thenReply(cmd.replyTo(), s -> StatusReply.success(s.watch()));
  }

  private ReplyEffect<Event, State> onGet(State state, Get cmd) {
    return Effect().reply(cmd.replyTo(), state.exists() ? StatusReply.success(state.watch()) : notFound());
  }

  private ReplyEffect<Event, State> onDelete(State state, Delete cmd) {
    if (!state.exists()) return Effect().reply(cmd.replyTo(), notFound());
    return Effect().persist(new Deleted(Instant.now())).thenReply(cmd.replyTo(), s -> StatusReply.ack());
  }

  private static <T> StatusReply<T> notFound() {
    return StatusReply.error("watch not found");
  }

  @Override
  public EventHandler<State, Event> eventHandler() {
    return newEventHandlerBuilder().forAnyState()
        .onEvent(Created.class, (state, e) -> new State(e.watch()))
        .onEvent(Replaced.class, (state, e) -> new State(e.watch()))
        .onEvent(Deleted.class, (state, e) -> State.EMPTY)
        .build();
  }
}
