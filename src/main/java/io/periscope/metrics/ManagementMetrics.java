package io.periscope.metrics;

import static org.apache.pekko.http.javadsl.server.Directives.*;

import java.nio.charset.StandardCharsets;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.server.Route;
import org.apache.pekko.management.javadsl.ManagementRouteProvider;
import org.apache.pekko.management.javadsl.ManagementRouteProviderSettings;

/**
 * {@code GET /metrics} on Pekko Management's port (the cluster profiles), beside {@code /ready} and
 * {@code /alive}; configured under {@code pekko.management.http.routes}.
 */
public final class ManagementMetrics implements ManagementRouteProvider {
  private final Metrics metrics;

  public ManagementMetrics(ExtendedActorSystem system) {
    this.metrics = Metrics.get(Adapter.toTyped(system));
  }

  @Override
  public Route routes(ManagementRouteProviderSettings settings) {
    return path("metrics", () -> get(() -> scraped(metrics)));
  }

  /** The scrape, or a 401 when METRICS_TOKEN is set and the request does not carry it. */
  public static Route scraped(Metrics metrics) {
    return optionalHeaderValueByName(
        "Authorization",
        authorization ->
            optionalHeaderValueByName(
                "Accept",
                accept -> {
                  if (!metrics.admits(authorization.orElse(null))) {
                    return complete(
                        HttpResponse.create()
                            .withStatus(StatusCodes.UNAUTHORIZED)
                            .withEntity(
                                ContentTypes.APPLICATION_JSON,
                                "{\"error\":\"a valid metrics token is required\"}"));
                  }
                  return completeWithFuture(
                      metrics
                          .scrapeRefreshed(accept.orElse(null))
                          .thenApply(
                              scrape ->
                                  HttpResponse.create()
                                      .withEntity(
                                          HttpEntities.create(
                                              ContentTypes.parse(scrape.contentType()),
                                              scrape.body().getBytes(StandardCharsets.UTF_8)))));
                }));
  }
}
