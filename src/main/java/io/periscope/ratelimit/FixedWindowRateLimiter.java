package io.periscope.ratelimit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;

/**
 * In-memory fixed windows per key (an IP, an owner, or one shared key): at most {@code limit}
 * requests per window, counted from the window's start. Per process by design: N replicas allow N
 * times the rate.
 */
public final class FixedWindowRateLimiter {
  private final int limit;
  private final long windowMillis;
  private final Clock clock;
  private final ConcurrentHashMap<String, Window> windows = new ConcurrentHashMap<>();
  private volatile Counter rejections;

  private record Window(long start, int count) {}

  /** The verdict for one request; {@code retryAfterSeconds} is how long until the window resets. */
  public record Decision(boolean allowed, long retryAfterSeconds) {}

  public FixedWindowRateLimiter(int limit, Duration window, Clock clock) {
    this.limit = limit;
    this.windowMillis = window.toMillis();
    this.clock = clock;
  }

  /**
   * Counts this limiter's refusals as {@code periscope_rate_limit_rejections_total} with {@code
   * limiter} (a fixed name: {@code sign-in}, {@code assistance}...; never the key limited).
   */
  public FixedWindowRateLimiter counted(MeterRegistry registry, String limiter) {
    this.rejections =
        Counter.builder("periscope.rate.limit.rejections")
            .description("Requests a rate limit refused, by limiter")
            .tag("limiter", limiter)
            .register(registry);
    return this;
  }

  public Decision acquire(String key) {
    long now = clock.millis();
    long windowStart = now - Math.floorMod(now, windowMillis);
    Window w =
        windows.compute(
            key,
            (k, old) ->
                old == null || old.start() != windowStart
                    ? new Window(windowStart, 1)
                    : new Window(old.start(), old.count() + 1));
    if (windows.size() > 10_000) windows.values().removeIf(old -> old.start() != windowStart);
    long retryAfter = Math.max(1, (windowStart + windowMillis - now + 999) / 1000);
    boolean allowed = w.count() <= limit;
    Counter counter = rejections;
    if (!allowed && counter != null) counter.increment();
    return new Decision(allowed, retryAfter);
  }
}
