package io.periscope.http;

import static org.apache.pekko.http.javadsl.server.Directives.*;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.periscope.web.WebRoutes;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * {@code http_server_requests_seconds}: every answered request by method, route template (the
 * matching {@link Endpoint}'s path, the web client's template for what it serves, {@code unmatched}
 * for none: never the raw path, so no id is a label) and status, with its latency.
 */
final class RequestMetrics {
  static final String NAME = "http.server.requests";

  /** Latency buckets: a dozen per route and status, not the hundred a percentile histogram has. */
  static final Duration[] BUCKETS =
      Stream.of(5, 10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000, 120_000)
          .map(Duration::ofMillis)
          .toArray(Duration[]::new);

  private final MeterRegistry registry;
  private final List<Endpoint> endpoints;

  RequestMetrics(MeterRegistry registry, List<Endpoint> endpoints) {
    this.registry = registry;
    this.endpoints = List.copyOf(endpoints);
  }

  /**
   * The request's route template: the matching endpoint's path, the web client's template for what
   * it serves, else {@code unmatched}. Never the raw path, which may hold an id or an address.
   */
  static String routeOf(List<Endpoint> endpoints, HttpRequest request, HttpResponse response) {
    return Endpoint.templateOf(endpoints, request)
        .or(() -> WebRoutes.templateOf(request, response))
        .orElse("unmatched");
  }

  Route measured(Supplier<Route> inner) {
    return extractRequest(
        request -> {
          long start = System.nanoTime();
          return mapResponse(
              response -> {
                Timer.builder(NAME)
                    .description("HTTP requests answered, by route template")
                    .tag("method", request.method().name())
                    .tag("route", routeOf(endpoints, request, response))
                    .tag("status", Integer.toString(response.status().intValue()))
                    .serviceLevelObjectives(BUCKETS)
                    .register(registry)
                    .record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
                return response;
              },
              inner);
        });
  }
}
