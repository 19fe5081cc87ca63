package io.periscope.account;

import io.periscope.auth.EmailEntity;
import io.periscope.auth.EmailIndex;
import io.periscope.auth.MailBudget;
import io.periscope.auth.MailedTokens;
import io.periscope.auth.PasswordPolicy;
import io.periscope.auth.Passwords;
import io.periscope.auth.Role;
import io.periscope.auth.TokenPurpose;
import io.periscope.entity.Asks;
import io.periscope.entity.Failures;
import io.periscope.entity.Refusal;
import io.periscope.json.Issue;
import io.periscope.json.ValidationException;
import io.periscope.notify.EmailSender;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an account does for itself through its mailbox: registration, e-mail verification and
 * password recovery.
 *
 * <p>Registering, asking for a new verification and asking for a reset answer the same {@link
 * Accepted} at once, after checking the request's own fields and before anything is looked up:
 * whether the address has an account, and how long SMTP takes, happen after the answer, so neither
 * the answer nor its timing says whether an address is known. Registering an address that has an
 * account mails its holder a password-reset link instead. However often they are asked, an address
 * gets at most one mail a minute and ten a day ({@link EmailEntity}), the same 202 answering each.
 * Every mail takes its place in the instance's mails of the hour ({@link MailBudget}): while they
 * are used up, these routes answer 429 before anything is looked up, whatever the address.
 */
public final class SelfService {
  private static final Logger log = LoggerFactory.getLogger(SelfService.class);
  public static final Duration VERIFICATION_LIFETIME = Duration.ofHours(24);
  public static final Duration RESET_LIFETIME = Duration.ofHours(1);

  /** The answer of the routes that mail: the same whether or not the address has an account. */
  public record Accepted(String status, String message) {}

  /** The mailed-token routes need SMTP; without it they answer 503. */
  public static final class MailNotConfigured extends Refusal {
    public MailNotConfigured() {
      super(
          Kind.UNAVAILABLE,
          "e-mail is not configured on this instance (SMTP_HOST, SMTP_FROM), so accounts cannot"
              + " register or recover by e-mail; an operator creates them with 'users create'");
    }
  }

  /** How an account mail with a fresh token is written. */
  private interface MailText {
    EmailSender.Mail write(String to, String token, Duration lifetime, Instant now);
  }

  private final Accounts accounts;
  private final EmailIndex emails;
  private final AccountEntity.Refs accountRefs;
  private final EmailEntity.Refs emailEntities;
  private final Asks asks;
  private final EmailSender email;
  private final MailBudget budget;
  private final AccountMails mails;
  private final AccountAccess sessions;
  private final Registration registration;
  private final Executor hashing;
  private final Clock clock;

  public SelfService(
      Accounts accounts,
      AccountEntity.Refs accountRefs,
      EmailEntity.Refs emailEntities,
      Asks asks,
      EmailSender email,
      MailBudget budget,
      AccountMails mails,
      AccountAccess sessions,
      Registration registration,
      Executor hashing,
      Clock clock) {
    this.accounts = accounts;
    this.emails = new EmailIndex(emailEntities, asks);
    this.accountRefs = accountRefs;
    this.emailEntities = emailEntities;
    this.asks = asks;
    this.email = email;
    this.budget = budget;
    this.mails = mails;
    this.sessions = sessions;
    this.registration = registration;
    this.hashing = hashing;
    this.clock = clock;
  }

  /**
   * Opens an unverified user account and mails it a verification token.
   *
   * @throws ValidationException for a bad address or a password the policy refuses
   * @throws Registration.Refused when the instance's sign-up rule does not admit the address
   * @throws MailNotConfigured without SMTP
   */
  public CompletionStage<Accepted> register(String address, String password) {
    String normalized = EmailEntity.normalize(Accounts.validEmail(address, "email"));
    registration.require(normalized);
    requireMail();
    List<Issue> issues = PasswordPolicy.check(password, normalized, "password");
    if (!issues.isEmpty()) throw new ValidationException(issues);
    return budget
        .requireRoom()
        .thenApply(
            room -> {
              openAndMail(normalized, password);
              return new Accepted(
                  "pending",
                  "if the address can receive mail, a message with a verification link is on its"
                      + " way");
            });
  }

  /** After the answer: opens the account and mails it, or mails the address's holder. */
  private void openAndMail(String normalized, String password) {
    CompletableFuture.supplyAsync(() -> Passwords.hash(password), hashing)
        .thenCompose(
            hash ->
                accounts.open(
                    new Account(
                        Accounts.newAccountId(normalized),
                        normalized,
                        Role.USER,
                        hash,
                        clock.instant(),
                        false,
                        0)))
        .thenCompose(
            account -> {
              log.info("event=account-registered account={}", account.id());
              return mailToken(
                  account, TokenPurpose.VERIFY_EMAIL, VERIFICATION_LIFETIME, mails::verification);
            })
        .exceptionallyCompose(
            e ->
                Failures.unwrap(e) instanceof Accounts.Conflict c && c.emailTaken()
                    ? accounts
                        .byEmail(normalized)
                        .thenCompose(
                            holder ->
                                mailToken(
                                    holder,
                                    TokenPurpose.RESET_PASSWORD,
                                    RESET_LIFETIME,
                                    mails::alreadyRegistered))
                    : CompletableFuture.failedFuture(e))
        .whenComplete(logFailure("register"));
  }

