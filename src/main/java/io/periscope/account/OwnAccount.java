package io.periscope.account;

import io.periscope.auth.MailedTokens;
import io.periscope.auth.PasswordPolicy;
import io.periscope.auth.Passwords;
import io.periscope.auth.Principal;
import io.periscope.auth.TokenScope;
import io.periscope.auth.Tokens;
import io.periscope.entity.Asks;
import io.periscope.entity.Refusal;
import io.periscope.json.Issue;
import io.periscope.json.ValidationException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import org.apache.pekko.Done;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a signed-in person does with their own account: sign out, change the password (which ends
 * every other sign-in), and manage personal API tokens. Password and token changes need a sign-in:
 * a personal API token cannot change the password or make more tokens.
 */
public final class OwnAccount {
  private static final Logger log = LoggerFactory.getLogger(OwnAccount.class);
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final String ID_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";
  static final int MAX_TOKEN_NAME = 100;

  /** How long a personal API token lives when its maker names no expiry. */
  public static final Duration DEFAULT_TOKEN_LIFETIME = Duration.ofDays(90);

  private final Accounts accounts;
  private final AccountEntity.Refs accountRefs;
  private final Asks asks;
  private final AccountAccess access;
  private final Tokens tokens;
  private final Executor hashing;
  private final Clock clock;

  public OwnAccount(
      Accounts accounts,
      AccountEntity.Refs accountRefs,
      Asks asks,
      AccountAccess access,
      Tokens tokens,
      Executor hashing,
      Clock clock) {
    this.accounts = accounts;
    this.accountRefs = accountRefs;
    this.asks = asks;
    this.access = access;
    this.tokens = tokens;
    this.hashing = hashing;
    this.clock = clock;
  }

  /** Refused for a caller who used a personal API token instead of signing in. */
  public static final class SignInRequired extends Refusal {
    SignInRequired(String what) {
      super(Kind.FORBIDDEN, what + " needs a sign-in token; a personal API token cannot do it");
    }
  }

  /** The caller's account. */
  public CompletionStage<Account.View> account(Principal caller) {
    return asks.<AccountEntity.Command, Account>ask(
            accountRefs.account(caller.accountId()), AccountEntity.GetAccount::new)
        .exceptionally(Refusal.as(Refusal.Kind.NOT_FOUND, "the account does not exist"))
        .thenApply(Account::view);
  }

  /**
   * Ends the caller's sign-in: its token stops working on this node at once, on every other within
   * {@link AccountAccess#FRESH_FOR}. A token older than session ids ends every sign-in.
   */
  public CompletionStage<Done> signOut(Principal caller) {
    if (!caller.signedIn()) {
      throw new Refusal(
          Refusal.Kind.UNPROCESSABLE,
          "a personal API token is not a sign-in: revoke it with DELETE /account/tokens/{id}");
    }
    Instant now = clock.instant();
    return asks.<AccountEntity.Command, AccountEntity.Access>ask(
            accountRefs.account(caller.accountId()),
            reply ->
                new AccountEntity.EndSession(
                    caller.sessionId(), now.plus(tokens.ttl()), now, reply))
        .exceptionally(Refusal.as(Refusal.Kind.NOT_FOUND, "the account does not exist"))
        .thenApply(
            ended -> {
              access.forget(caller.accountId());
              log.info("event=signed-out account={}", caller.accountId());
              return Done.getInstance();
            });
  }

  /**
   * Replaces the password when {@code current} is the account's one, under the policy; every
   * earlier sign-in ends, and the caller gets a new one.
   *
   * @throws ValidationException for a missing field, a wrong current password or a new one the
   *     policy refuses
   */
  public CompletionStage<Accounts.Session> changePassword(
      Principal caller, String current, String next) {
    if (!caller.signedIn()) throw new SignInRequired("changing the password");
    List<Issue> missing = new ArrayList<>();
    if (current == null || current.isEmpty())
      missing.add(Issue.at("must be a non-empty string", "currentPassword"));
    if (next == null) missing.add(Issue.at("must be a non-empty string", "newPassword"));
    if (!missing.isEmpty()) throw new ValidationException(missing);
    return asks.<AccountEntity.Command, Account>ask(
            accountRefs.account(caller.accountId()), AccountEntity.GetAccount::new)
        .exceptionally(Refusal.as(Refusal.Kind.NOT_FOUND, "the account does not exist"))
        .thenApplyAsync(
            account -> {
              if (!account.hasPassword()) {
                Passwords.spendDecoyCheck(current);
                throw wrongPassword();
              }
              if (!Passwords.matches(current, account.passwordHash())) throw wrongPassword();
              List<Issue> issues = PasswordPolicy.check(next, account.email(), "newPassword");
              if (!issues.isEmpty()) throw new ValidationException(issues);
              return new String[] {account.passwordHash(), Passwords.hash(next)};
            },
            hashing)
        .thenCompose(
            hashes ->
                asks.<AccountEntity.Command, Account>ask(
                    accountRefs.account(caller.accountId()),
                    reply -> new AccountEntity.ChangePassword(hashes[0], hashes[1], reply)))
        .exceptionally(Refusal.as(Refusal.Kind.CONFLICT))
        .thenApply(
            account -> {
              access.forget(account.id());
              log.info("event=password-changed account={}", account.id());
              return accounts.session(account);
            });
  }

