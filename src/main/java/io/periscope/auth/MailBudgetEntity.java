package io.periscope.auth;

import io.periscope.entity.JournaledEntity;
import io.periscope.entity.JsonSerializable;
import io.periscope.entity.RecentTimes;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.ReplyEffect;

/**
 * The instance's account mails of the last hour (one entity, {@link #ID}): every mail that carries
 * a link (verification, reset, invitation, channel address, identity link) takes a place first, so
 * the limit holds across the nodes of a cluster. The first refusal of an hour is marked, so the
 * operator is alerted once an hour, not once a mail.
 */
public final class MailBudgetEntity
    extends JournaledEntity<
        MailBudgetEntity.Command, MailBudgetEntity.Event, MailBudgetEntity.State> {

  public static final EntityTypeKey<Command> TYPE_KEY =
      EntityTypeKey.create(Command.class, "MailBudget");

  public static final String ID = "instance";

  public static final Duration SPAN = Duration.ofHours(1);

  /** How a service reaches this entity: the instance's one. */
  @FunctionalInterface
  public interface Refs {
    RecipientRef<Command> mailBudget();
  }

  /**
   * @param mailed when mails went out in the last hour, oldest first
   * @param reachedAt when a mail was last refused for the first time in an hour (null: never)
   */
  public record State(List<Instant> mailed, Instant reachedAt) implements JsonSerializable {
    public State {
      mailed = mailed == null ? List.of() : List.copyOf(mailed);
    }
  }

  /**
   * Whether the mail may go out; {@code firstRefusal}: the first refusal this hour, which the
   * operator hears of.
   */
  public record Reservation(boolean granted, boolean firstRefusal, int mailsThisHour)
      implements JsonSerializable {}

  public sealed interface Command extends JsonSerializable {}

  /** Takes a place for one mail at {@code now} under {@code limit} an hour (0: no limit). */
  public record Reserve(Instant now, int limit, ActorRef<StatusReply<Reservation>> replyTo)
      implements Command {}

  /**
   * Answers whether one more mail fits now, taking no place; a refusal is marked as {@link
   * Reserve}'s is.
   */
  public record Peek(Instant now, int limit, ActorRef<StatusReply<Reservation>> replyTo)
      implements Command {}

  public sealed interface Event extends JsonSerializable {}

  public record MailReserved(Instant at) implements Event {}

  public record BudgetReached(Instant at) implements Event {}

  public static Behavior<Command> create(String id) {
    return new MailBudgetEntity(id);
  }

  private MailBudgetEntity(String entityId) {
    super(TYPE_KEY, entityId);
  }

  @Override
  public State emptyState() {
    return new State(List.of(), null);
  }

  @Override
  public CommandHandlerWithReply<Command, Event, State> commandHandler() {
    return newCommandHandlerWithReplyBuilder()
        .forAnyState()
        .onCommand(Reserve.class, this::onReserve)
        .onCommand(
            Peek.class,
            (state, cmd) -> {
              int sent = RecentTimes.within(state.mailed(), cmd.now(), SPAN).size();
              if (RecentTimes.room(state.mailed(), cmd.now(), SPAN, cmd.limit()))
                return Effect()
                    .reply(cmd.replyTo(), StatusReply.success(new Reservation(true, false, sent)));
              return refused(state, cmd.now(), sent, cmd.replyTo());
            })
        .build();
  }

  private ReplyEffect<Event, State> onReserve(State state, Reserve cmd) {
    int sent = RecentTimes.within(state.mailed(), cmd.now(), SPAN).size();
    if (RecentTimes.room(state.mailed(), cmd.now(), SPAN, cmd.limit()))
      return Effect()
          .persist(new MailReserved(cmd.now()))
          .thenReply(
              cmd.replyTo(), s -> StatusReply.success(new Reservation(true, false, sent + 1)));
    return refused(state, cmd.now(), sent, cmd.replyTo());
  }

  /** A refusal; the first of an hour is marked and answered as such. */
  private ReplyEffect<Event, State> refused(
      State state, Instant now, int sent, ActorRef<StatusReply<Reservation>> replyTo) {
    boolean first = state.reachedAt() == null || !state.reachedAt().plus(SPAN).isAfter(now);
    if (!first)
      return Effect().reply(replyTo, StatusReply.success(new Reservation(false, false, sent)));
    return Effect()
        .persist(new BudgetReached(now))
        .thenReply(replyTo, s -> StatusReply.success(new Reservation(false, true, sent)));
  }

  @Override
  public EventHandler<State, Event> eventHandler() {
    return newEventHandlerBuilder()
        .forAnyState()
        .onEvent(
            MailReserved.class,
            (state, e) ->
                new State(RecentTimes.adding(state.mailed(), e.at(), SPAN), state.reachedAt()))
        .onEvent(BudgetReached.class, (state, e) -> new State(state.mailed(), e.at()))
        .build();
  }
}
