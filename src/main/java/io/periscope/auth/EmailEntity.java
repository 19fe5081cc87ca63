package io.periscope.auth;

import io.periscope.persistence.JournalFailures;
import io.periscope.serialization.JsonSerializable;
import java.util.Locale;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehaviorWithEnforcedReplies;

/**
 * The e-mail index: one entity per normalized e-mail address, holding the account id that owns it.
 * Being one single writer per address is what makes e-mails unique across the cluster, and what
 * login looks up.
 */
public final class EmailEntity
    extends EventSourcedBehaviorWithEnforcedReplies<
        EmailEntity.Command, EmailEntity.Event, EmailEntity.State> {

  public static final EntityTypeKey<Command> TYPE_KEY =
      EntityTypeKey.create(Command.class, "Email");

  public static String normalize(String email) {
    return email.trim().toLowerCase(Locale.ROOT);
  }

  /** {@code accountId} is null while the address is free. */
  public record State(String accountId) implements JsonSerializable {}

  public sealed interface Command extends JsonSerializable {}

  /**
   * Succeeds when the address is free or already claimed by the same account; answers whether this
   * claim took it, so only the caller that took it gives it back when its account cannot be made.
   */
  public record Claim(String accountId, ActorRef<StatusReply<Boolean>> replyTo)
      implements Command {}

  /**
   * Frees the address when the given account holds it (undoing a claim whose account could not be
   * made).
   */
  public record Release(String accountId, ActorRef<StatusReply<Done>> replyTo) implements Command {}

  /** Answers the owning account id, or an error when the address is free. */
  public record Lookup(ActorRef<StatusReply<String>> replyTo) implements Command {}

  public sealed interface Event extends JsonSerializable {}

  public record Claimed(String accountId) implements Event {}

  public record Released(String accountId) implements Event {}

  public static Behavior<Command> create(String normalizedEmail) {
    return new EmailEntity(PersistenceId.of(TYPE_KEY.name(), normalizedEmail));
  }

  private EmailEntity(PersistenceId persistenceId) {
    super(persistenceId, JournalFailures.RESTART_WITH_BACKOFF);
  }

  @Override
  public State emptyState() {
    return new State(null);
  }

  @Override
  public CommandHandlerWithReply<Command, Event, State> commandHandler() {
    return newCommandHandlerWithReplyBuilder()
        .forAnyState()
        .onCommand(
            Claim.class,
            (state, cmd) -> {
              if (cmd.accountId().equals(state.accountId())) {
                return Effect().reply(cmd.replyTo(), StatusReply.success(Boolean.FALSE));
              }
              if (state.accountId() != null) {
                return Effect()
                    .reply(
                        cmd.replyTo(), StatusReply.error("the e-mail address is already in use"));
              }
              return Effect()
                  .persist(new Claimed(cmd.accountId()))
                  .thenReply(cmd.replyTo(), s -> StatusReply.success(Boolean.TRUE));
            })
        .onCommand(
            Release.class,
            (state, cmd) ->
                cmd.accountId().equals(state.accountId())
                    ? Effect()
                        .persist(new Released(cmd.accountId()))
                        .thenReply(cmd.replyTo(), s -> StatusReply.ack())
                    : Effect().reply(cmd.replyTo(), StatusReply.ack()))
        .onCommand(
            Lookup.class,
            (state, cmd) ->
                Effect()
                    .reply(
                        cmd.replyTo(),
                        state.accountId() != null
                            ? StatusReply.success(state.accountId())
                            : StatusReply.error("unknown e-mail")))
        .build();
  }

  @Override
  public EventHandler<State, Event> eventHandler() {
    return newEventHandlerBuilder()
        .forAnyState()
        .onEvent(Claimed.class, (state, e) -> new State(e.accountId()))
        .onEvent(Released.class, (state, e) -> new State(null))
        .build();
  }
}
