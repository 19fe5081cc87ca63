package io.periscope.auth;

import com.typesafe.config.Config;
import io.periscope.entity.Asks;
import io.periscope.entity.OverQuota;
import io.periscope.entity.Refusal;
import io.periscope.notify.AdminAlerts;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.japi.function.Function;
import org.apache.pekko.pattern.StatusReply;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How much mail with a link the instance sends ({@code periscope.mail}, MAIL_*): at most {@code
 * perHour} account mails an hour across the cluster ({@link MailBudgetEntity}), the operator
 * alerted once an hour when that is reached; per account, the confirmation mails and address
 * changes of its e-mail channels a day (kept by the channels' addresses entity); and how long an
 * account whose address was never proven is kept ({@code UnverifiedAccounts}).
 */
public final class MailBudget {
  private static final Logger log = LoggerFactory.getLogger(MailBudget.class);

  /** The operator's settings; 0 is no limit (for the days kept: kept forever). */
  public record Settings(
      int perHour,
      int confirmationsPerAccountDay,
      int addressChangesPerAccountDay,
      int unverifiedAccountDays) {
    public static final Settings NONE = new Settings(0, 0, 0, 0);

    public static Settings from(Config config) {
      Config m = config.getConfig("periscope.mail");
      return new Settings(
          Math.max(0, m.getInt("per-hour")),
          Math.max(0, m.getInt("confirmations-per-account-day")),
          Math.max(0, m.getInt("address-changes-per-account-day")),
          Math.max(0, m.getInt("unverified-account-days")));
    }

    /** How long an unverified account is kept; empty: forever. */
    public Optional<Duration> unverifiedKept() {
      return unverifiedAccountDays == 0
          ? Optional.empty()
          : Optional.of(Duration.ofDays(unverifiedAccountDays));
    }
  }

  /** The instance's mails of the hour are used up: a 429 naming the budget. */
  static OverQuota spent(int limit) {
    return new OverQuota(
        Refusal.Kind.USED_UP,
        "mailsPerHour",
        limit,
        "this instance has sent its " + limit + " mails of the hour; try again later");
  }

  private final MailBudgetEntity.Refs entity;
  private final Asks asks;
  private final Settings settings;
  private final AdminAlerts alerts;
  private final Clock clock;

  public MailBudget(
      MailBudgetEntity.Refs entity, Asks asks, Settings settings, AdminAlerts alerts, Clock clock) {
    this.entity = entity;
    this.asks = asks;
    this.settings = settings;
    this.alerts = alerts;
    this.clock = clock;
  }

  public Settings settings() {
    return settings;
  }

  /**
   * Fails with a 429 ({@link #spent}) while the hour's mails are used up, taking no place; the
   * operator is alerted as by {@link #reserve}.
   */
  public CompletionStage<Void> requireRoom() {
    return asked(reply -> new MailBudgetEntity.Peek(clock.instant(), settings.perHour(), reply));
  }

  /**
   * Takes the place of one mail; fails with a 429 ({@link #spent}) when the hour's are used up, the
   * operator alerted at the first such refusal of an hour.
   */
  public CompletionStage<Void> reserve() {
    return asked(reply -> new MailBudgetEntity.Reserve(clock.instant(), settings.perHour(), reply));
  }

  private CompletionStage<Void> asked(
      Function<ActorRef<StatusReply<MailBudgetEntity.Reservation>>, MailBudgetEntity.Command>
          command) {
    if (settings.perHour() == 0) return CompletableFuture.completedFuture(null);
    return asks.<MailBudgetEntity.Command, MailBudgetEntity.Reservation>ask(
            entity.mailBudget(), command)
        .thenApply(this::granted);
  }

  /** Nothing when granted; else a 429, the operator alerted at the first refusal of an hour. */
  private Void granted(MailBudgetEntity.Reservation r) {
    if (r.granted()) return null;
    if (r.firstRefusal()) {
      log.warn("event=mail-budget-reached per-hour={}", settings.perHour());
      alerts.alert(
          AdminAlerts.Kind.MAIL_BUDGET_REACHED,
          "the instance sent its "
              + settings.perHour()
              + " account mails of the hour (MAIL_PER_HOUR): registration, recovery and"
              + " address confirmations answer 429 until the hour has room again");
    }
    throw spent(settings.perHour());
  }
}
