package io.periscope.owner;

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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import java.util.List;

/**
 * One per account (entity id = account id): the account's credentials and role, and the id of every watch it
 * ever created, in creation order. {@code GET /watches} asks each of those watches and skips the deleted ones;
 * ids are never unregistered, so a create racing a delete of the same id can never drop a live watch from the list.
 */
public final class OwnerEntity
    extends EventSourcedBehaviorWithEnforcedReplies<OwnerEntity.Command, OwnerEntity.Event, OwnerEntity.State> {

  public static final EntityTypeKey<Command> TYPE_KEY = EntityTypeKey.create(Command.class, "Owner");

  // ---- state -------------------------------------------------------------------------------------

  /** {@code account} is null until the account is created; watch ids may be registered either way. */
  public record State(Account account, List<String> watchIds) implements JsonSerializable {
    static final State EMPTY = new State(null, List.of());

    public State {
      watchIds = List.copyOf(watchIds);
    }

    State withWatches(List<String> added) {
      List<String> ids = new ArrayList<>(watchIds);
      added.stream().filter(id -> !watchIds.contains(id)).forEach(ids::add);
      return new State(account, ids);
    }

  }

  /** The watch ids of an owner, oldest first. */
  public record WatchIds(List<String> ids) implements JsonSerializable {}

  // ---- commands ----------------------------------------------------------------------------------

  public sealed interface Command extends JsonSerializable {}

  /** Refused when the account exists. */
  public record CreateAccount(Account account, ActorRef<StatusReply<Done>> replyTo) implements Command {}

  /** Refused when there is no account. */
  public record GetAccount(ActorRef<StatusReply<Account>> replyTo) implements Command {}

  /**
   * Idempotent: registering a known id changes nothing. Acknowledged once the id is in the journal; the ids that
   * arrive while one write is under way go together in the next, so one owner's concurrent creates do not queue
   * one journal write each.
   */
  public record AddWatch(String watchId, ActorRef<StatusReply<Done>> replyTo) implements Command {}

  /** Writes the registrations gathered so far (sent by the entity to itself). */
  record WriteRegistrations() implements Command {}

  public record ListWatches(ActorRef<StatusReply<WatchIds>> replyTo) implements Command {}

  // ---- events ------------------------------------------------------------------------------------

  public sealed interface Event extends JsonSerializable {}

  public record AccountCreated(Account account) implements Event {}

  public record WatchesAdded(List<String> watchIds) implements Event {}

  // ---- behaviour ---------------------------------------------------------------------------------

  private final ActorContext<Command> context;
  /** Registrations waiting for the next write, with who waits for each. In memory: a crash answers none of them. */
  private final Map<String, List<ActorRef<StatusReply<Done>>>> pending = new LinkedHashMap<>();

  public static Behavior<Command> create(String accountId) {
    return Behaviors.setup(ctx -> new OwnerEntity(ctx, PersistenceId.of(TYPE_KEY.name(), accountId)));
  }

  private OwnerEntity(ActorContext<Command> context, PersistenceId persistenceId) {
    super(persistenceId, SupervisorStrategy.restartWithBackoff(Duration.ofMillis(200), Duration.ofSeconds(5), 0.1));
    this.context = context;
  }

  @Override
  public State emptyState() {
    return State.EMPTY;
  }

  @Override
  public CommandHandlerWithReply<Command, Event, State> commandHandler() {
    return newCommandHandlerWithReplyBuilder().forAnyState()
        .onCommand(CreateAccount.class, this::onCreateAccount)
        .onCommand(GetAccount.class, (state, cmd) -> Effect().reply(cmd.replyTo(),
            state.account() != null ? StatusReply.success(state.account()) : StatusReply.error("no such account")))
        .onCommand(AddWatch.class, this::onAddWatch)
        .onCommand(WriteRegistrations.class, this::onWriteRegistrations)
        .onCommand(ListWatches.class, (state, cmd) ->
            Effect().reply(cmd.replyTo(), StatusReply.success(new WatchIds(state.watchIds()))))
        .build();
  }

  private ReplyEffect<Event, State> onCreateAccount(State state, CreateAccount cmd) {
    if (state.account() != null) {
      return Effect().reply(cmd.replyTo(), StatusReply.error("an account with id '" + cmd.account().id() + "' exists"));
    }
    return Effect().persist(new AccountCreated(cmd.account())).thenReply(cmd.replyTo(), s -> StatusReply.ack());
  }

  private ReplyEffect<Event, State> onAddWatch(State state, AddWatch cmd) {
    if (state.watchIds().contains(cmd.watchId())) return Effect().reply(cmd.replyTo(), StatusReply.ack());
    if (pending.isEmpty()) context.getSelf().tell(new WriteRegistrations());
    pending.computeIfAbsent(cmd.watchId(), id -> new ArrayList<>()).add(cmd.replyTo());
    return Effect().noReply();
  }

  private ReplyEffect<Event, State> onWriteRegistrations(State state, WriteRegistrations cmd) {
    Map<String, List<ActorRef<StatusReply<Done>>>> batch = new LinkedHashMap<>(pending);
    pending.clear();
    return Effect().persist(new WatchesAdded(List.copyOf(batch.keySet())))
        .thenRun(s -> batch.values().forEach(waiting -> waiting.forEach(r -> r.tell(StatusReply.ack()))))
        .thenNoReply();
  }

  @Override
  public EventHandler<State, Event> eventHandler() {
    return newEventHandlerBuilder().forAnyState()
        .onEvent(AccountCreated.class, (state, e) -> new State(e.account(), state.watchIds()))
        .onEvent(WatchesAdded.class, (state, e) -> state.withWatches(e.watchIds()))
        .build();
  }
}
