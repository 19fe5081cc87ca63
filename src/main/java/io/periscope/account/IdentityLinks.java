package io.periscope.account;

import io.periscope.auth.EmailEntity;
import io.periscope.auth.EmailIndex;
import io.periscope.auth.IdentityLinkEntity;
import io.periscope.auth.MailBudget;
import io.periscope.auth.MailedTokens;
import io.periscope.auth.ProviderIdentity;
import io.periscope.auth.Role;
import io.periscope.entity.Asks;
import io.periscope.entity.Failures;
import io.periscope.json.ValidationException;
import io.periscope.notify.EmailSender;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.Done;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which Periscope account an identity provider's sign-in opens. An account is bound to the
 * provider's account ({@link ProviderIdentity}: provider, issuer, subject), never to the address
 * the provider asserts, which a provider may let anyone claim:
 *
 * <ul>
 *   <li>a provider account linked before signs in its account, whatever address it shows now;
 *   <li>one not linked yet, whose address no account holds, makes a new user account, linked;
 *   <li>one whose address an account holds gets no session: the account's holder is mailed a link
 *       that connects the two ({@link #confirm}), and only then does the sign-in open it. An
 *       administrator's account is never linked, and without e-mail nothing can be linked.
 * </ul>
 */
public final class IdentityLinks {
  private static final Logger log = LoggerFactory.getLogger(IdentityLinks.class);
  public static final Duration LINK_LIFETIME = Duration.ofHours(1);

  /** The sign-in found an account it may not open: a link was mailed to its address. */
  public static final class LinkMailed extends RuntimeException {
    LinkMailed() {
      super(
          "an account already uses this e-mail address: a link that connects this sign-in to it"
              + " was mailed to the address; follow it, then sign in again",
          null,
          false,
          false);
    }
  }

  /** The sign-in found an account that may not be linked this way. */
  public static final class LinkRefused extends RuntimeException {
    LinkRefused(String message) {
      super(message, null, false, false);
    }
  }

  private final Accounts accounts;
  private final EmailIndex emails;
  private final AccountEntity.Refs accountRefs;
  private final EmailEntity.Refs emailEntities;
  private final IdentityLinkEntity.Refs links;
  private final Asks asks;
  private final EmailSender email;
  private final MailBudget budget;
  private final AccountMails mails;
  private final AccountAccess sessions;
  private final Registration registration;
  private final Clock clock;

  public IdentityLinks(
      Accounts accounts,
      AccountEntity.Refs accountRefs,
      EmailEntity.Refs emailEntities,
      IdentityLinkEntity.Refs links,
      Asks asks,
      EmailSender email,
      MailBudget budget,
      AccountMails mails,
      AccountAccess sessions,
      Registration registration,
      Clock clock) {
    this.accounts = accounts;
    this.emails = new EmailIndex(emailEntities, asks);
    this.accountRefs = accountRefs;
    this.emailEntities = emailEntities;
    this.links = links;
    this.asks = asks;
    this.email = email;
    this.budget = budget;
    this.mails = mails;
    this.sessions = sessions;
    this.registration = registration;
    this.clock = clock;
  }

  /**
   * The session of the account {@code who} signs in, as the rules above say. Fails with {@link
   * LinkMailed}, {@link LinkRefused}, or {@link ValidationException} for an address that is none.
   */
  public CompletionStage<Accounts.Session> signIn(ProviderIdentity who) {
    String address = EmailEntity.normalize(Accounts.validEmail(who.email(), "email"));
    return linked(who)
        .thenCompose(
            accountId ->
                accountId != null
                    ? account(accountId)
                        .exceptionally(
                            gone -> {
                              if (!Failures.isRefusal(gone)) return Failures.rethrow(gone);
                              throw new LinkRefused(
                                  "the account this sign-in was linked to was deleted");
                            })
                    : emails
                        .holder(address)
                        .handle(
                            (holder, none) -> {
                              if (none != null && !Failures.isRefusal(none))
                                return CompletableFuture.<Account>failedFuture(none);
                              return holder == null
                                  ? newAccount(who, address)
                                  : account(holder).thenCompose(a -> proposeLink(who, a));
                            })
                        .thenCompose(stage -> stage))
        .thenApply(
            account -> {
              log.info("event=signed-in provider={} account={}", who.provider(), account.id());
              return accounts.session(account);
            });
  }

  /**
   * Uses a mailed link token: the provider account is linked to the account, whose address is now
   * proven (an unproven password goes, as it may be a squatter's). Fails with {@link
   * ValidationException} for an unknown, used, replaced or expired token.
   */
  public CompletionStage<Account.View> confirm(String token) {
    String linkId = MailedTokens.holderOf(token);
    return asks.<IdentityLinkEntity.Command, IdentityLinkEntity.Pending>ask(
            links.identityLink(linkId),
            reply ->
                new IdentityLinkEntity.Confirm(MailedTokens.hash(token), clock.instant(), reply))
        .exceptionally(MailedTokens::refusedOrRethrown)
        .thenCompose(
            link ->
                asks.<AccountEntity.Command, Account>ask(
                    accountRefs.account(link.accountId()),
                    reply -> new AccountEntity.VerifiedByProvider(link.provider(), reply)))
        .thenApply(
            account -> {
              sessions.forget(account.id());
              log.info("event=identity-linked account={}", account.id());
              return account.view();
            });
  }

  /**
   * What a mailed link token would link, for its holder to confirm by a deliberate act: the
   * provider, the person's login there (null for a proposal made before logins were kept) and when
   * the token expires. The token stays unused, so opening the page a link leads to (as a mail
   * scanner does) links nothing.
   */
  public record LinkDetails(String provider, String login, Instant expiresAt) {}

  /**
   * @throws ValidationException (through the stage) for an unknown, used, replaced or expired
   *     token, as {@link #confirm} would
   */
  public CompletionStage<LinkDetails> details(String token) {
    return asks.<IdentityLinkEntity.Command, IdentityLinkEntity.Pending>ask(
            links.identityLink(MailedTokens.holderOf(token)),
            reply -> new IdentityLinkEntity.Peek(MailedTokens.hash(token), clock.instant(), reply))
        .exceptionally(MailedTokens::refusedOrRethrown)
        .thenApply(p -> new LinkDetails(p.provider(), p.login(), p.expiresAt()));
  }

  /** The linked account's id, null when there is none. */
  private CompletionStage<String> linked(ProviderIdentity who) {
    return asks.<IdentityLinkEntity.Command, String>ask(
            links.identityLink(who.linkId()), IdentityLinkEntity.Lookup::new)
        .handle(
            (accountId, none) -> {
              if (none != null && !Failures.isRefusal(none))
                throw new CompletionException(Failures.unwrap(none));
              return accountId;
            });
  }

  private CompletionStage<Account> account(String accountId) {
    return asks.ask(accountRefs.account(accountId), AccountEntity.GetAccount::new);
  }

  /**
   * A new user account, linked; when another sign-in took the address meanwhile, that account's
   * rules apply.
   */
  private CompletionStage<Account> newAccount(ProviderIdentity who, String address) {
    if (!registration.admits(address)) {
      return CompletableFuture.failedFuture(new Registration.Refused(registration.mode()));
    }
    Account fresh =
        new Account(
            Accounts.newAccountId(address), address, Role.USER, null, clock.instant(), true, 0);
    return accounts
        .open(fresh)
        .thenCompose(
            account ->
                asks.<IdentityLinkEntity.Command, Done>ask(
                        links.identityLink(who.linkId()),
                        reply -> new IdentityLinkEntity.Link(account.id(), reply))
                    .thenApply(linked -> account))
        .exceptionallyCompose(
            e ->
                Failures.unwrap(e) instanceof Accounts.Conflict c && c.emailTaken()
                    ? linked(who)
                        .thenCompose(
                            id ->
                                id != null
                                    ? account(id)
                                    : emails
                                        .holder(address)
                                        .thenCompose(this::account)
                                        .thenCompose(a -> proposeLink(who, a)))
                    : CompletableFuture.failedFuture(e));
  }

  /**
   * Mails the holder of {@code account} a link for {@code who}, then fails with {@link LinkMailed};
   * or with {@link LinkRefused} for an administrator, or without e-mail.
   */
  private CompletionStage<Account> proposeLink(ProviderIdentity who, Account account) {
    if (account.role() == Role.ADMIN) {
      throw new LinkRefused(
          "an administrator's account is never linked to an identity provider: sign in with its"
              + " password");
    }
    if (!email.configured()) {
      throw new LinkRefused(
          "an account already uses this e-mail address, and without e-mail on this instance"
              + " (SMTP_HOST, SMTP_FROM) it cannot be linked to this sign-in");
    }
    String token = MailedTokens.create(who.linkId());
    Instant now = clock.instant();
    return emails
        .reserveMail(account.email(), now)
        .thenCompose(reserved -> budget.reserve())
        .thenCompose(
            room ->
                asks.<IdentityLinkEntity.Command, Done>ask(
                    links.identityLink(who.linkId()),
                    reply ->
                        new IdentityLinkEntity.Propose(
                            new IdentityLinkEntity.Pending(
                                account.id(),
                                who.provider(),
                                MailedTokens.hash(token),
                                now.plus(LINK_LIFETIME),
                                who.login()),
                            reply)))
        .thenCompose(
            proposed ->
                email.send(
                    mails.identityLink(account.email(), who.provider(), token, LINK_LIFETIME, now)))
        .handle(
            (sent, failure) -> {
              // mailed, suppressed (the address had its mail for now) or failed: the same answer
              if (failure != null && !Failures.isRefusal(failure)) {
                log.warn(
                    "event=account-mail-failed flow=identity-link reason=\"{}\"",
                    Failures.unwrap(failure).getClass().getSimpleName());
              }
              throw new LinkMailed();
            });
  }
}
