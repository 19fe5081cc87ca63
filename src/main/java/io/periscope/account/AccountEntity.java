package io.periscope.account;

import io.periscope.auth.MailedTokens;
import io.periscope.auth.Role;
import io.periscope.auth.TokenPurpose;
import io.periscope.entity.EntityRefusal;
import io.periscope.entity.JournaledEntity;
import io.periscope.entity.JsonSerializable;
import io.periscope.watch.Actor;
import io.periscope.watch.Watch;
import io.periscope.watch.WatchEntity;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.ReplyEffect;

/**
 * One per account (entity id = account id): the account's credentials, role and state (enabled,
 * disabled, deleted), the sign-ins its holder ended, its personal API tokens (hashed), the hashes
 * of the single-use tokens mailed to it (verification, password reset), and the id of every watch
 * it holds, in creation order. {@code GET /watches} asks each of those watches.
 *
 * <p>An id leaves only once its watch is gone: a delete goes through this entity ({@link
 * DeleteWatch}), which deletes the watch and then the id, and a listing that meets an id whose
 * watch is not there asks this entity to check ({@link ForgetWatchIfGone}), so an id a crash left
 * behind is asked about once. While it waits for the watch's answer, the entity holds back every
 * other change of its ids (stashed): a create of the same id racing the delete registers again
 * after its watch exists ({@link AddWatch} once more), and so is never dropped from the list.
 *
 * <p>An owner's run-all jobs are another entity's ({@link RunAllEntity}), given the ids listed
 * here.
 */
