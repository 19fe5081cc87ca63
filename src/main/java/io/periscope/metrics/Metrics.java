package io.periscope.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Extension;
import org.apache.pekko.actor.typed.ExtensionId;

/**
 * This node's meters, one registry per actor system, scraped in the Prometheus text format (or
 * OpenMetrics when the scraper asks for it) at {@code GET /metrics}: on the API port of a single
 * node when {@code METRICS_ENABLED}, on the management port of the cluster profiles. Labels are
 * bounded by construction: a route template, never a path; never a watch, owner, URL or address.
 */
public final class Metrics implements Extension {
  private static final ExtensionId<Metrics> ID =
      new ExtensionId<>() {
        @Override
        public Metrics createExtension(ActorSystem<?> system) {
          return new Metrics(system.settings().config().getString("periscope.metrics.token"));
        }
      };

  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final byte[] token;
  private final List<Supplier<CompletionStage<?>>> refreshes = new CopyOnWriteArrayList<>();
  private final Map<Class<?>, Object> holders = new ConcurrentHashMap<>();

  /**
   * How long a scrape waits for the gauges that are read by asking (key pools, live entities): a
   * gauge whose ask is slower keeps its last value.
   */
  static final Duration REFRESH_WAIT = Duration.ofSeconds(2);

  /**
   * Buckets for the durations of work measured in seconds to minutes (runs, scheduling delays): a
   * dozen, not the hundred a percentile histogram has.
   */
  public static final Duration[] SLOW_BUCKETS =
      Stream.of(0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 900.0, 3600.0)
          .map(s -> Duration.ofMillis((long) (s * 1000)))
          .toArray(Duration[]::new);

  /** Buckets for calls measured in milliseconds to seconds (model calls, journal writes). */
  public static final Duration[] FAST_BUCKETS =
      Stream.of(2, 5, 10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000, 120_000)
          .map(Duration::ofMillis)
          .toArray(Duration[]::new);

  Metrics(String token) {
    this.token = token.getBytes(StandardCharsets.UTF_8);
    new ClassLoaderMetrics().bindTo(registry);
    new JvmMemoryMetrics().bindTo(registry);
    new JvmGcMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    new FileDescriptorMetrics().bindTo(registry);
    BuildInfo.current().bindTo(registry);
  }

  public static Metrics get(ActorSystem<?> system) {
    return ID.apply(system);
  }

  public MeterRegistry registry() {
    return registry;
  }

  /**
   * This node's one instance of {@code type}, made by {@code create} on first use: for the holders
   * of gauge values, as a gauge stays bound to the object it was first registered with (a restarted
   * actor must find the same holder, not register a second one that is never read).
   */
  public <T> T holder(Class<T> type, Function<MeterRegistry, T> create) {
    return type.cast(holders.computeIfAbsent(type, t -> create.apply(registry)));
  }

  /**
   * Runs {@code refresh} before each scrape (waiting for it at most {@link #REFRESH_WAIT}): for
   * gauges whose value is had by asking an entity or the cluster, which a gauge cannot do while it
   * is read.
   */
  public void beforeScrape(Supplier<CompletionStage<?>> refresh) {
    refreshes.add(refresh);
  }

  /** The refreshes run (a failed or slow one leaves its gauges as they were), then the scrape. */
  public CompletionStage<Scrape> scrapeRefreshed(String accept) {
    CompletableFuture<?>[] running =
        refreshes.stream()
            .map(
                refresh -> {
                  try {
                    return refresh
                        .get()
                        .toCompletableFuture()
                        .completeOnTimeout(null, REFRESH_WAIT.toMillis(), TimeUnit.MILLISECONDS)
                        .handle((done, failure) -> null);
                  } catch (RuntimeException e) {
                    return CompletableFuture.completedFuture(null);
                  }
                })
            .toArray(CompletableFuture[]::new);
    return CompletableFuture.allOf(running).thenApply(done -> scrape(accept));
  }

  /**
   * The exposition: OpenMetrics when {@code accept} asks for it, else the Prometheus text format
   * 0.0.4, answered as plain {@code text/plain} (which Prometheus reads as 0.0.4).
   */
  public Scrape scrape(String accept) {
    boolean openMetrics = accept != null && accept.contains("application/openmetrics-text");
    String format =
        openMetrics
            ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
            : "text/plain; version=0.0.4; charset=utf-8";
    return new Scrape(openMetrics ? format : "text/plain; charset=utf-8", registry.scrape(format));
  }

  public record Scrape(String contentType, String body) {}

  /**
   * Whether a scrape may read the metrics: always without {@code METRICS_TOKEN}, else only with
   * {@code Authorization: Bearer <token>} (compared in constant time).
   */
  public boolean admits(String authorization) {
    if (token.length == 0) return true;
    if (authorization == null || !authorization.startsWith("Bearer ")) return false;
    return MessageDigest.isEqual(
        token,
        authorization.substring("Bearer ".length()).strip().getBytes(StandardCharsets.UTF_8));
  }
}
