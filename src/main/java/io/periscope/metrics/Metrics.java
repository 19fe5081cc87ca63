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

  Metrics(String token) {
    this.token = token.getBytes(StandardCharsets.UTF_8);
    new ClassLoaderMetrics().bindTo(registry);
    new JvmMemoryMetrics().bindTo(registry);
    new JvmGcMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    new FileDescriptorMetrics().bindTo(registry);
  }

  public static Metrics get(ActorSystem<?> system) {
    return ID.apply(system);
  }

  public MeterRegistry registry() {
    return registry;
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
