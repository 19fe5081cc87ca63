package io.periscope.quota;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import io.micrometer.core.instrument.MeterRegistry;
import io.periscope.account.Account;
import io.periscope.account.AccountEntity;
import io.periscope.account.AccountWatches;
import io.periscope.auth.Role;
import io.periscope.entity.Asks;
import io.periscope.entity.Failures;
import io.periscope.entity.OverQuota;
import io.periscope.entity.Refusal;
import io.periscope.json.Issue;
import io.periscope.json.ValidationException;
import io.periscope.llm.ModelUsage;
import io.periscope.watch.CronExpressions;
import io.periscope.watch.Watch;
import io.periscope.watch.WatchEntity;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The quotas of each account: the operator's defaults ({@code periscope.quotas}, QUOTA_*) under an
 * administrator's overrides of the account; an administrator's own account is held to them too
 * unless QUOTA_ADMINS_EXEMPT. Checked before anything is written: a watch's schedule (400 naming
 * {@code schedule}), its sources and the number of watches (409, reserved by {@code
 * watches.Watches}), model calls per UTC day and the budgets of model tokens and cost per UTC
 * calendar month (429; the month's use is read from the usage ledger, so a budget holds as closely
 * as the calls' usage is recorded).
 */
public final class QuotaPolicy {
  private final Quotas defaults;
  private final boolean adminsExempt;
  private final QuotaEntity.Refs quotas;
  private final AccountEntity.Refs accountRefs;
  private final WatchEntity.Refs watches;
  private final Asks asks;
  private final MonthSpent monthSpent;
  private final RecentAccounts recentAccounts;
  private final BudgetMeters meters;
  private final Clock clock;

  /** Tells an account's owner, on their channels, that a budget of the month is spent. */
  @FunctionalInterface
  public interface BudgetNotice {
    void tell(String accountId, String message);

    BudgetNotice NONE = (accountId, message) -> {};
  }

  private volatile BudgetNotice budgetNotice = BudgetNotice.NONE;

  /** Where the owner is told a budget is spent (the notifier is made after this policy). */
  public void tellOwnersBy(BudgetNotice notice) {
    this.budgetNotice = notice;
  }

  /** What an account's model calls took in the current UTC calendar month. */
  @FunctionalInterface
  public interface MonthSpent {
    CompletionStage<ModelUsage> of(String accountId);
  }

  /**
   * An account as this node read it a few seconds ago at most, failing when there is none: what a
   * model call needs of it (its role) on every run.
   */
  @FunctionalInterface
  public interface RecentAccounts {
    CompletionStage<Account> of(String accountId);
  }

  public QuotaPolicy(
      Quotas defaults,
      boolean adminsExempt,
      QuotaEntity.Refs quotas,
      AccountEntity.Refs accountRefs,
      WatchEntity.Refs watches,
      Asks asks,
      MonthSpent monthSpent,
      RecentAccounts recentAccounts,
      MeterRegistry registry,
      Clock clock) {
    this.defaults = defaults;
    this.adminsExempt = adminsExempt;
    this.quotas = quotas;
    this.accountRefs = accountRefs;
    this.watches = watches;
    this.asks = asks;
    this.monthSpent = monthSpent;
    this.recentAccounts = recentAccounts;
    this.meters = new BudgetMeters(registry);
    this.clock = clock;
  }

  /**
   * The policy of {@code config}'s defaults, on the system's clock (days and months are UTC's),
   * counting the budgets spent in {@code registry}.
   */
  public static QuotaPolicy of(
      Config config,
      QuotaEntity.Refs quotas,
      AccountEntity.Refs accountRefs,
      WatchEntity.Refs watches,
      Asks asks,
      MonthSpent monthSpent,
      RecentAccounts recentAccounts,
      MeterRegistry registry) {
    return new QuotaPolicy(
        defaults(config),
        adminsExempt(config),
        quotas,
        accountRefs,
        watches,
        asks,
        monthSpent,
        recentAccounts,
        registry,
        Clock.systemUTC());
  }

  /** The operator's defaults: 0 (or less) is no limit. */
  public static Quotas defaults(Config config) {
    Config q = config.getConfig("periscope.quotas");
    Integer minutes = limit((int) Math.ceil(q.getDuration("min-interval").toSeconds() / 60.0));
    long tokens = q.getLong("model-tokens-per-month");
    BigDecimal cost = decimal(q, "model-cost-per-month");
    return new Quotas(
        limit(q.getInt("max-watches")),
        limit(q.getInt("max-sources-per-watch")),
        minutes,
        limit(q.getInt("model-calls-per-day")),
        tokens > 0 ? tokens : null,
        cost.signum() > 0 ? cost : null);
  }

  private static BigDecimal decimal(Config q, String path) {
    try {
      return new BigDecimal(q.getString(path).trim());
    } catch (NumberFormatException e) {
      throw new ConfigException.BadValue(q.origin(), path, "must be a decimal number, 0 for none");
    }
  }

  public static boolean adminsExempt(Config config) {
    return config.getBoolean("periscope.quotas.admins-exempt");
  }

  private static Integer limit(int configured) {
    return configured > 0 ? configured : null;
  }

  public Quotas defaults() {
    return defaults;
  }

  /** What an account's quotas are, with their usage. */
  public record Report(
      String accountId, String role, Quotas quotas, Quotas overrides, Used usage) {}

  /**
   * What an account uses of its quotas now; {@code modelCostThisMonth} is null when a call of the
   * month had a model without a price.
   */
  public record Used(
      int watches,
      int modelCallsToday,
      long modelTokensThisMonth,
      @JsonInclude(JsonInclude.Include.ALWAYS) BigDecimal modelCostThisMonth) {}

  /** The limits of an account of {@code role}: its overrides over the defaults. */
  public CompletionStage<Quotas> limits(String accountId, Role role) {
    if (role == Role.ADMIN && adminsExempt) return CompletableFuture.completedFuture(Quotas.NONE);
    return usage(accountId).thenApply(u -> u.overrides().over(defaults));
  }

  private CompletionStage<QuotaEntity.Usage> usage(String accountId) {
    return asks.ask(quotas.quota(accountId), r -> new QuotaEntity.Get(today(), r));
  }

  private LocalDate today() {
    return LocalDate.now(clock.withZone(ZoneOffset.UTC));
  }

  /** When the current UTC calendar month ends. */
  private Instant monthEnds() {
    return today().withDayOfMonth(1).plusMonths(1).atStartOfDay(ZoneOffset.UTC).toInstant();
  }

  private static long tokens(ModelUsage spent) {
    return spent.inputTokens() + spent.outputTokens();
  }

  /**
   * Fails with an {@link OverQuota} (429) when the account has spent its month's model tokens or
   * cost under {@code limits}. A month whose cost is unknown (a call of a model without a price) is
   * held to its tokens only: a cost is never guessed.
   */
  private CompletionStage<Quotas> withinBudgets(String accountId, Quotas limits) {
    Long tokenBudget = limits.modelTokensPerMonth();
    BigDecimal costBudget = limits.modelCostPerMonth();
    if (tokenBudget == null && costBudget == null) return CompletableFuture.completedFuture(limits);
    return monthSpent
        .of(accountId)
        .thenApply(
            spent -> {
              Instant resets = monthEnds();
              if (tokenBudget != null && tokens(spent) >= tokenBudget)
                throw toldOnce(
                    accountId,
                    new OverQuota(
                        Refusal.Kind.USED_UP,
                        Quotas.MODEL_TOKENS_PER_MONTH,
                        tokenBudget,
                        resets,
                        "this account's budget of "
                            + tokenBudget
                            + " model tokens a month is spent ("
                            + tokens(spent)
                            + " used); it resets at "
                            + resets));
              if (costBudget != null
                  && spent.cost() != null
                  && spent.cost().compareTo(costBudget) >= 0)
                throw toldOnce(
                    accountId,
                    new OverQuota(
                        Refusal.Kind.USED_UP,
                        Quotas.MODEL_COST_PER_MONTH,
                        costBudget,
                        resets,
                        "this account's model cost budget of "
                            + costBudget.toPlainString()
                            + " a month is spent ("
                            + spent.cost().toPlainString()
                            + " used); it resets at "
                            + resets));
              return limits;
            });
  }

  /**
   * {@code spent}, after the owner is told of it on their channels (and it is counted) the first
   * time in the month; best effort: a notice that cannot be noted is not sent, and never fails the
   * refusal.
   */
  private OverQuota toldOnce(String accountId, OverQuota spent) {
    asks.<QuotaEntity.Command, Boolean>ask(
            quotas.quota(accountId),
            r -> new QuotaEntity.TellBudgetSpent(YearMonth.from(today()), r))
        .whenComplete(
            (first, failure) -> {
              if (Boolean.TRUE.equals(first)) {
                meters.spent(spent.quota());
                budgetNotice.tell(accountId, spent.getMessage());
              }
            });
    return spent;
  }

  /**
   * Fails with an {@link OverQuota} (429) when the account, whatever its role, has spent a budget
   * of the month: what a run started by hand checks before it starts.
   */
  public CompletionStage<Quotas> checkBudgets(String accountId) {
    return account(accountId)
        .thenCompose(a -> limits(accountId, a.role()))
        .thenCompose(limits -> withinBudgets(accountId, limits));
  }

  /**
   * The account's limits, once {@code watch} is checked against them: fails with a {@link
   * ValidationException} on {@code schedule} (fires more often than the account's minimum interval)
   * or an {@link OverQuota} (more sources than a watch may have). The number of watches is the
   * business of whoever creates them ({@code watches.Watches}), with {@link #watchesFull}.
   */
  public CompletionStage<Quotas> check(String accountId, Role role, Watch watch) {
    return limits(accountId, role)
        .thenApply(
            limits -> {
              Integer minutes = limits.minIntervalMinutes();
              if (minutes != null) {
                Duration shortest = CronExpressions.shortestInterval(watch.schedule());
                if (shortest.compareTo(Duration.ofMinutes(minutes)) < 0)
                  throw new ValidationException(
                      List.of(
                          Issue.at(
                              "fires every "
                                  + shortest.toMinutes()
                                  + " minutes at the shortest; this account's minimum interval"
                                  + " between scheduled runs is "
                                  + minutes
                                  + " minutes",
                              "schedule")));
              }
              Integer sources = limits.maxSourcesPerWatch();
              if (sources != null && watch.sources().size() > sources)
                throw new OverQuota(
                    Refusal.Kind.CONFLICT,
                    Quotas.MAX_SOURCES_PER_WATCH,
                    sources,
                    "a watch of this account has at most " + sources + " sources");
              return limits;
            });
  }

  /** The refusal of one watch more for an account that has its {@code most}. */
  public static OverQuota watchesFull(int most) {
    return new OverQuota(
        Refusal.Kind.CONFLICT,
        Quotas.MAX_WATCHES,
        most,
        "this account has its " + most + " watches, the most it may have");
  }

  /**
   * Fails with an {@link OverQuota} (409) when {@code adding} new watches would take the account
   * past its {@code maxWatches}.
   */
  public CompletionStage<Integer> checkRoom(String accountId, Role role, int adding) {
    return limits(accountId, role)
        .thenCompose(
            limits -> {
              Integer most = limits.maxWatches();
              if (most == null || adding == 0) return CompletableFuture.completedFuture(adding);
              return liveWatches(accountId)
                  .thenApply(
                      ids -> {
                        if (ids.size() + adding > most)
                          throw new OverQuota(
                              Refusal.Kind.CONFLICT,
                              Quotas.MAX_WATCHES,
                              most,
                              "this account has "
                                  + ids.size()
                                  + " watches and may have "
                                  + most
                                  + ": "
                                  + adding
                                  + " more do not fit");
                        return adding;
                      });
            });
  }

  /**
   * Counts one model call of the account against today's limit; fails with an {@link OverQuota}
   * (429) when a budget of the month is spent or the day's calls are used up (then the call is not
   * counted).
   */
  public CompletionStage<Integer> useModelCall(String accountId, Role role) {
    return limits(accountId, role)
        .thenCompose(limits -> withinBudgets(accountId, limits))
        .thenCompose(
            limits ->
                asks.<QuotaEntity.Command, Integer>ask(
                        quotas.quota(accountId),
                        r -> new QuotaEntity.UseModelCall(today(), limits.modelCallsPerDay(), r))
                    .exceptionally(
                        e -> {
                          if (!Failures.isRefusal(e)) return Failures.rethrow(e);
                          throw new OverQuota(
                              Refusal.Kind.USED_UP,
                              Quotas.MODEL_CALLS_PER_DAY,
                              limits.modelCallsPerDay(),
                              "this account's "
                                  + limits.modelCallsPerDay()
                                  + " model calls of the day (UTC) are used up");
                        }));
  }

  /**
   * Counts a model call of the account, whatever its role: its role as this node read it recently
   * (a run's gate has just read it), not an ask of the account entity a run.
   */
  public CompletionStage<Integer> useModelCall(String accountId) {
    return recentAccounts.of(accountId).thenCompose(a -> useModelCall(accountId, a.role()));
  }

  private CompletionStage<Account> account(String accountId) {
    return asks.ask(accountRefs.account(accountId), AccountEntity.GetAccount::new);
  }

  /** An account's quotas and what it uses of them. */
  public CompletionStage<Report> report(String accountId) {
    return account(accountId)
        .thenCompose(
            account ->
                usage(accountId)
                    .thenCombine(liveWatches(accountId), Map::entry)
                    .thenCombine(
                        monthSpent.of(accountId),
                        (used, month) ->
                            new Report(
                                accountId,
                                account.role().wire(),
                                account.role() == Role.ADMIN && adminsExempt
                                    ? Quotas.NONE
                                    : used.getKey().overrides().over(defaults),
                                used.getKey().overrides(),
                                new Used(
                                    used.getValue().size(),
                                    used.getKey().modelCallsToday(),
                                    tokens(month),
                                    month.cost()))));
  }

  /** Replaces an account's overrides ({@link Quotas#NONE}: the defaults again). */
  public CompletionStage<Report> override(String accountId, Quotas overrides, String by) {
    return account(accountId)
        .thenCompose(
            account ->
                asks.<QuotaEntity.Command, QuotaEntity.Usage>ask(
                    quotas.quota(accountId),
                    r -> new QuotaEntity.SetOverrides(overrides, by, today(), r)))
        .thenCompose(set -> report(accountId));
  }

  /** The ids of the account's watches that exist now (not deleted). */
  private CompletionStage<List<String>> liveWatches(String accountId) {
    return new AccountWatches(accountRefs, watches, asks)
        .live(accountId)
        .thenApply(live -> live.stream().map(Watch::id).toList());
  }
}