public final class AccountEntity
    extends JournaledEntity<AccountEntity.Command, AccountEntity.Event, AccountEntity.State> {

  /** Named "Owner" as before the rename: the name is every account's persistence id prefix. */
  public static final EntityTypeKey<Command> TYPE_KEY =
      EntityTypeKey.create(Command.class, "Owner");

  /**
   * How a service reaches this entity: an account's account entity. Sharded when serving, a local
   * actor for the command line; a service is handed only the lookups of the entities it asks.
   */
  @FunctionalInterface
  public interface Refs {
    RecipientRef<Command> account(String accountId);
  }

  // ---- state
  // -------------------------------------------------------------------------------------

  /**
   * {@code account} is null until the account is created; watch ids may be registered either way.
   * {@code tokens} are the live single-use tokens mailed to the account, as hashes, at most one per
   * purpose.
   */
  public record State(
      Account account,
      WatchRegistry watchIds,
      List<PendingToken> tokens,
      List<EndedSession> endedSessions,
      List<ApiToken> apiTokens,
      Boolean deleted)
      implements JsonSerializable {
    static final State EMPTY =
        new State(null, WatchRegistry.EMPTY, List.of(), List.of(), List.of(), false);

    public State {
      watchIds = watchIds == null ? WatchRegistry.EMPTY : watchIds;
      tokens = tokens == null ? List.of() : List.copyOf(tokens);
      endedSessions = endedSessions == null ? List.of() : List.copyOf(endedSessions);
      apiTokens = apiTokens == null ? List.of() : List.copyOf(apiTokens);
      deleted = deleted != null && deleted;
    }

    public State(Account account, WatchRegistry watchIds, List<PendingToken> tokens) {
      this(account, watchIds, tokens, List.of(), List.of(), false);
    }

    State withWatches(List<String> added) {
      return new State(account, watchIds.with(added), tokens, endedSessions, apiTokens, deleted);
    }

    State withoutWatch(String removed) {
      return new State(
          account, watchIds.without(removed), tokens, endedSessions, apiTokens, deleted);
    }

    State withAccount(Account changed, List<PendingToken> remaining) {
      return new State(changed, watchIds, remaining, endedSessions, apiTokens, deleted);
    }

    /** The account changed by {@code change}; nothing when there is none. */
    State changed(UnaryOperator<Account> change) {
      return account == null ? this : withAccount(change.apply(account), tokens);
    }

    State withEndedSessions(List<EndedSession> ended) {
      return new State(account, watchIds, tokens, ended, apiTokens, deleted);
    }

    State withApiTokens(List<ApiToken> changed) {
      return new State(account, watchIds, tokens, endedSessions, changed, deleted);
    }

    /** Deleted: no account, no token of any kind; the watch ids stay registered. */
    State asDeleted() {
      return new State(null, watchIds, List.of(), List.of(), List.of(), true);
    }

    /** Whether a live token of {@code purpose} has this hash. */
    boolean accepts(TokenPurpose purpose, String tokenHash, Instant now) {
      return account != null && tokens.stream().anyMatch(t -> t.accepts(purpose, tokenHash, now));
    }

    List<PendingToken> tokensBut(TokenPurpose... used) {
      List<TokenPurpose> gone = List.of(used);
      return tokens.stream().filter(t -> !gone.contains(t.purpose())).toList();
    }

    Access access() {
      return new Access(
          account,
          deleted,
          endedSessions.stream().map(EndedSession::sessionId).toList(),
          apiTokens);
    }
  }

  /**
   * What a node needs to judge a caller's token: the account (null when there is none), whether it
   * was deleted, the sign-ins ended one by one, and the personal API tokens (hashes only).
   */
  public record Access(
      Account account, boolean deleted, List<String> endedSessions, List<ApiToken> apiTokens)
      implements JsonSerializable {
    public Access {
      endedSessions = endedSessions == null ? List.of() : List.copyOf(endedSessions);
      apiTokens = apiTokens == null ? List.of() : List.copyOf(apiTokens);
    }
  }

  /** The watch ids of an owner, oldest first. */
  public record WatchIds(List<String> ids) implements JsonSerializable {}

  // ---- commands
  // ----------------------------------------------------------------------------------

  public sealed interface Command extends JsonSerializable {}

  /** Refused when the account exists. */
  public record CreateAccount(Account account, ActorRef<StatusReply<Done>> replyTo)
      implements Command {}

  /** Refused when there is no account. */
  public record GetAccount(ActorRef<StatusReply<Account>> replyTo) implements Command {}

  /**
   * Keeps the hash of a new single-use token, replacing the account's earlier one of the same
   * purpose, and answers the account (whose address the token is mailed to). Refused without an
   * account, and for a verification token when the address is verified already.
   */
  public record IssueToken(
      TokenPurpose purpose,
      String tokenHash,
      Instant expiresAt,
      ActorRef<StatusReply<Account>> replyTo)
      implements Command {}

  /**
   * Answers the account when the token is live, without using it (a reset checks its new password
   * first).
   */
  public record CheckToken(
      TokenPurpose purpose, String tokenHash, Instant now, ActorRef<StatusReply<Account>> replyTo)
      implements Command {}

  /** Uses a verification token: the address is proven. Answers the changed account. */
  public record VerifyEmail(String tokenHash, Instant now, ActorRef<StatusReply<Account>> replyTo)
      implements Command {}

  /**
   * Uses a reset token: the new password replaces the old, the address is proven, earlier sign-ins
   * end.
   */
  public record ResetPassword(
      String tokenHash, String newPasswordHash, Instant now, ActorRef<StatusReply<Account>> replyTo)
      implements Command {}

  /**
   * An identity provider vouched for the address. An account that was not verified loses its
   * password too: whoever registered it never proved the address, so the password may be a
   * squatter's. Refused without an account.
   */
  public record VerifiedByProvider(String provider, ActorRef<StatusReply<Account>> replyTo)
      implements Command {}

  /**
   * Idempotent: registering a known id changes nothing. With {@code most}, a new id is refused with
   * {@link #NO_ROOM_FOR_WATCH} when the account holds that many ids, those being written included.
   * Acknowledged once the id is in the journal; the ids that arrive while one write is under way go
   * together in the next, so one owner's concurrent creates do not queue one journal write each.
   */
  public record AddWatch(String watchId, Integer most, ActorRef<StatusReply<Done>> replyTo)
      implements Command {
    public AddWatch(String watchId, ActorRef<StatusReply<Done>> replyTo) {
      this(watchId, null, replyTo);
    }
  }

  /**
   * What an {@link AddWatch} with a bound {@code most} is refused with when the account already
   * holds that many ids: creates checked at once cannot both take the last place.
   */
  public static final String NO_ROOM_FOR_WATCH = "the account holds as many watches as it may";

  /** Writes the registrations gathered so far (sent by the entity to itself). */
  record WriteRegistrations() implements Command {}

  public record ListWatches(ActorRef<StatusReply<WatchIds>> replyTo) implements Command {}

  /** What a node needs to judge the account's tokens; answered with or without an account. */
  public record GetAccess(ActorRef<StatusReply<Access>> replyTo) implements Command {}

  /**
   * Ends one sign-in (its token's session id) until {@code until}, or, with a null session id,
   * every sign-in so far. Refused without an account.
   */
  public record EndSession(
      String sessionId, Instant until, Instant now, ActorRef<StatusReply<Access>> replyTo)
      implements Command {}

  /**
   * A signed-in owner's new password: refused when the password is no longer {@code expectedHash}
   * (it changed meanwhile). Every earlier sign-in ends.
   */
  public record ChangePassword(
      String expectedHash, String newHash, ActorRef<StatusReply<Account>> replyTo)
      implements Command {}

  /** Refused without an account; an unchanged role persists nothing. */
  public record ChangeRole(Role role, ActorRef<StatusReply<Account>> replyTo) implements Command {}

  /** Refused without an account; an unchanged state persists nothing. */
  public record SetDisabled(boolean disabled, ActorRef<StatusReply<Account>> replyTo)
      implements Command {}

  /** Deletes the account: refused without one. Answers the account as it was. */
  public record DeleteAccount(Instant at, ActorRef<StatusReply<Account>> replyTo)
      implements Command {}

  /** At most this many personal API tokens per account. */
  public static final int MAX_API_TOKENS = 50;

  /** Refused without an account, beyond {@link #MAX_API_TOKENS}, and for a name in use. */
  public record CreateApiToken(ApiToken token, ActorRef<StatusReply<Done>> replyTo)
      implements Command {}

  /** Refused for an unknown token id. */
  public record RevokeApiToken(String tokenId, ActorRef<StatusReply<Done>> replyTo)
      implements Command {}

  /** A token was used at {@code at}: written at most once a minute per token. No answer. */
  public record TouchApiToken(String tokenId, Instant at) implements Command {}

  /** How finely a token's last use is kept: a use within this of the last writes nothing. */
  public static final Duration LAST_USED_GRAIN = Duration.ofMinutes(1);

  /**
   * Deletes the watch, then unregisters its id. Refused with the watch's own refusal ({@code watch
   * not found}) when there is no such watch, an id registered for it unregistered all the same;
   * refused with {@link #WATCH_UNANSWERED} when the watch did not answer in time. {@code actor}
   * deletes it (the watch's history of its definition records who).
   */
  public record DeleteWatch(String watchId, Actor actor, ActorRef<StatusReply<Done>> replyTo)
      implements Command {}

  /** Unregisters the id if its watch is not there (a listing met it); answers nobody. */
  public record ForgetWatchIfGone(String watchId) implements Command {}

  /**
   * The watch answered whether it is gone (sent by the entity to itself); {@code refusal} is what
   * the asker is refused with (none when null), {@code replyTo} null for a check nobody waits for.
   */
  record WatchChecked(
      String watchId,
      boolean gone,
      EntityRefusal.Code code,
      String refusal,
      ActorRef<StatusReply<Done>> replyTo)
      implements Command {
    StatusReply<Done> answer() {
      return refusal == null ? StatusReply.ack() : EntityRefusal.reply(code, refusal);
    }
  }

  public static final String WATCH_UNANSWERED = "the watch did not answer in time";

  // ---- events
  // ------------------------------------------------------------------------------------

  public sealed interface Event extends JsonSerializable {}

  public record AccountCreated(Account account) implements Event {}

  public record WatchesAdded(List<String> watchIds) implements Event {}

  /** The watch is gone (deleted, or never created): its id leaves the list. */
  public record WatchRemoved(String watchId) implements Event {}

  public record TokenIssued(TokenPurpose purpose, String tokenHash, Instant expiresAt)
      implements Event {}

  /** {@code via} is {@code e-mail} for a mailed token, else the identity provider's name. */
  public record EmailVerified(String via, boolean passwordRevoked) implements Event {
    public static final String BY_EMAIL = "e-mail";
  }

  public record PasswordReset(String passwordHash) implements Event {}

  /** One sign-in ended (until its token expires); a null session id ended every one so far. */
  public record SessionEnded(String sessionId, Instant until, Instant at) implements Event {}

  public record RoleChanged(Role role) implements Event {}

  public record DisabledChanged(boolean disabled) implements Event {}

  public record AccountDeleted(Instant at) implements Event {}

  public record ApiTokenCreated(ApiToken token) implements Event {}

  public record ApiTokenRevoked(String tokenId) implements Event {}

  public record ApiTokenUsed(String tokenId, Instant at) implements Event {}

  // ---- behaviour
  // ---------------------------------------------------------------------------------

  private final ActorContext<Command> context;
  private final WatchEntity.Refs watches;

  /** How long a watch may take to answer whether it is gone. */
  static final Duration WATCH_CHECK_TIMEOUT = Duration.ofSeconds(10);

  /** The id whose watch is being asked; changes of the ids wait (stashed) until it answered. */
  private String checking;

  /**
   * Registrations waiting for the next write, with who waits for each. In memory: a crash answers
   * none of them.
   */
  private final Map<String, List<ActorRef<StatusReply<Done>>>> pending = new LinkedHashMap<>();

  /**
   * @param watches where this owner's watches are asked whether they are gone
   */
  public static Behavior<Command> create(String accountId, WatchEntity.Refs watches) {
    return Behaviors.setup(ctx -> new AccountEntity(ctx, accountId, watches));
  }

  private AccountEntity(ActorContext<Command> context, String entityId, WatchEntity.Refs watches) {
    super(TYPE_KEY, entityId);
    this.context = context;
    this.watches = watches;
  }

  @Override
  public State emptyState() {
    return State.EMPTY;
  }

  @Override
  public CommandHandlerWithReply<Command, Event, State> commandHandler() {
    return newCommandHandlerWithReplyBuilder()
        .forAnyState()
        .onCommand(CreateAccount.class, this::onCreateAccount)
        .onCommand(
            GetAccount.class,
            (state, cmd) ->
                Effect()
                    .reply(
                        cmd.replyTo(),
                        state.account() != null
                            ? StatusReply.success(state.account())
                            : StatusReply.error("no such account")))
        .onCommand(IssueToken.class, this::onIssueToken)
        .onCommand(
            CheckToken.class,
            (state, cmd) ->
                Effect()
                    .reply(
                        cmd.replyTo(),
                        state.accepts(cmd.purpose(), cmd.tokenHash(), cmd.now())
                            ? StatusReply.success(state.account())
                            : StatusReply.error(MailedTokens.TOKEN_REFUSED)))
        .onCommand(VerifyEmail.class, this::onVerifyEmail)
        .onCommand(ResetPassword.class, this::onResetPassword)
        .onCommand(VerifiedByProvider.class, this::onVerifiedByProvider)
        .onCommand(
            GetAccess.class,
            (state, cmd) -> Effect().reply(cmd.replyTo(), StatusReply.success(state.access())))
        .onCommand(EndSession.class, this::onEndSession)
        .onCommand(ChangePassword.class, this::onChangePassword)
        .onCommand(ChangeRole.class, this::onChangeRole)
        .onCommand(SetDisabled.class, this::onSetDisabled)
        .onCommand(DeleteAccount.class, this::onDeleteAccount)
        .onCommand(CreateApiToken.class, this::onCreateApiToken)
        .onCommand(RevokeApiToken.class, this::onRevokeApiToken)
        .onCommand(TouchApiToken.class, this::onTouchApiToken)
        .onCommand(AddWatch.class, this::onAddWatch)
        .onCommand(WriteRegistrations.class, this::onWriteRegistrations)
        .onCommand(DeleteWatch.class, this::onDeleteWatch)
        .onCommand(ForgetWatchIfGone.class, this::onForgetWatchIfGone)
        .onCommand(WatchChecked.class, this::onWatchChecked)
        .onCommand(
            ListWatches.class,
            (state, cmd) ->
                Effect()
                    .reply(
                        cmd.replyTo(), StatusReply.success(new WatchIds(state.watchIds().ids()))))
        .build();
  }

  private ReplyEffect<Event, State> onCreateAccount(State state, CreateAccount cmd) {
    // a deleted account's id stays taken: tokens issued to it must never sign another in
    if (state.account() != null || state.deleted()) {
      return Effect()
          .reply(
              cmd.replyTo(),
              StatusReply.error("an account with id '" + cmd.account().id() + "' exists"));
    }
    return Effect()
        .persist(new AccountCreated(cmd.account()))
        .thenReply(cmd.replyTo(), s -> StatusReply.ack());
  }

  private ReplyEffect<Event, State> onIssueToken(State state, IssueToken cmd) {
    if (state.account() == null)
      return Effect().reply(cmd.replyTo(), StatusReply.error("no such account"));
    if (cmd.purpose() == TokenPurpose.VERIFY_EMAIL && state.account().emailVerified()) {
      return Effect()
          .reply(cmd.replyTo(), StatusReply.error("the e-mail address is verified already"));
    }
    return Effect()
        .persist(new TokenIssued(cmd.purpose(), cmd.tokenHash(), cmd.expiresAt()))
        .thenReply(cmd.replyTo(), s -> StatusReply.success(s.account()));
  }

  private ReplyEffect<Event, State> onVerifyEmail(State state, VerifyEmail cmd) {
    if (!state.accepts(TokenPurpose.VERIFY_EMAIL, cmd.tokenHash(), cmd.now())) {
      return Effect().reply(cmd.replyTo(), StatusReply.error(MailedTokens.TOKEN_REFUSED));
    }
    return Effect()
        .persist(new EmailVerified(EmailVerified.BY_EMAIL, false))
        .thenReply(cmd.replyTo(), s -> StatusReply.success(s.account()));
  }

  private ReplyEffect<Event, State> onResetPassword(State state, ResetPassword cmd) {
    if (!state.accepts(TokenPurpose.RESET_PASSWORD, cmd.tokenHash(), cmd.now())) {
      return Effect().reply(cmd.replyTo(), StatusReply.error(MailedTokens.TOKEN_REFUSED));
    }
    return Effect()
        .persist(new PasswordReset(cmd.newPasswordHash()))
        .thenReply(cmd.replyTo(), s -> StatusReply.success(s.account()));
  }

  private ReplyEffect<Event, State> onVerifiedByProvider(State state, VerifiedByProvider cmd) {
    if (state.account() == null)
      return Effect().reply(cmd.replyTo(), StatusReply.error("no such account"));
    if (state.account().emailVerified())
      return Effect().reply(cmd.replyTo(), StatusReply.success(state.account()));
    return Effect()
        .persist(new EmailVerified(cmd.provider(), state.account().hasPassword()))
        .thenReply(cmd.replyTo(), s -> StatusReply.success(s.account()));
  }

  private <T> ReplyEffect<Event, State> noAccount(ActorRef<StatusReply<T>> replyTo) {
    return Effect().reply(replyTo, StatusReply.error(NO_SUCH_ACCOUNT));
  }

  public static final String NO_SUCH_ACCOUNT = "no such account";

  private ReplyEffect<Event, State> onEndSession(State state, EndSession cmd) {
    if (state.account() == null) return noAccount(cmd.replyTo());
    return Effect()
        .persist(new SessionEnded(cmd.sessionId(), cmd.until(), cmd.now()))
        .thenReply(cmd.replyTo(), s -> StatusReply.success(s.access()));
  }

  private ReplyEffect<Event, State> onChangePassword(State state, ChangePassword cmd) {
    if (state.account() == null) return noAccount(cmd.replyTo());
    if (!java.util.Objects.equals(state.account().passwordHash(), cmd.expectedHash()))
      return Effect().reply(cmd.replyTo(), StatusReply.error(PASSWORD_CHANGED_MEANWHILE));
    return Effect()
        .persist(new PasswordReset(cmd.newHash()))
        .thenReply(cmd.replyTo(), s -> StatusReply.success(s.account()));
  }

  public static final String PASSWORD_CHANGED_MEANWHILE =
      "the password was changed meanwhile; sign in again";

  private ReplyEffect<Event, State> onChangeRole(State state, ChangeRole cmd) {
    if (state.account() == null) return noAccount(cmd.replyTo());
    if (state.account().role() == cmd.role())
      return Effect().reply(cmd.replyTo(), StatusReply.success(state.account()));
    return Effect()
        .persist(new RoleChanged(cmd.role()))
        .thenReply(cmd.replyTo(), s -> StatusReply.success(s.account()));
  }

  private ReplyEffect<Event, State> onSetDisabled(State state, SetDisabled cmd) {
    if (state.account() == null) return noAccount(cmd.replyTo());
    if (state.account().disabled() == cmd.disabled())
      return Effect().reply(cmd.replyTo(), StatusReply.success(state.account()));
    return Effect()
        .persist(new DisabledChanged(cmd.disabled()))
        .thenReply(cmd.replyTo(), s -> StatusReply.success(s.account()));
  }

  private ReplyEffect<Event, State> onDeleteAccount(State state, DeleteAccount cmd) {
    if (state.account() == null) return noAccount(cmd.replyTo());
    Account was = state.account();
    return Effect()
        .persist(new AccountDeleted(cmd.at()))
        .thenReply(cmd.replyTo(), s -> StatusReply.success(was));
  }

  private ReplyEffect<Event, State> onCreateApiToken(State state, CreateApiToken cmd) {
    if (state.account() == null) return noAccount(cmd.replyTo());
    if (state.apiTokens().size() >= MAX_API_TOKENS)
      return Effect()
          .reply(
              cmd.replyTo(),
              StatusReply.error("an account has at most " + MAX_API_TOKENS + " API tokens"));
    if (state.apiTokens().stream().anyMatch(t -> t.name().equals(cmd.token().name())))
      return Effect()
          .reply(
              cmd.replyTo(), StatusReply.error("a token with this name exists; revoke it first"));
    return Effect()
        .persist(new ApiTokenCreated(cmd.token()))
        .thenReply(cmd.replyTo(), s -> StatusReply.ack());
  }

  public static final String NO_SUCH_API_TOKEN = "no such API token";

  private ReplyEffect<Event, State> onRevokeApiToken(State state, RevokeApiToken cmd) {
    if (state.apiTokens().stream().noneMatch(t -> t.id().equals(cmd.tokenId())))
      return Effect().reply(cmd.replyTo(), StatusReply.error(NO_SUCH_API_TOKEN));
    return Effect()
        .persist(new ApiTokenRevoked(cmd.tokenId()))
        .thenReply(cmd.replyTo(), s -> StatusReply.ack());
  }

  private ReplyEffect<Event, State> onTouchApiToken(State state, TouchApiToken cmd) {
    boolean stale =
        state.apiTokens().stream()
            .anyMatch(
                t ->
                    t.id().equals(cmd.tokenId())
                        && (t.lastUsedAt() == null
                            || !cmd.at().isBefore(t.lastUsedAt().plus(LAST_USED_GRAIN))));
    if (!stale) return Effect().noReply();
    return Effect().persist(new ApiTokenUsed(cmd.tokenId(), cmd.at())).thenNoReply();
  }

  private ReplyEffect<Event, State> onAddWatch(State state, AddWatch cmd) {
    if (checking != null) return Effect().stash();
    if (state.watchIds().contains(cmd.watchId()))
      return Effect().reply(cmd.replyTo(), StatusReply.ack());
    if (cmd.most() != null
        && !pending.containsKey(cmd.watchId())
        && state.watchIds().size() + pending.size() >= cmd.most())
      return Effect()
          .reply(
              cmd.replyTo(),
              EntityRefusal.reply(EntityRefusal.Code.NO_ROOM_FOR_WATCH, NO_ROOM_FOR_WATCH));
    if (pending.isEmpty()) context.getSelf().tell(new WriteRegistrations());
    pending.computeIfAbsent(cmd.watchId(), id -> new ArrayList<>()).add(cmd.replyTo());
    return Effect().noReply();
  }

  private ReplyEffect<Event, State> onWriteRegistrations(State state, WriteRegistrations cmd) {
    if (checking != null) return Effect().stash();
    Map<String, List<ActorRef<StatusReply<Done>>>> batch = new LinkedHashMap<>(pending);
    pending.clear();
    return Effect()
        .persist(new WatchesAdded(List.copyOf(batch.keySet())))
        .thenRun(
            s -> batch.values().forEach(waiting -> waiting.forEach(r -> r.tell(StatusReply.ack()))))
        .thenNoReply();
  }

  private ReplyEffect<Event, State> onDeleteWatch(State state, DeleteWatch cmd) {
    if (checking != null) return Effect().stash();
    checking = cmd.watchId();
    context.askWithStatus(
        Done.class,
        watches.watch(persistenceId().entityId(), cmd.watchId()),
        WATCH_CHECK_TIMEOUT,
        r -> new WatchEntity.Delete(cmd.actor(), r),
        (done, failure) -> {
          if (failure == null)
            return new WatchChecked(cmd.watchId(), true, null, null, cmd.replyTo());
          // the watch's own refusal means there is no such watch: gone all the same
          boolean refused =
              failure instanceof StatusReply.ErrorMessage || failure instanceof EntityRefusal;
          return refused
              ? new WatchChecked(
                  cmd.watchId(),
                  true,
                  EntityRefusal.Code.REFUSED,
                  failure.getMessage(),
                  cmd.replyTo())
              : new WatchChecked(
                  cmd.watchId(),
                  false,
                  EntityRefusal.Code.WATCH_UNANSWERED,
                  WATCH_UNANSWERED,
                  cmd.replyTo());
        });
    return Effect().noReply();
  }

  private ReplyEffect<Event, State> onForgetWatchIfGone(State state, ForgetWatchIfGone cmd) {
    if (!state.watchIds().contains(cmd.watchId())) return Effect().noReply();
    if (checking != null) return Effect().stash();
    checking = cmd.watchId();
    context.askWithStatus(
        Watch.class,
        watches.watch(persistenceId().entityId(), cmd.watchId()),
        WATCH_CHECK_TIMEOUT,
        WatchEntity.Get::new,
        (watch, failure) ->
            new WatchChecked(
                cmd.watchId(),
                failure instanceof StatusReply.ErrorMessage || failure instanceof EntityRefusal,
                null,
                null,
                null));
    return Effect().noReply();
  }

  private ReplyEffect<Event, State> onWatchChecked(State state, WatchChecked cmd) {
    checking = null;
    var effect =
        cmd.gone() && state.watchIds().contains(cmd.watchId())
            ? Effect().persist(new WatchRemoved(cmd.watchId()))
            : Effect().none();
    return (cmd.replyTo() == null
            ? effect.thenNoReply()
            : effect.thenReply(cmd.replyTo(), s -> cmd.answer()))
        .thenUnstashAll();
  }

  @Override
  public EventHandler<State, Event> eventHandler() {
    return AccountEvents::apply;
  }
}
