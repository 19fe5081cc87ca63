package io.periscope.channels;

import io.periscope.account.AccountMails;
import io.periscope.account.Accounts;
import io.periscope.account.SelfService;
import io.periscope.auth.EmailEntity;
import io.periscope.auth.EmailIndex;
import io.periscope.auth.MailBudget;
import io.periscope.auth.MailedTokens;
import io.periscope.entity.Asks;
import io.periscope.entity.EntityRefusal;
import io.periscope.entity.Failures;
import io.periscope.entity.OverQuota;
import io.periscope.entity.Refusal;
import io.periscope.json.ValidationException;
import io.periscope.notify.EmailSender;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.Done;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Addresses an owner's {@code email:} channels may mail, confirmed by their mailboxes: asking mails
 * the address a link ({@code <owner>.<secret>}, single-use, {@link #LIFETIME}); using it confirms
 * the address for that owner. The mail goes through the address's allowance ({@link EmailEntity}: a
 * mail a minute, ten a day), so nobody can flood an address through this either; through the
 * owner's budgets (confirmation mails a day, addresses added or removed a day: past them a 429), so
 * nobody sends many addresses a mail each; and through the instance's mails of the hour ({@link
 * MailBudget}).
 */
public final class ChannelAddresses {
  private static final Logger log = LoggerFactory.getLogger(ChannelAddresses.class);
  public static final Duration LIFETIME = Duration.ofHours(24);

  /** The owner has {@link ChannelAddressesEntity#MAX_ADDRESSES} addresses already. */
  public static final class TooMany extends Refusal {
    TooMany(String message) {
      super(Kind.CONFLICT, message);
    }
  }

  private final EmailEntity.Refs emailEntities;
  private final ChannelAddressesEntity.Refs channelAddresses;
  private final Asks asks;
  private final EmailIndex emails;
  private final EmailSender email;
  private final MailBudget budget;
  private final AccountMails mails;
  private final Clock clock;

  public ChannelAddresses(
      EmailEntity.Refs emailEntities,
      ChannelAddressesEntity.Refs channelAddresses,
      Asks asks,
      EmailSender email,
      MailBudget budget,
      AccountMails mails,
      Clock clock) {
    this.emailEntities = emailEntities;
    this.channelAddresses = channelAddresses;
    this.asks = asks;
    this.emails = new EmailIndex(emailEntities, asks);
    this.email = email;
    this.budget = budget;
    this.mails = mails;
    this.clock = clock;
  }

  public CompletionStage<ChannelAddressesEntity.Addresses> list(String accountId) {
    return asks.ask(channelAddresses.channelAddresses(accountId), ChannelAddressesEntity.Get::new);
  }

  /**
   * Mails {@code address} a confirmation link for {@code accountId}'s channels (nothing when it is
   * confirmed already, or has had its mail for now). Fails with {@link ValidationException} for an
   * address that is none, {@link SelfService.MailNotConfigured} without SMTP, {@link TooMany}, and
   * {@link OverQuota} (429) when the owner's budgets or the instance's mails of the hour are spent.
   */
  public CompletionStage<Done> request(String accountId, String address) {
    if (!email.configured()) throw new SelfService.MailNotConfigured();
    String normalized = EmailEntity.normalize(Accounts.validEmail(address, "address"));
    String token = MailedTokens.create(accountId);
    Instant now = clock.instant();
    ChannelAddressesEntity.Budgets budgets = budgets();
    // The owner's budgets first, then the address's allowance: a request either refuses writes
    // nothing, so the link mailed before stays the one that works.
    return asks.<ChannelAddressesEntity.Command, Done>ask(
            channelAddresses.channelAddresses(accountId),
            reply -> new ChannelAddressesEntity.CheckBudgets(normalized, now, budgets, reply))
        .exceptionally(e -> Failures.rethrow(spentOr(e, budgets)))
        .thenCompose(checked -> emails.reserveMail(normalized, now))
        .thenCompose(reserved -> budget.reserve())
        .thenCompose(
            room ->
                asks.<ChannelAddressesEntity.Command, Done>ask(
                        channelAddresses.channelAddresses(accountId),
                        reply ->
                            new ChannelAddressesEntity.Request(
                                new ChannelAddressesEntity.Waiting(
                                    normalized, MailedTokens.hash(token), now.plus(LIFETIME)),
                                now,
                                budgets,
                                reply))
                    .exceptionallyCompose(
                        e -> {
                          Throwable cause = Failures.unwrap(e);
                          if (!Failures.isRefusal(cause))
                            return CompletableFuture.failedFuture(cause);
                          if (EntityRefusal.is(cause, EntityRefusal.Code.CONFIRMED_ALREADY))
                            return CompletableFuture.completedFuture(null);
                          Throwable spent = spentOr(cause, budgets);
                          return CompletableFuture.failedFuture(
                              spent != cause ? spent : new TooMany(cause.getMessage()));
                        })
                    .thenApply(
                        requested -> {
                          if (requested != null) mail(accountId, normalized, token, now);
                          return Done.getInstance();
                        }))
        // the allowance refused: nothing written, nothing sent, the same answer
        .exceptionallyCompose(
            e ->
                Failures.isRefusal(e)
                    ? CompletableFuture.completedFuture(Done.getInstance())
                    : CompletableFuture.failedFuture(e));
  }

