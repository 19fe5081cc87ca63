package io.periscope.quota;

import io.periscope.account.AccountEntity;
import io.periscope.account.AccountWatches;
import io.periscope.entity.Asks;
import io.periscope.entity.Failures;
import io.periscope.notify.Alert;
import io.periscope.notify.Notifier;
import io.periscope.watch.Watch;
import io.periscope.watch.WatchEntity;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An owner told that a budget of the month is spent: one notice on the channels of the owner's
 * watches (each channel once), sent at once and not retried; the quota entity sees that it goes
 * once a month.
 */
public final class BudgetNotices implements QuotaPolicy.BudgetNotice {
  private static final Logger log = LoggerFactory.getLogger(BudgetNotices.class);

  private final AccountEntity.Refs accounts;
  private final WatchEntity.Refs watches;
  private final Asks asks;
  private final Notifier notifier;

  public BudgetNotices(
      AccountEntity.Refs accounts, WatchEntity.Refs watches, Asks asks, Notifier notifier) {
    this.accounts = accounts;
    this.watches = watches;
    this.asks = asks;
    this.notifier = notifier;
  }

  @Override
  public void tell(String accountId, String message) {
    new AccountWatches(accounts, watches, asks)
        .live(accountId)
        .thenCompose(
            live -> {
              List<String> channels =
                  live.stream().flatMap((Watch w) -> w.channels().stream()).distinct().toList();
              Alert notice =
                  new Alert(
                      accountId,
                      null,
                      "Periscope",
                      Alert.Strength.NOTICE,
                      1,
                      "a model budget is spent: "
                          + message
                          + "\nScheduled runs call no model until then; their items wait unseen.",
                      List.of(),
                      "",
                      Instant.now(),
                      "budget-" + UUID.randomUUID());
              return notifier.send(channels, notice);
            })
        .whenComplete(
            (sent, failure) -> {
              if (failure != null)
                log.warn(
                    "event=budget-notice-failed account={} problem={}",
                    accountId,
                    Failures.unwrap(failure).getClass().getSimpleName());
            });
  }
}
