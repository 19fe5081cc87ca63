package io.periscope.keys;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.periscope.metrics.Metrics;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The key pools as gauges, asked of each pool before every scrape: keys by pool and status ({@code
 * active}, {@code cooldown}, {@code dead}), the keys a call could use now, and today's (UTC) use
 * against the daily limits. Labels: the pool's name and a status; never a key or its label.
 */
public final class KeyPoolMeters {
  static final List<String> POOLS = List.of(KeyPoolEntity.MODEL, KeyPoolEntity.SEARCH);
  static final List<String> STATUSES = List.of("active", "cooldown", "dead");

  private final Map<String, AtomicLong> values = new ConcurrentHashMap<>();

  private KeyPoolMeters(MeterRegistry registry) {
    for (String pool : POOLS) {
      for (String status : STATUSES) {
        Gauge.builder("periscope.key.pool.keys", value(pool, status), AtomicLong::get)
            .description("Keys in a pool, by status")
            .tag("pool", pool)
            .tag("status", status)
            .register(registry);
      }
      gauge(registry, "usable.keys", pool, "usable", "Keys a call could use now");
      gauge(registry, "used.today", pool, "used", "Uses of the pool's keys today (UTC)");
      gauge(
          registry,
          "daily.limit",
          pool,
          "limit",
          "The sum of the daily limits of the pool's keys that have one");
      gauge(registry, "unlimited.keys", pool, "unlimited", "Keys without a daily limit");
    }
  }

  /** Asks {@code pools} for their status before each scrape of {@code metrics}. */
  public static void register(Metrics metrics, KeyPools pools) {
    KeyPoolMeters meters = metrics.holder(KeyPoolMeters.class, KeyPoolMeters::new);
    metrics.beforeScrape(() -> meters.refresh(pools));
  }

  CompletionStage<?> refresh(KeyPools pools) {
    return CompletableFuture.allOf(
        POOLS.stream()
            .map(pool -> pools.status(pool).thenAccept(status -> read(pool, status)))
            .map(CompletionStage::toCompletableFuture)
            .toArray(CompletableFuture[]::new));
  }

  void read(String pool, KeyPoolEntity.PoolStatus status) {
    for (String s : STATUSES)
      value(pool, s).set(status.keys().stream().filter(k -> k.status().equals(s)).count());
    value(pool, "usable").set(status.keys().stream().filter(KeyPoolEntity.KeyView::usable).count());
    value(pool, "used")
        .set(status.keys().stream().mapToLong(KeyPoolEntity.KeyView::usedToday).sum());
    value(pool, "limit")
        .set(
            status.keys().stream()
                .filter(k -> k.dailyLimit() != null)
                .mapToLong(KeyPoolEntity.KeyView::dailyLimit)
                .sum());
    value(pool, "unlimited")
        .set(status.keys().stream().filter(k -> k.dailyLimit() == null).count());
  }

  private void gauge(
      MeterRegistry registry, String name, String pool, String what, String description) {
    Gauge.builder("periscope.key.pool." + name, value(pool, what), AtomicLong::get)
        .description(description)
        .tag("pool", pool)
        .register(registry);
  }

  private AtomicLong value(String pool, String what) {
    return values.computeIfAbsent(pool + "/" + what, k -> new AtomicLong());
  }
}
