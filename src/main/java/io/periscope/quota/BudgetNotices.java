package io.periscope.quota;

import io.periscope.account.AccountEntity;
import io.periscope.account.AccountWatches;
import io.periscope.entity.Asks;
import io.periscope.entity.Failures;
import io.periscope.watch.Watch;
import io.periscope.watch.WatchEntity;
import java.time.Clock;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.Done;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An owner told that a budget of the month is spent: one notice on each channel of the owner's
 * watches, owed in the outbox of the first watch that has the channel, so it is retried past a
 * flaky receiver and survives a restart like an alert; the quota entity sees that it goes once a
 * month.
 */
public final class BudgetNotices implements QuotaPolicy.BudgetNotice {
  private static final Logger log = LoggerFactory.getLogger(BudgetNotices.class);

  private final AccountEntity.Refs accounts;
  private final WatchEntity.Refs watches;
  private final Asks asks;
  private final Clock clock;

  public BudgetNotices(
      AccountEntity.Refs accounts, WatchEntity.Refs watches, Asks asks, Clock clock) {
    this.accounts = accounts;
    this.watches = watches;
    this.asks = asks;
    this.clock = clock;
  }

  /** Each channel once, with the first of {@code live} (oldest first) that names it. */
  static Map<String, List<String>> carriers(List<Watch> live) {
    Set<String> taken = new HashSet<>();
    Map<String, List<String>> byWatch = new LinkedHashMap<>();
    for (Watch w : live) {
      List<String> mine = new ArrayList<>();
      for (String channel : w.channels()) if (taken.add(channel)) mine.add(channel);
      if (!mine.isEmpty()) byWatch.put(w.id(), mine);
    }
    return byWatch;
  }

  @Override
  public void tell(String accountId, String message) {
    String noticeId = "budget-" + YearMonth.now(clock.withZone(java.time.ZoneOffset.UTC));
    String summary =
        "a model budget is spent: "
            + message
            + "\nScheduled runs call no model until then; their items wait unseen.";
    new AccountWatches(accounts, watches, asks)
        .live(accountId)
        .thenCompose(
            live ->
                CompletableFuture.allOf(
                    carriers(live).entrySet().stream()
                        .map(
                            carrier ->
                                asks.<WatchEntity.Command, Done>ask(
                                        watches.watch(accountId, carrier.getKey()),
                                        r ->
                                            new WatchEntity.OweAccountNotice(
                                                noticeId, carrier.getValue(), summary, r))
                                    .toCompletableFuture())
                        .toArray(CompletableFuture[]::new)))
        .whenComplete(
            (owed, failure) -> {
              if (failure != null)
                log.warn(
                    "event=budget-notice-failed account={} problem={}",
                    accountId,
                    Failures.unwrap(failure).getClass().getSimpleName());
            });
  }
}
