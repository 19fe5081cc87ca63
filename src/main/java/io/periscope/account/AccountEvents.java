package io.periscope.account;

import io.periscope.account.AccountEntity.AccountCreated;
import io.periscope.account.AccountEntity.AccountDeleted;
import io.periscope.account.AccountEntity.ApiTokenCreated;
import io.periscope.account.AccountEntity.ApiTokenRevoked;
import io.periscope.account.AccountEntity.ApiTokenUsed;
import io.periscope.account.AccountEntity.DisabledChanged;
import io.periscope.account.AccountEntity.EmailVerified;
import io.periscope.account.AccountEntity.Event;
import io.periscope.account.AccountEntity.PasswordReset;
import io.periscope.account.AccountEntity.RoleChanged;
import io.periscope.account.AccountEntity.SessionEnded;
import io.periscope.account.AccountEntity.State;
import io.periscope.account.AccountEntity.TokenIssued;
import io.periscope.account.AccountEntity.WatchRemoved;
import io.periscope.account.AccountEntity.WatchesAdded;
import io.periscope.auth.TokenPurpose;
import java.util.ArrayList;
import java.util.List;

/** How each event of an account changes its state: the account entity's event handler. */
final class AccountEvents {
  private AccountEvents() {}

  static State apply(State state, Event event) {
    if (event instanceof AccountCreated e) return state.withAccount(e.account(), List.of());
    if (event instanceof TokenIssued e) {
      List<PendingToken> tokens = new ArrayList<>(state.tokensBut(e.purpose()));
      tokens.add(new PendingToken(e.purpose(), e.tokenHash(), e.expiresAt()));
      return state.withAccount(state.account(), tokens);
    }
    if (event instanceof EmailVerified e)
      return state.withAccount(
          state.account().verified(e.passwordRevoked()),
          state.tokensBut(TokenPurpose.VERIFY_EMAIL));
    if (event instanceof PasswordReset e)
      return state.withAccount(
          state.account().withNewPassword(e.passwordHash()),
          state.tokensBut(TokenPurpose.VERIFY_EMAIL, TokenPurpose.RESET_PASSWORD));
    if (event instanceof WatchesAdded e) return state.withWatches(e.watchIds());
    if (event instanceof WatchRemoved e) return state.withoutWatch(e.watchId());
    if (event instanceof SessionEnded e) return sessionEnded(state, e);
    if (event instanceof RoleChanged e) return state.changed(a -> a.withRole(e.role()));
    // disabling ends every sign-in: enabling again does not bring them back
    if (event instanceof DisabledChanged e)
      return state.changed(
          a -> e.disabled() ? a.withDisabled(true).withSessionsEnded() : a.withDisabled(false));
    if (event instanceof AccountDeleted) return state.asDeleted();
    if (event instanceof ApiTokenCreated e) {
      List<ApiToken> tokens = new ArrayList<>(state.apiTokens());
      tokens.add(e.token());
      return state.withApiTokens(tokens);
    }
    if (event instanceof ApiTokenRevoked e)
      return state.withApiTokens(
          state.apiTokens().stream().filter(t -> !t.id().equals(e.tokenId())).toList());
    if (event instanceof ApiTokenUsed e)
      return state.withApiTokens(
          state.apiTokens().stream()
              .map(t -> t.id().equals(e.tokenId()) ? t.usedAt(e.at()) : t)
              .toList());
    throw new IllegalArgumentException("unknown account event " + event.getClass().getName());
  }

  private static State sessionEnded(State state, SessionEnded e) {
    if (e.sessionId() == null) return state.changed(Account::withSessionsEnded);
    List<EndedSession> ended = new ArrayList<>();
    // the ones whose tokens expired by now need no remembering
    state.endedSessions().stream().filter(x -> x.until().isAfter(e.at())).forEach(ended::add);
    ended.add(new EndedSession(e.sessionId(), e.until()));
    return state.withEndedSessions(ended);
  }
}
