package io.periscope.account;

import io.periscope.auth.EmailEntity;
import io.periscope.auth.EmailIndex;
import io.periscope.auth.PasswordPolicy;
import io.periscope.auth.Passwords;
import io.periscope.auth.Principal;
import io.periscope.auth.Role;
import io.periscope.auth.Tokens;
import io.periscope.entity.Asks;
import io.periscope.entity.EntityRefusal;
import io.periscope.entity.Failures;
import io.periscope.entity.Refusal;
import io.periscope.json.Issue;
import io.periscope.json.ValidationException;
import io.periscope.notify.EmailAddresses;
import io.periscope.persistence.JournalReads;
import io.periscope.watch.WatchValidator;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import org.apache.pekko.Done;

/**
 * Creating accounts and signing in. An account is made by first claiming its e-mail in the e-mail
 * index (one entity per address, so addresses are unique) and then creating the account entity; a
 * create that fails after the claim releases it again.
 */
public final class Accounts {
  private static final String ID_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";
  private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();

  private final AccountEntity.Refs accountRefs;
  private final EmailEntity.Refs emailEntities;
  private final Asks asks;
  private final EmailIndex emails;
  private final JournalReads journal;
  private final Tokens tokens;

  /** bcrypt is slow on purpose; it runs here, never on the actor dispatcher. */
  private final Executor hashing;

  public Accounts(
      AccountEntity.Refs accountRefs,
      EmailEntity.Refs emailEntities,
      Asks asks,
      JournalReads journal,
      Tokens tokens,
      Executor hashing) {
    this.accountRefs = accountRefs;
    this.emailEntities = emailEntities;
    this.asks = asks;
    this.emails = new EmailIndex(emailEntities, asks);
    this.journal = journal;
    this.tokens = tokens;
    this.hashing = hashing;
  }

  /** Every account, by id. */
  public CompletionStage<List<Account.View>> list() {
    return accounts().thenApply(all -> all.stream().map(Account::view).toList());
  }

