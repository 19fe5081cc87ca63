package io.periscope.auth;

import io.periscope.entity.JournaledEntity;
import io.periscope.entity.JsonSerializable;
import java.time.Instant;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;

/**
 * One account at an identity provider ({@link ProviderIdentity#linkId}: provider, issuer and
 * subject) and the Periscope account it signs in. A link is made once, when the provider's sign-in
 * makes the account, or when the holder of an existing account confirms it through the link mailed
 * to the account's address ({@link #Propose}, then {@link #Confirm}); it never changes after.
 */
public final class IdentityLinkEntity
    extends JournaledEntity<
        IdentityLinkEntity.Command, IdentityLinkEntity.Event, IdentityLinkEntity.State> {

  public static final EntityTypeKey<Command> TYPE_KEY =
      EntityTypeKey.create(Command.class, "IdentityLink");

  /**
   * How a service reaches this entity: an account at an identity provider, by {@code
   * ProviderIdentity#linkId}. Sharded when serving, a local actor for the command line; a service
   * is handed only the lookups of the entities it asks.
   */
  @FunctionalInterface
  public interface Refs {
    RecipientRef<Command> identityLink(String linkId);
  }

  /**
   * A link waiting for the account holder: the provider's name, the mailed token's hash, until it
   * expires.
   *
   * @param login the person's name at the provider, shown before linking; null in a proposal made
   *     before it was kept
   */
  public record Pending(
      String accountId, String provider, String tokenHash, Instant expiresAt, String login)
      implements JsonSerializable {
    boolean accepts(String hash, Instant now) {
      return now.isBefore(expiresAt) && MailedTokens.sameHash(tokenHash, hash);
    }
  }

  /** {@code accountId} is null until linked; {@code pending} the latest proposal, if any. */
  public record State(String accountId, Pending pending) implements JsonSerializable {}

  public sealed interface Command extends JsonSerializable {}

  /** The linked account; refused while there is none. */
  public record Lookup(ActorRef<StatusReply<String>> replyTo) implements Command {}

  /** Links a new account; refused when another account is linked. */
  public record Link(String accountId, ActorRef<StatusReply<Done>> replyTo) implements Command {}

  /** Keeps a mailed token's hash for linking {@code accountId}; replaces an earlier proposal. */
  public record Propose(Pending pending, ActorRef<StatusReply<Done>> replyTo) implements Command {}

  /**
   * Reads what a mailed token would link, without using it: answers the proposal; refused for any
   * other token.
   */
  public record Peek(String tokenHash, Instant now, ActorRef<StatusReply<Pending>> replyTo)
      implements Command {}

  /** Uses a mailed token: answers the link it made; refused for any other token. */
  public record Confirm(String tokenHash, Instant now, ActorRef<StatusReply<Pending>> replyTo)
      implements Command {}

  public sealed interface Event extends JsonSerializable {}

  public record Linked(String accountId) implements Event {}

  public record LinkProposed(Pending pending) implements Event {}

  public static Behavior<Command> create(String entityId) {
    return new IdentityLinkEntity(entityId);
  }

  private IdentityLinkEntity(String entityId) {
    super(TYPE_KEY, entityId);
  }

  @Override
  public State emptyState() {
    return new State(null, null);
  }

  @Override
  public CommandHandlerWithReply<Command, Event, State> commandHandler() {
    return newCommandHandlerWithReplyBuilder()
        .forAnyState()
        .onCommand(
            Lookup.class,
            (state, cmd) ->
                Effect()
                    .reply(
                        cmd.replyTo(),
                        state.accountId() != null
                            ? StatusReply.success(state.accountId())
                            : StatusReply.error("not linked")))
        .onCommand(
            Link.class,
            (state, cmd) -> {
              if (cmd.accountId().equals(state.accountId()))
                return Effect().reply(cmd.replyTo(), StatusReply.ack());
              if (state.accountId() != null)
                return Effect()
                    .reply(cmd.replyTo(), StatusReply.error("linked to another account"));
              return Effect()
                  .persist(new Linked(cmd.accountId()))
                  .thenReply(cmd.replyTo(), s -> StatusReply.ack());
            })
        .onCommand(
            Propose.class,
            (state, cmd) ->
                state.accountId() != null
                    ? Effect().reply(cmd.replyTo(), StatusReply.error("linked already"))
                    : Effect()
                        .persist(new LinkProposed(cmd.pending()))
                        .thenReply(cmd.replyTo(), s -> StatusReply.ack()))
        .onCommand(
            Peek.class,
            (state, cmd) ->
                Effect()
                    .reply(
                        cmd.replyTo(),
                        acceptsNow(state, cmd.tokenHash(), cmd.now())
                            ? StatusReply.success(state.pending())
                            : StatusReply.error(MailedTokens.TOKEN_REFUSED)))
        .onCommand(
            Confirm.class,
            (state, cmd) ->
                acceptsNow(state, cmd.tokenHash(), cmd.now())
                    ? Effect()
                        .persist(new Linked(state.pending().accountId()))
                        .thenReply(cmd.replyTo(), s -> StatusReply.success(state.pending()))
                    : Effect().reply(cmd.replyTo(), StatusReply.error(MailedTokens.TOKEN_REFUSED)))
        .build();
  }

  /** Whether the mailed token of this hash would link now. */
  private static boolean acceptsNow(State state, String tokenHash, Instant now) {
    return state.accountId() == null
        && state.pending() != null
        && state.pending().accepts(tokenHash, now);
  }

  @Override
  public EventHandler<State, Event> eventHandler() {
    return newEventHandlerBuilder()
        .forAnyState()
        .onEvent(Linked.class, (state, e) -> new State(e.accountId(), null))
        .onEvent(LinkProposed.class, (state, e) -> new State(null, e.pending()))
        .build();
  }
}