  private static ValidationException wrongPassword() {
    return new ValidationException(
        List.of(Issue.at("is not the account's current password", "currentPassword")));
  }

  // ---- personal API tokens --------------------------------------------------------------------

  /** A new token: the only time its secret is shown. */
  public record NewToken(String token, ApiToken.View details) {}

  /**
   * Makes a named personal API token with {@code scopes} ({@link TokenScope#DEFAULT} when null),
   * expiring at {@code expiresAt} ({@link #DEFAULT_TOKEN_LIFETIME} from now when null).
   *
   * @throws ValidationException for a bad name, an expiry not in the future, no scope, or {@code
   *     admin} asked by a user
   */
  public CompletionStage<NewToken> createToken(
      Principal caller, String name, Instant expiresAt, Set<TokenScope> scopes) {
    if (!caller.signedIn()) throw new SignInRequired("making a personal API token");
    Instant now = clock.instant();
    List<Issue> issues = new ArrayList<>();
    if (name == null
        || name.isBlank()
        || name.length() > MAX_TOKEN_NAME
        || name.chars().anyMatch(Character::isISOControl)) {
      issues.add(
          Issue.at(
              "must be 1 to " + MAX_TOKEN_NAME + " characters, no control characters", "name"));
    }
    if (expiresAt != null && !expiresAt.isAfter(now))
      issues.add(Issue.at("must be in the future", "expiresAt"));
    Set<TokenScope> granted = scopes == null ? TokenScope.DEFAULT : scopes;
    if (granted.isEmpty())
      issues.add(Issue.at("must name at least one of read, watches, admin", "scopes"));
    if (granted.contains(TokenScope.ADMIN) && !caller.isAdmin())
      issues.add(Issue.at("may name admin only on an administrator's account", "scopes"));
    if (!issues.isEmpty()) throw new ValidationException(issues);
    String token = AccountAccess.API_TOKEN_PREFIX + MailedTokens.create(caller.accountId());
    ApiToken kept =
        new ApiToken(
            newTokenId(),
            name.strip(),
            MailedTokens.hash(token),
            now,
            expiresAt == null ? now.plus(DEFAULT_TOKEN_LIFETIME) : expiresAt,
            null,
            List.copyOf(EnumSet.copyOf(granted)));
    return asks.<AccountEntity.Command, Done>ask(
            accountRefs.account(caller.accountId()),
            reply -> new AccountEntity.CreateApiToken(kept, reply))
        .exceptionally(Refusal.as(Refusal.Kind.CONFLICT))
        .thenApply(
            done -> {
              access.forget(caller.accountId());
              log.info(
                  "event=api-token-created account={} token={}", caller.accountId(), kept.id());
              return new NewToken(token, kept.view());
            });
  }

  /** The caller's tokens, oldest first: never their secrets. */
  public CompletionStage<List<ApiToken.View>> tokens(Principal caller) {
    return asks.<AccountEntity.Command, AccountEntity.Access>ask(
            accountRefs.account(caller.accountId()), AccountEntity.GetAccess::new)
        .thenApply(a -> a.apiTokens().stream().map(ApiToken::view).toList());
  }

  /**
   * Revokes one of the caller's tokens: refused on this node at once, on every other within {@link
   * AccountAccess#FRESH_FOR}.
   */
  public CompletionStage<Done> revokeToken(Principal caller, String tokenId) {
    return asks.<AccountEntity.Command, Done>ask(
            accountRefs.account(caller.accountId()),
            reply -> new AccountEntity.RevokeApiToken(tokenId, reply))
        .exceptionally(Refusal.as(Refusal.Kind.NOT_FOUND))
        .thenApply(
            done -> {
              access.forget(caller.accountId());
              log.info("event=api-token-revoked account={} token={}", caller.accountId(), tokenId);
              return done;
            });
  }

  private static String newTokenId() {
    StringBuilder id = new StringBuilder();
    for (int i = 0; i < 10; i++)
      id.append(ID_ALPHABET.charAt(RANDOM.nextInt(ID_ALPHABET.length())));
    return id.toString();
  }
}