  /** Every account, by id, as it is kept. */
  CompletionStage<List<Account>> accounts() {
    // every account entity's id: accounts, and token subjects that never had one (filtered below)
    return journal
        .entityIds(AccountEntity.TYPE_KEY.name())
        .thenCompose(
            ids -> {
              List<CompletableFuture<Optional<Account>>> reads =
                  ids.stream()
                      .map(
                          id ->
                              asks.<AccountEntity.Command, Account>ask(
                                      accountRefs.account(id), AccountEntity.GetAccount::new)
                                  .thenApply(Optional::of)
                                  // an account entity without an account: a token subject that
                                  // never
                                  // had one (the command line's)
                                  .exceptionally(
                                      e -> {
                                        if (Failures.isRefusal(e)) return Optional.empty();
                                        throw new CompletionException(Failures.unwrap(e));
                                      })
                                  .toCompletableFuture())
                      .toList();
              return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new))
                  .thenApply(all -> reads.stream().flatMap(r -> r.join().stream()).toList());
            });
  }

  /** A new account request, checked before anything is written. */
  public record NewAccount(String id, String email, Role role, String password) {}

  /** Raised for a duplicate id or e-mail. */
  public static final class Conflict extends Refusal {
    private final boolean emailTaken;

    Conflict(String message, boolean emailTaken) {
      super(Kind.CONFLICT, message);
      this.emailTaken = emailTaken;
    }

    /** Whether another account holds the e-mail address (else the id was taken). */
    public boolean emailTaken() {
      return emailTaken;
    }
  }

  /** Raised by a login with the right password to an account whose address is not verified yet. */
  public static final class Unverified extends Refusal {
    Unverified() {
      super(
          Kind.FORBIDDEN,
          "the e-mail address is not verified yet: follow the link mailed to it, or ask for a new"
              + " one with POST /auth/verify-email/resend");
    }
  }

  /** Raised by a sign-in (any way) to an account an administrator disabled. */
  public static final class Disabled extends Refusal {
    Disabled() {
      super(Kind.FORBIDDEN, "this account is disabled; ask an administrator");
    }
  }

  /**
   * @throws ValidationException listing every problem of the fields
   */
  public static NewAccount validate(String id, String email, String role, String password) {
    List<Issue> issues = new ArrayList<>();
    if (id == null || !WatchValidator.ID.matcher(id).matches()) {
      issues.add(Issue.at("must be 1 to 64 letters, digits, '.', '_' or '-'", "id"));
    } else if (id.equals(Principal.OPERATOR.accountId())) {
      // the command line's tokens name it: an account of that id would lend them its role
      issues.add(Issue.at("is reserved for the command line", "id"));
    }
    try {
      validEmail(email, "email");
    } catch (ValidationException e) {
      issues.addAll(e.issues());
    }
    Optional<Role> parsedRole = Role.parse(role == null ? "" : role);
    if (parsedRole.isEmpty()) issues.add(Issue.at("must be 'user' or 'admin'", "role"));
    issues.addAll(PasswordPolicy.check(password, email, "password"));
    if (!issues.isEmpty()) throw new ValidationException(issues);
    return new NewAccount(id, email.trim(), parsedRole.get(), password);
  }

  /**
   * @throws ValidationException when {@code email} is not an e-mail address
   */
  public static String validEmail(String email, String field) {
    if (email == null || !EmailAddresses.valid(email.trim())) {
      throw new ValidationException(List.of(Issue.at("must be an e-mail address", field)));
    }
    return email.trim();
  }

  /**
   * The id of an account that made itself (registration, identity providers): the address's local
   * part, cut to letters, digits, '.', '_' and '-', and a random suffix, so ids stay readable in
   * listings and never collide with each other or with the ids operators choose in practice.
   */
  static String newAccountId(String email) {
    String local =
        email
            .substring(0, Math.max(0, email.indexOf('@')))
            .toLowerCase(java.util.Locale.ROOT)
            .replaceAll("[^a-z0-9._-]", "");
    if (local.length() > 40) local = local.substring(0, 40);
    if (local.isEmpty()) local = "user";
    StringBuilder suffix = new StringBuilder();
    for (int i = 0; i < 12; i++)
      suffix.append(ID_ALPHABET.charAt(RANDOM.nextInt(ID_ALPHABET.length())));
    return local + "-" + suffix;
  }

  /** An account an operator makes: verified, with its password. */
  public CompletionStage<Account> create(NewAccount request) {
    return CompletableFuture.supplyAsync(() -> Passwords.hash(request.password()), hashing)
        .thenCompose(
            hash ->
                open(
                    Account.made(
                        request.id(),
                        EmailEntity.normalize(request.email()),
                        request.role(),
                        hash,
                        Instant.now())));
  }

  /**
   * Writes a new account: claims its address in the e-mail index, then creates the account entity,
   * giving the claim back when that fails. Fails with {@link Conflict} for a taken address or id.
   */
  CompletionStage<Account> open(Account account) {
    String email = account.email();
    return emails
        .claim(email, account.id())
        .exceptionally(
            e -> {
              throw conflictOr(e, "the e-mail address is already in use", true);
            })
        .thenCompose(
            tookIt ->
                asks.<AccountEntity.Command, org.apache.pekko.Done>ask(
                        accountRefs.account(account.id()),
                        reply -> new AccountEntity.CreateAccount(account, reply))
                    .handle(
                        (done, failure) -> {
                          if (failure == null) return CompletableFuture.completedFuture(account);
                          // Only a claim this call took is given back: an existing account keeps
                          // its address.
                          return tookIt
                              ? releaseThenFail(email, account.id(), failure)
                              : CompletableFuture.<Account>failedFuture(
                                  conflictOr(failure, duplicateId(account.id()), false));
                        })
                    .thenCompose(s -> s));
  }

  /** Remembers that {@code email}'s account signed in from the client network {@code network}. */
  public CompletionStage<Done> rememberSignIn(String email, String network) {
    return emails.rememberSignIn(EmailEntity.normalize(email), network);
  }

  /** Whether {@code email}'s account signed in from the client network {@code network} before. */
  public CompletionStage<Boolean> signedInBefore(String email, String network) {
    return emails.signedInBefore(EmailEntity.normalize(email), network);
  }

  /** The account holding {@code email}; fails with {@link EntityRefusal} when none does. */
  CompletionStage<Account> byEmail(String email) {
    return emails
        .holder(EmailEntity.normalize(email))
        .thenCompose(
            accountId ->
                asks.<AccountEntity.Command, Account>ask(
                    accountRefs.account(accountId), AccountEntity.GetAccount::new));
  }

  private CompletionStage<Account> releaseThenFail(
      String email, String accountId, Throwable failure) {
    return emails
        .release(email, accountId)
        .handle(
            (done, ignored) -> {
              throw conflictOr(failure, duplicateId(accountId), false);
            });
  }

  private static String duplicateId(String accountId) {
    return "an account with id '" + accountId + "' already exists";
  }

  private static RuntimeException conflictOr(
      Throwable failure, String conflictMessage, boolean emailTaken) {
    Throwable cause = Failures.unwrap(failure);
    if (cause instanceof EntityRefusal) return new Conflict(conflictMessage, emailTaken);
    return cause instanceof RuntimeException r ? r : new CompletionException(cause);
  }

  /** What a successful login answers. */
  public record Session(String token, String tokenType, Instant expiresAt, Account.View user) {}

  /**
   * A signed token for valid credentials; empty for an unknown e-mail, a wrong password and an
   * account without a password alike. Fails with {@link Unverified} for the right password of an
   * unverified address.
   *
   * @throws ValidationException when {@code email} is not an e-mail address
   */
  public CompletionStage<Optional<Session>> login(String email, String password) {
    validEmail(email, "email");
    return byEmail(email)
        .handle(
            (account, failure) -> {
              if (failure != null && !Failures.isRefusal(failure))
                throw new CompletionException(failure);
              return Optional.ofNullable(account).filter(Account::hasPassword);
            })
        .thenApplyAsync(
            account -> {
              if (account.isEmpty()) {
                Passwords.spendDecoyCheck(password);
                return Optional.<Session>empty();
              }
              Account a = account.get();
              if (!Passwords.matches(password, a.passwordHash())) return Optional.<Session>empty();
              if (!a.emailVerified()) throw new Unverified();
              return Optional.of(session(a));
            },
            hashing);
  }

  /**
   * A sign-in token of the account's current session generation.
   *
   * @throws Disabled for a disabled account
   */
  Session session(Account account) {
    if (account.disabled()) throw new Disabled();
    Instant now = Instant.now();
    return new Session(
        tokens.issue(account.id(), account.role(), account.sessionGeneration(), now),
        "Bearer",
        now.plus(tokens.ttl()),
        account.view());
  }
}
