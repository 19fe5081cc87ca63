package io.periscope.metrics;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.periscope.config.Profiles;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.management.javadsl.PekkoManagement;
import org.junit.Test;

/** The cluster profiles' /metrics: Pekko Management serves it from the shipped configuration. */
public class ManagementMetricsTest {
  @Test
  public void theManagementPortServesTheMetricsBesideReadiness() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    ActorSystem<Void> system =
        ActorSystem.create(
            Behaviors.empty(),
            "management-metrics",
            Profiles.load(
                "embedded",
                ConfigFactory.parseMap(
                    Map.of(
                        "pekko.management.http.port",
                        port,
                        "periscope.metrics.token",
                        "scrape-me",
                        "pekko.coordinated-shutdown.exit-jvm",
                        "off",
                        "pekko.remote.artery.canonical.port",
                        0,
                        "periscope.data-dir",
                        Files.createTempDirectory("periscope-metrics").toString()))));
    try {
      PekkoManagement.get(system).start().toCompletableFuture().get(30, TimeUnit.SECONDS);
      HttpClient http = HttpClient.newHttpClient();
      URI metrics = URI.create("http://127.0.0.1:" + port + "/metrics");
      HttpResponse<String> refused =
          http.send(HttpRequest.newBuilder(metrics).build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(401, refused.statusCode());
      HttpResponse<String> scraped =
          http.send(
              HttpRequest.newBuilder(metrics).header("Authorization", "Bearer scrape-me").build(),
              HttpResponse.BodyHandlers.ofString());
      assertEquals(200, scraped.statusCode());
      assertTrue(scraped.body().contains("jvm_memory_used_bytes"));
    } finally {
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }
}
