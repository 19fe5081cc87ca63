package io.periscope.account;

import io.periscope.auth.MailedTokens;
import io.periscope.auth.Principal;
import io.periscope.auth.Tokens;
import io.periscope.entity.Asks;
import io.periscope.entity.EntityRefusal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Whether a token still lets its caller in, and with which role: what the account is now, not what
 * the token says. A sign-in token is refused once its account is disabled or deleted, once a
 * password reset or change moved the account's session generation past the token's, and once its
 * holder signed out of it; a personal API token once it is revoked or expired. The role is the
 * account's current one.
 *
 * <p>Asking the account entity on every request would cost an ask per call, so each node keeps what
 * it read for {@link #FRESH_FOR}: a change ends access at once on the node that made it ({@link
 * #forget}), and within that time on every other node.
 */
public final class AccountAccess {
  public static final Duration FRESH_FOR = Duration.ofSeconds(5);

  /** Past this many remembered accounts the stale ones are dropped. */
  private static final int PRUNE_ABOVE = 10_000;

  /** What personal API tokens start with, so they are told from sign-in tokens at a glance. */
  public static final String API_TOKEN_PREFIX = "psk_";

  private record Known(AccountEntity.Access access, Instant readAt) {}

  private final AccountEntity.Refs accountRefs;
  private final Asks asks;
  private final Clock clock;
  private final Map<String, Known> known = new ConcurrentHashMap<>();

  /** When this node last changed each account: a read started before then is not kept. */
  private final Map<String, Instant> changedAt = new ConcurrentHashMap<>();

  /** When this node last had each API token's use written, so it asks at most once a grain. */
  private final Map<String, Instant> touched = new ConcurrentHashMap<>();

  public AccountAccess(AccountEntity.Refs accountRefs, Asks asks, Clock clock) {
    this.accountRefs = accountRefs;
    this.asks = asks;
    this.clock = clock;
  }

  /**
   * The caller of a verified sign-in token as its account is now, or empty when the token no longer
   * signs anybody in. A subject without an account signs nobody in, whatever role the token claims
   * (a token minted with a leaked or guessed service secret for an invented administrator), except
   * in an operator's token (signed with the operator key): the command line's own {@code
   * periscope-cli}. The account is read through the same cache as every other check, so refusing
   * such tokens costs no read of its own.
   */
  public CompletionStage<Optional<Principal>> signedIn(Tokens.Claims claims) {
    Principal token = claims.principal();
    return access(token.accountId())
        .thenApply(
            access -> {
              Account account = access.account();
              if (access.deleted()) return Optional.empty();
              if (account == null) return claims.operator() ? Optional.of(token) : Optional.empty();
              // an operator's token is no sign-in: no generation or signing out ends it
              boolean live =
                  !account.disabled()
                      && (claims.operator()
                          || claims.generation() >= account.sessionGeneration()
                              && (token.sessionId() == null
                                  || !access.endedSessions().contains(token.sessionId())));
              return live ? Optional.of(token.withRole(account.role())) : Optional.empty();
            });
  }

  /**
   * The caller of a personal API token ({@code psk_<account>.<secret>}), or empty for a malformed,
   * unknown, revoked or expired one, or one whose account is disabled or gone.
   */
  public CompletionStage<Optional<Principal>> apiToken(String token) {
    if (!token.startsWith(API_TOKEN_PREFIX))
      return CompletableFuture.completedFuture(Optional.empty());
    String bare = token.substring(API_TOKEN_PREFIX.length());
    Optional<String> accountId = MailedTokens.holderId(bare);
    if (accountId.isEmpty()) return CompletableFuture.completedFuture(Optional.empty());
    String hash = MailedTokens.hash(token);
    return access(accountId.get())
        .thenApply(
            access -> {
              Account account = access.account();
              if (account == null || account.disabled()) return Optional.empty();
              Instant now = clock.instant();
              Optional<ApiToken> match =
                  access.apiTokens().stream()
                      .filter(t -> MailedTokens.sameHash(t.hash(), hash) && t.liveAt(now))
                      .findFirst();
              match.ifPresent(t -> touch(account.id(), t.id(), now));
              return match.map(
                  t -> Principal.fromApiToken(account.id(), account.role(), t.id(), t.grants()));
            });
  }

  /** Tells the owner the token was used, at most once a grain from this node. */
  private void touch(String accountId, String tokenId, Instant now) {
    Instant last = touched.get(tokenId);
    if (last != null && now.isBefore(last.plus(AccountEntity.LAST_USED_GRAIN))) return;
    if (touched.size() > PRUNE_ABOVE) touched.clear();
    touched.put(tokenId, now);
    accountRefs.account(accountId).tell(new AccountEntity.TouchApiToken(tokenId, now));
  }

  /** Whether the account is enabled (and not deleted), as {@link #access} has it. */
  public CompletionStage<Boolean> enabled(String accountId) {
    return access(accountId)
        .thenApply(now -> !now.deleted() && (now.account() == null || !now.account().disabled()));
  }

  /**
   * The account as {@link #access} has it: what a run reads of it (its role) comes from the read
   * its gate made a moment before, not an ask of its own. Fails with an {@link EntityRefusal} when
   * there is none, as the entity's {@code GetAccount} does.
   */
  public CompletionStage<Account> account(String accountId) {
    return access(accountId)
        .thenApply(
            now -> {
              if (now.account() == null) throw new EntityRefusal("no such account");
              return now.account();
            });
  }

  /** What the account is now, as this node last read it within {@link #FRESH_FOR}. */
  CompletionStage<AccountEntity.Access> access(String accountId) {
    Instant now = clock.instant();
    Known cached = known.get(accountId);
    if (cached != null && cached.readAt().plus(FRESH_FOR).isAfter(now)) {
      return CompletableFuture.completedFuture(cached.access());
    }
    return asks.<AccountEntity.Command, AccountEntity.Access>ask(
            accountRefs.account(accountId), AccountEntity.GetAccess::new)
        .thenApply(
            access -> {
              remember(accountId, access, now);
              return access;
            });
  }

  /** This node changed the account: the next request reads it afresh. */
  public void forget(String accountId) {
    Instant now = clock.instant();
    if (changedAt.size() > PRUNE_ABOVE)
      changedAt.values().removeIf(at -> !at.plus(FRESH_FOR).isAfter(now));
    changedAt.put(accountId, now);
    known.remove(accountId);
  }

  private void remember(String accountId, AccountEntity.Access access, Instant readAt) {
    if (known.size() > PRUNE_ABOVE)
      known.values().removeIf(k -> !k.readAt().plus(FRESH_FOR).isAfter(readAt));
    // a read that started before this node changed the account may hold the older state
    Instant changed = changedAt.get(accountId);
    if (changed != null && !readAt.isAfter(changed)) return;
    known.put(accountId, new Known(access, readAt));
  }
}