  public static final Duration INVITATION_LIFETIME = Duration.ofDays(7);

  /**
   * Mails the address an invitation to register, whatever the sign-up rule; an earlier invitation
   * to it stops working. Fails with {@link Accounts.Conflict} while an account holds the address.
   */
  CompletionStage<Void> invite(String normalizedEmail) {
    requireMail();
    String token = MailedTokens.create("invitation");
    Instant now = clock.instant();
    return budget
        .reserve()
        .thenCompose(
            room ->
                emails.invite(
                    normalizedEmail,
                    new EmailEntity.Invitation(
                        MailedTokens.hash(token), now.plus(INVITATION_LIFETIME))))
        .exceptionally(Refusal.as(Refusal.Kind.CONFLICT, "the address has an account already"))
        .thenCompose(
            invited ->
                email.send(mails.invitation(normalizedEmail, token, INVITATION_LIFETIME, now)));
  }

  /** The body of a registration through an invitation. */
  public record Registered(String status, Account.View user) {}

  /**
   * Opens a verified user account for an invited address, whatever the sign-up rule: the
   * invitation, mailed to the address, proves it. The invitation works once.
   *
   * @throws ValidationException for a bad address, a password the policy refuses, or an invitation
   *     that is not this address's live one (at {@code invitation})
   */
  public CompletionStage<Registered> registerInvited(
      String address, String password, String invitation) {
    String normalized = EmailEntity.normalize(Accounts.validEmail(address, "email"));
    List<Issue> issues = PasswordPolicy.check(password, normalized, "password");
    if (!issues.isEmpty()) throw new ValidationException(issues);
    return emails
        .checkInvitation(normalized, MailedTokens.hash(invitation), clock.instant())
        .exceptionally(
            failure -> {
              if (Failures.isRefusal(failure))
                throw new ValidationException(
                    List.of(Issue.at(MailedTokens.TOKEN_REFUSED, "invitation")));
              return Failures.rethrow(failure);
            })
        .thenApplyAsync(checked -> Passwords.hash(password), hashing)
        .thenCompose(
            hash ->
                accounts.open(
                    new Account(
                        Accounts.newAccountId(normalized),
                        normalized,
                        Role.USER,
                        hash,
                        clock.instant(),
                        true,
                        0)))
        .thenApply(
            account -> {
              log.info("event=account-registered account={} via=invitation", account.id());
              return new Registered("registered", account.view());
            });
  }

  /** Uses a verification token. */
  public CompletionStage<Account.View> verify(String token) {
    String accountId = MailedTokens.holderOf(token);
    return asks.<AccountEntity.Command, Account>ask(
            accountRefs.account(accountId),
            reply ->
                new AccountEntity.VerifyEmail(MailedTokens.hash(token), clock.instant(), reply))
        .exceptionally(MailedTokens::refusedOrRethrown)
        .thenApply(
            account -> {
              log.info("event=email-verified account={}", account.id());
              return account.view();
            });
  }

  /** Mails a new verification token to an unverified account; the earlier one stops working. */
  public CompletionStage<Accepted> resendVerification(String address) {
    requireMail();
    String normalized = EmailEntity.normalize(Accounts.validEmail(address, "email"));
    return budget
        .requireRoom()
        .thenApply(
            room -> {
              resendAfterAnswer(normalized);
              return new Accepted(
                  "pending",
                  "if the address has an unverified account, a new verification link is on its"
                      + " way");
            });
  }

  private void resendAfterAnswer(String normalized) {
    accounts
        .byEmail(normalized)
        .thenCompose(
            account ->
                account.emailVerified()
                    ? CompletableFuture.completedFuture(null)
                    : mailToken(
                        account,
                        TokenPurpose.VERIFY_EMAIL,
                        VERIFICATION_LIFETIME,
                        mails::verification))
        .whenComplete(logFailure("resend-verification"));
  }

  /** Mails a password-reset token to the account holding the address, if one does. */
  public CompletionStage<Accepted> forgotPassword(String address) {
    requireMail();
    String normalized = EmailEntity.normalize(Accounts.validEmail(address, "email"));
    return budget
        .requireRoom()
        .thenApply(
            room -> {
              accounts
                  .byEmail(normalized)
                  .thenCompose(
                      account ->
                          mailToken(
                              account,
                              TokenPurpose.RESET_PASSWORD,
                              RESET_LIFETIME,
                              mails::passwordReset))
                  .whenComplete(logFailure("forgot-password"));
              return new Accepted(
                  "pending",
                  "if the address has an account, a message with a reset link is on its way");
            });
  }

