package io.periscope.auth;

import io.periscope.json.Issue;
import io.periscope.json.ValidationException;
import io.periscope.owner.Account;
import io.periscope.owner.OwnerEntity;
import io.periscope.persistence.JournalReads;
import io.periscope.runtime.Asks;
import io.periscope.runtime.Entities;
import io.periscope.runtime.EntityRefusal;
import io.periscope.runtime.Failures;
import io.periscope.watch.WatchValidator;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.regex.Pattern;

/**
 * Creating accounts and signing in. An account is made by first claiming its e-mail in the e-mail index
 * (one entity per address, so addresses are unique) and then creating the owner entity; a create that fails
 * after the claim releases it again.
 */
public final class Accounts {
  private static final Pattern EMAIL = Pattern.compile("[^@\\s]{1,64}@[^@\\s]{1,190}\\.[^@\\s]{1,63}");

  private final Entities entities;
  private final Asks asks;
  private final JournalReads journal;
  private final Tokens tokens;
  /** bcrypt is slow on purpose; it runs here, never on the actor dispatcher. */
  private final Executor hashing;

  public Accounts(Entities entities, Asks asks, JournalReads journal, Tokens tokens, Executor hashing) {
    this.entities = entities;
    this.asks = asks;
    this.journal = journal;
    this.tokens = tokens;
    this.hashing = hashing;
  }

  /** Every account, by id. */
  public CompletionStage<List<Account.View>> list() {
    return journal.ownerIds().thenCompose(ids -> {
      List<CompletableFuture<Optional<Account.View>>> reads = ids.stream()
          .map(id -> asks.<OwnerEntity.Command, Account>ask(entities.owner(id), OwnerEntity.GetAccount::new)
              .thenApply(a -> Optional.of(a.view()))
              // an owner entity without an account: a token subject that never had one (the command line's)
              .exceptionally(e -> {
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
  public static final class Conflict extends RuntimeException {
    public Conflict(String message) {
      super(message, null, false, false);
    }
  }

  /** @throws ValidationException listing every problem of the fields */
  public static NewAccount validate(String id, String email, String role, String password) {
    List<Issue> issues = new ArrayList<>();
    if (id == null || !WatchValidator.ID.matcher(id).matches()) {
      issues.add(Issue.at("must be 1 to 64 letters, digits, '.', '_' or '-'", "id"));
    }
    if (email == null || email.length() > 254 || !EMAIL.matcher(email.trim()).matches()) {
      issues.add(Issue.at("must be an e-mail address", "email"));
    }
    Optional<Role> parsedRole = Role.parse(role == null ? "" : role);
    if (parsedRole.isEmpty()) issues.add(Issue.at("must be 'user' or 'admin'", "role"));
    if (password == null || password.length() < Passwords.MIN_LENGTH || password.length() > Passwords.MAX_LENGTH) {
      issues.add(Issue.at("must be " + Passwords.MIN_LENGTH + " to " + Passwords.MAX_LENGTH + " characters", "password"));
    }
    if (!issues.isEmpty()) throw new ValidationException(issues);
    return new NewAccount(id, email.trim(), parsedRole.get(), password);
  }

  public CompletionStage<Account> create(NewAccount request) {
    String email = EmailEntity.normalize(request.email());
    return CompletableFuture.supplyAsync(() -> Passwords.hash(request.password()), hashing)
        .thenCompose(hash -> {
          Account account = new Account(request.id(), email, request.role(), hash, Instant.now());
          return asks.<EmailEntity.Command, Boolean>ask(entities.email(email),
                  reply -> new EmailEntity.Claim(account.id(), reply))
              .exceptionally(e -> {
                throw conflictOr(e, "the e-mail address is already in use");
              })
              .thenCompose(tookIt -> asks.<OwnerEntity.Command, org.apache.pekko.Done>ask(
                      entities.owner(account.id()), reply -> new OwnerEntity.CreateAccount(account, reply))
                  .handle((done, failure) -> {
                    if (failure == null) return CompletableFuture.completedFuture(account);
                    // Only a claim this call took is given back: an existing account keeps its address.
                    return tookIt ? releaseThenFail(email, account.id(), failure)
                        : CompletableFuture.<Account>failedFuture(conflictOr(failure, duplicateId(account.id())));
                  })
                  .thenCompose(s -> s));
        });
  }

  private CompletionStage<Account> releaseThenFail(String email, String accountId, Throwable failure) {
    return asks.<EmailEntity.Command, org.apache.pekko.Done>ask(entities.email(email),
            reply -> new EmailEntity.Release(accountId, reply))
        .handle((done, ignored) -> {
          throw conflictOr(failure, duplicateId(accountId));
        });
  }

  private static String duplicateId(String accountId) {
    return "an account with id '" + accountId + "' already exists";
  }

  private static RuntimeException conflictOr(Throwable failure, String conflictMessage) {
    Throwable cause = Failures.unwrap(failure);
    if (cause instanceof EntityRefusal) return new Conflict(conflictMessage);
    return cause instanceof RuntimeException r ? r : new CompletionException(cause);
  }

  /** What a successful login answers. */
  public record Session(String token, String tokenType, Instant expiresAt, Account.View user) {}

  /** A signed token for valid credentials; empty for an unknown e-mail or a wrong password alike. */
  public CompletionStage<Optional<Session>> login(String email, String password) {
    String normalized = EmailEntity.normalize(email);
    return asks.<EmailEntity.Command, String>ask(entities.email(normalized), EmailEntity.Lookup::new)
        .thenCompose(accountId -> asks.<OwnerEntity.Command, Account>ask(entities.owner(accountId),
            OwnerEntity.GetAccount::new))
        .handle((account, failure) -> {
          if (failure != null && !Failures.isRefusal(failure)) throw new CompletionException(failure);
          return Optional.ofNullable(account);
        })
        .thenApplyAsync(account -> {
          if (account.isEmpty()) {
            Passwords.spendDecoyCheck(password);
            return Optional.<Session>empty();
          }
          Account a = account.get();
          if (!Passwords.matches(password, a.passwordHash())) return Optional.<Session>empty();
          Instant now = Instant.now();
          return Optional.of(new Session(tokens.issue(a.id(), a.role(), now), "Bearer", now.plus(tokens.ttl()), a.view()));
        }, hashing);
  }

}
