package io.periscope.llm;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.periscope.entity.Asks;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.pattern.StatusReply;

/**
 * The accounts' model usage: each call's tokens and cost kept as the provider answers it ({@link
 * #recorder}), attributed to its account and, where there is one, its watch; and the daily series
 * read back over the UTC days asked ({@link #series}), with the current calendar month's total
 * beside them (what a monthly budget is held to).
 */
public final class UsageLedger implements UsageRecorder {
  /** The longest series asked for: a leap year's days. */
  public static final int MAX_DAYS = 366;

  private final UsageEntity.Refs usage;
  private final Asks asks;
  private final ActorRef<StatusReply<Done>> unrecorded;
  private final Clock clock;

  public UsageLedger(UsageEntity.Refs usage, Asks asks, Clock clock) {
    this.usage = usage;
    this.asks = asks;
    this.unrecorded = asks.unawaited("model-usage-unrecorded");
    this.clock = clock;
  }

  /**
   * Kept in the account's {@link UsageEntity}. Best effort: told, not asked, as no run waits for
   * it; a call whose usage cannot be written is logged, never failed.
   */
  @Override
  public Consumer<ModelUsage> recorder(String accountId, String watchId) {
    return used -> {
      if (used.calls() == 0) return;
      usage.usage(accountId).tell(new UsageEntity.Record(today(), watchId, used, unrecorded));
    };
  }

  /** One UTC day's usage, flat. */
  public record Day(
      LocalDate date,
      int calls,
      long inputTokens,
      long cachedInputTokens,
      long outputTokens,
      @JsonInclude(JsonInclude.Include.ALWAYS) BigDecimal cost) {
    static Day of(LocalDate date, ModelUsage u) {
      return new Day(
          date, u.calls(), u.inputTokens(), u.cachedInputTokens(), u.outputTokens(), u.cost());
    }
  }

  /** What a watch's calls took over a series' days ({@code watchId} empty: calls of no watch). */
  public record WatchTotal(
      String watchId,
      int calls,
      long inputTokens,
      long cachedInputTokens,
      long outputTokens,
      @JsonInclude(JsonInclude.Include.ALWAYS) BigDecimal cost) {
    static WatchTotal of(String watchId, ModelUsage u) {
      return new WatchTotal(
          watchId, u.calls(), u.inputTokens(), u.cachedInputTokens(), u.outputTokens(), u.cost());
    }
  }

  /**
   * The usage of {@code days} UTC days up to today, oldest first, each day present (a day without
   * calls is all zero); {@code total} over them; {@code month} over the current UTC calendar month;
   * {@code watches} per watch over the days, most tokens first.
   */
  public record Series(
      LocalDate from,
      LocalDate to,
      List<Day> days,
      ModelUsage total,
      ModelUsage month,
      List<WatchTotal> watches) {}

  /** The UTC days of a series: {@code from} to {@code to}, both included. */
  public record Window(LocalDate from, LocalDate to) {}

  /** The {@code days} UTC days up to today. */
  public Window window(int days) {
    if (days < 1 || days > MAX_DAYS) throw new IllegalArgumentException("days: " + days);
    LocalDate to = today();
    return new Window(to.minusDays(days - 1L), to);
  }

  /** The series of {@code accountId}'s calls that {@code counted} keeps (by watch id). */
  public CompletionStage<Series> series(String accountId, int days, Predicate<String> counted) {
    Window window = window(days);
    LocalDate to = window.to();
    LocalDate from = window.from();
    LocalDate monthStart = to.withDayOfMonth(1);
    LocalDate read = from.isBefore(monthStart) ? from : monthStart;
    return asks.<UsageEntity.Command, UsageEntity.Period>ask(
            usage.usage(accountId), r -> new UsageEntity.Get(read, to, r))
        .thenApply(
            period -> {
              Map<LocalDate, ModelUsage> perDay = new LinkedHashMap<>();
              for (LocalDate d = from; !d.isAfter(to); d = d.plusDays(1))
                perDay.put(d, ModelUsage.NONE);
              Map<String, ModelUsage> perWatch = new LinkedHashMap<>();
              ModelUsage month = ModelUsage.NONE;
              for (UsageEntity.Spent s : period.spent()) {
                if (!counted.test(s.watchId())) continue;
                if (!s.day().isBefore(monthStart)) month = month.plus(s.usage());
                if (s.day().isBefore(from)) continue;
                perDay.merge(s.day(), s.usage(), ModelUsage::plus);
                perWatch.merge(s.watchId(), s.usage(), ModelUsage::plus);
              }
              List<Day> series = new ArrayList<>();
              perDay.forEach((d, u) -> series.add(Day.of(d, u)));
              ModelUsage total = perDay.values().stream().reduce(ModelUsage.NONE, ModelUsage::plus);
              List<WatchTotal> watches = new ArrayList<>();
              perWatch.forEach((w, u) -> watches.add(WatchTotal.of(w, u)));
              watches.sort(
                  Comparator.comparingLong((WatchTotal w) -> w.inputTokens() + w.outputTokens())
                      .reversed()
                      .thenComparing(WatchTotal::watchId));
              return new Series(from, to, series, total, month, watches);
            });
  }

  /** What all of {@code accountId}'s calls took in the current UTC calendar month. */
  public CompletionStage<ModelUsage> month(String accountId) {
    return series(accountId, 1, watchId -> true).thenApply(Series::month);
  }

  private LocalDate today() {
    return LocalDate.now(clock.withZone(ZoneOffset.UTC));
  }
}
