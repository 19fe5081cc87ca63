package io.periscope.auth;

import io.periscope.entity.JournaledEntity;
import io.periscope.entity.JsonSerializable;
import io.periscope.entity.RecentTimes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;

/**
 * The e-mail index: one entity per normalized e-mail address, holding the account id that owns it.
 * Being one single writer per address is what makes e-mails unique across the cluster, and what
 * login looks up. The entity id is a digest of the address ({@link EmailIndex}).
 *
 * <p>It also meters the mail sent to its address, whoever asked for it: at most one a {@link
 * #MAIL_COOLDOWN} and {@link #MAILS_PER_DAY} a day, so nobody can flood an address (or its owner's
 * journal) through the routes that mail without a sign-in.
 *
 * <p>And it remembers the client networks its account signed in from with a password (the last
 * {@link #SIGN_IN_NETWORKS}), whose right password no sign-in backoff holds back.
 */
public final class EmailEntity
    extends JournaledEntity<EmailEntity.Command, EmailEntity.Event, EmailEntity.State> {

  public static final EntityTypeKey<Command> TYPE_KEY =
      EntityTypeKey.create(Command.class, "Email");

  /**
   * How a service reaches this entity: an e-mail address's entity, by the id {@code EmailIndex}
   * gives the address. Sharded when serving, a local actor for the command line; a service is
   * handed only the lookups of the entities it asks.
   */
  @FunctionalInterface
  public interface Refs {
    RecipientRef<Command> email(String entityId);
  }

  public static final Duration MAIL_COOLDOWN = Duration.ofMinutes(1);
  public static final int MAILS_PER_DAY = 10;
  public static final int SIGN_IN_NETWORKS = 16;

  public static String normalize(String email) {
    return email.trim().toLowerCase(Locale.ROOT);
  }

  /**
   * {@code accountId} is null while the address is free; {@code mailed}: when mail went to it in
   * the last day, oldest first; {@code signInNetworks}: the networks its account signed in from,
   * oldest first (both absent in snapshots of older versions).
   */
  public record State(
      String accountId, List<Instant> mailed, Invitation invitation, List<String> signInNetworks)
      implements JsonSerializable {
    public State {
      mailed = mailed == null ? List.of() : List.copyOf(mailed);
      signInNetworks = signInNetworks == null ? List.of() : List.copyOf(signInNetworks);
    }

    public State(String accountId, List<Instant> mailed) {
      this(accountId, mailed, null, null);
    }

    /**
     * Claiming the address spends its invitation: it works once. A new holder starts without the
     * networks of the one before.
     */
    State withAccount(String id) {
      return new State(id, mailed, id == null ? invitation : null, null);
    }

    State signedInFrom(String network) {
      List<String> next = new ArrayList<>(signInNetworks);
      next.add(network);
      if (next.size() > SIGN_IN_NETWORKS) next.remove(0);
      return new State(accountId, mailed, invitation, next);
    }

    boolean invited(String tokenHash, Instant now) {
      return accountId == null
          && invitation != null
          && now.isBefore(invitation.expiresAt())
          && io.periscope.auth.MailedTokens.sameHash(invitation.tokenHash(), tokenHash);
    }

    /** Whether one more mail may go out at {@code now}. */
    boolean mayMail(Instant now) {
      List<Instant> today = within(now);
      return today.size() < MAILS_PER_DAY
          && (today.isEmpty() || !today.get(today.size() - 1).plus(MAIL_COOLDOWN).isAfter(now));
    }

    State mailedAt(Instant at) {
      return new State(
          accountId,
          RecentTimes.adding(mailed, at, Duration.ofDays(1)),
          invitation,
          signInNetworks);
    }

    private List<Instant> within(Instant now) {
      return RecentTimes.within(mailed, now, Duration.ofDays(1));
    }
  }

  /** An administrator's invitation to register this address: the hash of the mailed token. */
  public record Invitation(String tokenHash, Instant expiresAt) implements JsonSerializable {}

  public sealed interface Command extends JsonSerializable {}

  /** Keeps an invitation, replacing an earlier one; refused while an account holds the address. */
  public record Invite(Invitation invitation, ActorRef<StatusReply<Done>> replyTo)
      implements Command {}

  /** Succeeds when the address is free and its live invitation has this hash. */
  public record CheckInvitation(String tokenHash, Instant now, ActorRef<StatusReply<Done>> replyTo)
      implements Command {}

  public static final String ADDRESS_TAKEN = "the e-mail address is already in use";

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

  /**
   * Reserves one mail to the address at {@code now}; refused (and nothing written) while the
   * address is cooling down or has had its mails of the day.
   */
  public record ReserveMail(Instant now, ActorRef<StatusReply<Done>> replyTo) implements Command {}

  public static final String MAIL_SUPPRESSED = "the address had its mail for now";

  /** Remembers that the address's account signed in from {@code network}. */
  public record RememberSignIn(String network, ActorRef<StatusReply<Done>> replyTo)
      implements Command {}

  /** Whether the address's account signed in from {@code network} before. */
  public record SignedInBefore(String network, ActorRef<StatusReply<Boolean>> replyTo)
      implements Command {}

  public sealed interface Event extends JsonSerializable {}

  public record SignedInFrom(String network) implements Event {}

  public record MailReserved(Instant at) implements Event {}

  public record Invited(Invitation invitation) implements Event {}

  public record Claimed(String accountId) implements Event {}

  public record Released(String accountId) implements Event {}

  public static Behavior<Command> create(String entityId) {
    return new EmailEntity(entityId);
  }

  private EmailEntity(String entityId) {
    super(TYPE_KEY, entityId);
  }

  @Override
  public State emptyState() {
    return new State(null, List.of());
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
            ReserveMail.class,
            (state, cmd) ->
                state.mayMail(cmd.now())
                    ? Effect()
                        .persist(new MailReserved(cmd.now()))
                        .thenReply(cmd.replyTo(), s -> StatusReply.ack())
                    : Effect().reply(cmd.replyTo(), StatusReply.error(MAIL_SUPPRESSED)))
        .onCommand(
            Invite.class,
            (state, cmd) ->
                state.accountId() != null
                    ? Effect().reply(cmd.replyTo(), StatusReply.error(ADDRESS_TAKEN))
                    : Effect()
                        .persist(new Invited(cmd.invitation()))
                        .thenReply(cmd.replyTo(), s -> StatusReply.ack()))
        .onCommand(
            CheckInvitation.class,
            (state, cmd) ->
                Effect()
                    .reply(
                        cmd.replyTo(),
                        state.invited(cmd.tokenHash(), cmd.now())
                            ? StatusReply.ack()
                            : StatusReply.error(MailedTokens.TOKEN_REFUSED)))
        .onCommand(
            RememberSignIn.class,
            (state, cmd) ->
                state.accountId() == null || state.signInNetworks().contains(cmd.network())
                    ? Effect().reply(cmd.replyTo(), StatusReply.ack())
                    : Effect()
                        .persist(new SignedInFrom(cmd.network()))
                        .thenReply(cmd.replyTo(), s -> StatusReply.ack()))
        .onCommand(
            SignedInBefore.class,
            (state, cmd) ->
                Effect()
                    .reply(
                        cmd.replyTo(),
                        StatusReply.success(state.signInNetworks().contains(cmd.network()))))
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
        .onEvent(Claimed.class, (state, e) -> state.withAccount(e.accountId()))
        .onEvent(Released.class, (state, e) -> state.withAccount(null))
        .onEvent(MailReserved.class, (state, e) -> state.mailedAt(e.at()))
        .onEvent(
            Invited.class,
            (state, e) ->
                new State(
                    state.accountId(), state.mailed(), e.invitation(), state.signInNetworks()))
        .onEvent(SignedInFrom.class, (state, e) -> state.signedInFrom(e.network()))
        .build();
  }
}