  /** Sends the link after the answer; a failure is logged, and the owner can ask again. */
  private void mail(String accountId, String address, String token, Instant now) {
    email
        .send(mails.channelAddress(address, accountId, token, LIFETIME, now))
        .whenComplete(
            (sent, failure) -> {
              if (failure != null)
                log.warn(
                    "event=account-mail-failed flow=channel-address reason=\"{}\"",
                    Failures.unwrap(failure).getClass().getSimpleName());
            });
  }

  /** Uses a mailed link: answers the address now confirmed. */
  public CompletionStage<String> confirm(String token) {
    String accountId = MailedTokens.holderOf(token);
    return asks.<ChannelAddressesEntity.Command, String>ask(
            channelAddresses.channelAddresses(accountId),
            reply ->
                new ChannelAddressesEntity.Confirm(
                    MailedTokens.hash(token), clock.instant(), reply))
        .exceptionally(MailedTokens::refusedOrRethrown)
        .thenApply(
            address -> {
              log.info("event=channel-address-confirmed owner={}", accountId);
              return address;
            });
  }

  /**
   * Forgets an address; fails with an entity refusal when the owner has none such, with {@link
   * OverQuota} when the owner's address changes of the day are spent.
   */
  public CompletionStage<Done> remove(String accountId, String address) {
    ChannelAddressesEntity.Budgets budgets = budgets();
    return asks.<ChannelAddressesEntity.Command, Done>ask(
            channelAddresses.channelAddresses(accountId),
            reply ->
                new ChannelAddressesEntity.Remove(
                    EmailEntity.normalize(address), clock.instant(), budgets, reply))
        .exceptionally(e -> Failures.rethrow(spentOr(e, budgets)));
  }

  private ChannelAddressesEntity.Budgets budgets() {
    MailBudget.Settings settings = budget.settings();
    return new ChannelAddressesEntity.Budgets(
        settings.confirmationsPerAccountDay(), settings.addressChangesPerAccountDay());
  }

  /** The entity's refusal of a spent budget as a 429 naming it; any other failure as it is. */
  private static Throwable spentOr(Throwable failure, ChannelAddressesEntity.Budgets budgets) {
    Throwable cause = Failures.unwrap(failure);
    if (!Failures.isRefusal(cause)) return cause;
    return switch (cause.getMessage()) {
      case ChannelAddressesEntity.MAILS_SPENT ->
          new OverQuota(
              Refusal.Kind.USED_UP,
              "confirmationMailsPerDay",
              budgets.mailsPerDay(),
              "this account asked for its "
                  + budgets.mailsPerDay()
                  + " confirmation mails of the day (MAIL_CONFIRMATIONS_PER_DAY)");
      case ChannelAddressesEntity.CHANGES_SPENT ->
          new OverQuota(
              Refusal.Kind.USED_UP,
              "addressChangesPerDay",
              budgets.changesPerDay(),
              "this account added or removed its "
                  + budgets.changesPerDay()
                  + " addresses of the day (MAIL_ADDRESS_CHANGES_PER_DAY)");
      default -> cause;
    };
  }
}
