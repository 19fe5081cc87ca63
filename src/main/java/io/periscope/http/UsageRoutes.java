package io.periscope.http;

import static io.periscope.http.ApiDirectives.adminOnly;
import static io.periscope.http.ApiDirectives.answer;
import static io.periscope.http.ApiDirectives.perAccount;
import static io.periscope.http.Reply.ok;
import static io.periscope.http.WatchRoutes.watch;
import static org.apache.pekko.http.javadsl.model.HttpMethods.GET;
import static org.apache.pekko.http.javadsl.server.Directives.parameterOptional;

import io.periscope.account.Account;
import io.periscope.account.Accounts;
import io.periscope.entity.Asks;
import io.periscope.entity.Refusal;
import io.periscope.json.Issue;
import io.periscope.llm.ModelUsage;
import io.periscope.llm.UsageLedger;
import io.periscope.ratelimit.FixedWindowRateLimiter;
import io.periscope.runtime.Entities;
import io.periscope.watch.WatchEntity;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * What the model calls took (docs/http-interface.md, "Usage"): a watch's ({@code GET
 * /watches/:id/usage}), the caller's with each watch's ({@code GET /account/usage}) and, for
 * administrators, each account's ({@code GET /admin/usage}); each over {@code days} UTC days up to
 * today, with the current calendar month's total.
 */
public final class UsageRoutes implements Routes {
  /** The days of a series when none is asked for. */
  static final int DEFAULT_DAYS = 30;

  private final UsageLedger ledger;
  private final Accounts accounts;
  private final Entities entities;
  private final Asks asks;
  private final FixedWindowRateLimiter reads;

  /**
   * @param reads the reads limit of each account, which every usage route counts against
   */
  public UsageRoutes(
      UsageLedger ledger,
      Accounts accounts,
      Entities entities,
      Asks asks,
      FixedWindowRateLimiter reads) {
    this.reads = reads;
    this.ledger = ledger;
    this.accounts = accounts;
    this.entities = entities;
    this.asks = asks;
  }

  /** The body of GET /watches/:id/usage. */
  public record WatchUsage(
      String watchId,
      LocalDate from,
      LocalDate to,
      List<UsageLedger.Day> days,
      ModelUsage total,
      ModelUsage month) {}

  /** One account's line of GET /admin/usage. */
  public record AccountTotal(String accountId, ModelUsage total, ModelUsage month) {}

  /** The body of GET /admin/usage: every account's, most tokens first, and their sum. */
  public record AdminUsage(
      LocalDate from,
      LocalDate to,
      ModelUsage total,
      ModelUsage month,
      List<AccountTotal> accounts) {}

  @Override
  public List<Endpoint> endpoints() {
    return List.of(
        new Endpoint(
            GET,
            "/watches/{id}/usage",
            perAccount(
                reads,
                watch(
                    (accountId, id, p) ->
                        withDays(days -> answer(watchUsage(accountId, id, days)))))),
        new Endpoint(
            GET,
            "/account/usage",
            perAccount(
                reads,
                (caller, p) ->
                    withDays(
                        days ->
                            answer(
                                ledger
                                    .series(caller.accountId(), days, watchId -> true)
                                    .thenApply(Reply::ok))))),
        new Endpoint(
            GET,
            "/admin/usage",
            perAccount(
                reads,
                (caller, p) -> adminOnly(caller, () -> withDays(days -> answer(all(days)))))));
  }

  /** {@code inner} with the {@code days} asked, 1 to {@link UsageLedger#MAX_DAYS}; else a 400. */
  private static Route withDays(Function<Integer, Route> inner) {
    return parameterOptional(
        "days",
        given -> {
          Optional<Integer> days = parse(given);
          return days.isPresent()
              ? inner.apply(days.get())
              : answer(
                  Reply.invalid(
                      List.of(
                          Issue.at(
                              "must be a whole number from 1 to " + UsageLedger.MAX_DAYS,
                              "query",
                              "days"))));
        });
  }

  static Optional<Integer> parse(Optional<String> given) {
    if (given.isEmpty()) return Optional.of(DEFAULT_DAYS);
    try {
      int days = Integer.parseInt(given.get());
      return days >= 1 && days <= UsageLedger.MAX_DAYS ? Optional.of(days) : Optional.empty();
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /** 404 for a watch the caller never had, as its run history; a deleted watch's is kept. */
  private CompletionStage<Reply> watchUsage(String accountId, String id, int days) {
    return asks.<WatchEntity.Command, WatchEntity.Runs>ask(
            entities.watch(accountId, id), r -> new WatchEntity.GetRuns(1, r))
        .thenCompose(exists -> ledger.series(accountId, days, id::equals))
        .thenApply(s -> ok(new WatchUsage(id, s.from(), s.to(), s.days(), s.total(), s.month())))
        .exceptionally(Refusal.as(Refusal.Kind.NOT_FOUND, WatchEntity.WATCH_NOT_FOUND));
  }

  private CompletionStage<Reply> all(int days) {
    return accounts
        .list()
        .thenCompose(
            list -> {
              List<CompletableFuture<UsageLedger.Series>> each =
                  list.stream()
                      .map(a -> ledger.series(a.id(), days, watchId -> true).toCompletableFuture())
                      .toList();
              return CompletableFuture.allOf(each.toArray(CompletableFuture[]::new))
                  .thenApply(
                      done -> {
                        List<UsageLedger.Series> series =
                            each.stream().map(CompletableFuture::join).toList();
                        return ok(summed(ledger.window(days), list, series));
                      });
            });
  }

  private static AdminUsage summed(
      UsageLedger.Window days, List<Account.View> list, List<UsageLedger.Series> series) {
    List<AccountTotal> totals = new ArrayList<>();
    ModelUsage total = ModelUsage.NONE;
    ModelUsage month = ModelUsage.NONE;
    for (int i = 0; i < list.size(); i++) {
      UsageLedger.Series s = series.get(i);
      totals.add(new AccountTotal(list.get(i).id(), s.total(), s.month()));
      total = total.plus(s.total());
      month = month.plus(s.month());
    }
    totals.sort(
        Comparator.comparingLong(
                (AccountTotal a) -> a.total().inputTokens() + a.total().outputTokens())
            .reversed()
            .thenComparing(AccountTotal::accountId));
    return new AdminUsage(days.from(), days.to(), total, month, totals);
  }
}