  /**
   * Mails the account a password-reset link, as an administrator asked; fails with {@link
   * MailNotConfigured} without SMTP, and with an entity refusal while the address cools down.
   */
  CompletionStage<Void> mailPasswordReset(Account account) {
    requireMail();
    return mailToken(account, TokenPurpose.RESET_PASSWORD, RESET_LIFETIME, mails::passwordReset);
  }

  /**
   * A password-reset token handed to the operator instead of mailed (no SMTP): a one-time password
   * with which the holder chooses a new password, at {@code link} or through POST
   * /auth/reset-password, once, before {@code expiresAt}.
   */
  public record IssuedReset(String token, String link, Instant expiresAt) {}

  boolean mailConfigured() {
    return email.configured();
  }

  /**
   * Issues the account a password-reset token without mailing it, replacing an earlier one, for the
   * command line to print.
   */
  CompletionStage<IssuedReset> issuePasswordReset(Account account) {
    String token = MailedTokens.create(account.id());
    Instant expiresAt = clock.instant().plus(RESET_LIFETIME);
    return keepToken(account.id(), TokenPurpose.RESET_PASSWORD, token, expiresAt)
        .thenApply(kept -> new IssuedReset(token, mails.link(token, "reset-password"), expiresAt));
  }

  /**
   * Uses a reset token to set a new password under the policy; the address counts as proven and
   * every token signed before ends. A password the policy refuses leaves the token usable.
   */
  public CompletionStage<Account.View> resetPassword(String token, String password) {
    List<Issue> issues = PasswordPolicy.check(password, null, "password");
    if (!issues.isEmpty()) throw new ValidationException(issues);
    String accountId = MailedTokens.holderOf(token);
    String tokenHash = MailedTokens.hash(token);
    return asks.<AccountEntity.Command, Account>ask(
            accountRefs.account(accountId),
            reply ->
                new AccountEntity.CheckToken(
                    TokenPurpose.RESET_PASSWORD, tokenHash, clock.instant(), reply))
        .exceptionally(MailedTokens::refusedOrRethrown)
        .thenApplyAsync(
            account -> {
              List<Issue> personal = PasswordPolicy.check(password, account.email(), "password");
              if (!personal.isEmpty()) throw new ValidationException(personal);
              return Passwords.hash(password);
            },
            hashing)
        .thenCompose(
            newHash ->
                asks.<AccountEntity.Command, Account>ask(
                    accountRefs.account(accountId),
                    reply ->
                        new AccountEntity.ResetPassword(
                            tokenHash, newHash, clock.instant(), reply)))
        .exceptionally(MailedTokens::refusedOrRethrown)
        .thenApply(
            account -> {
              sessions.forget(account.id());
              log.info("event=password-reset account={}", account.id());
              return account.view();
            });
  }

  /**
   * Mails the account a fresh token, when its address may have mail now: nothing is written or sent
   * while the address cools down or has had its mails of the day ({@link EmailEntity}), nor while
   * the instance's mails of the hour are used up ({@link MailBudget}).
   */
  private CompletionStage<Void> mailToken(
      Account to, TokenPurpose purpose, Duration lifetime, MailText text) {
    String token = MailedTokens.create(to.id());
    Instant now = clock.instant();
    return emails
        .reserveMail(to.email(), now)
        .thenCompose(reserved -> budget.reserve())
        .thenCompose(room -> keepToken(to.id(), purpose, token, now.plus(lifetime)))
        .thenCompose(account -> email.send(text.write(account.email(), token, lifetime, now)));
  }

  /** Keeps the hash of a new token in the account (replacing its earlier one of the purpose). */
  private CompletionStage<Account> keepToken(
      String accountId, TokenPurpose purpose, String token, Instant expiresAt) {
    return asks.<AccountEntity.Command, Account>ask(
        accountRefs.account(accountId),
        reply -> new AccountEntity.IssueToken(purpose, MailedTokens.hash(token), expiresAt, reply));
  }

  private void requireMail() {
    if (!email.configured()) throw new MailNotConfigured();
  }

  /**
   * Work after the answer is nobody's to report to: an address without an account ends here
   * quietly, anything else is logged (never the address or the token).
   */
  private static BiConsumer<Object, Throwable> logFailure(String flow) {
    return (result, failure) -> {
      if (failure == null || Failures.isRefusal(failure)) return;
      Throwable cause = Failures.unwrap(failure);
      log.warn(
          "event=account-mail-failed flow={} reason=\"{}: {}\"",
          flow,
          cause.getClass().getSimpleName(),
          cause.getMessage());
    };
  }
}
