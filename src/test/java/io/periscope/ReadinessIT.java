package io.periscope;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.json.Json;
import io.periscope.testing.NeedsPostgres;
import io.periscope.testing.ScratchDatabase;
import io.periscope.testing.ServiceProcess;
import io.periscope.testing.TcpProxy;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * A node whose PostgreSQL goes away turns not ready within seconds, stays alive, and is ready again
 * when the database returns, without a restart; what it acknowledged before is still there.
 */
@Category(NeedsPostgres.class)
public class ReadinessIT {
  private static final String PASSWORD = "a-readiness-admin-passphrase";
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @Test
  public void losingTheDatabaseTurnsTheNodeNotReadyUntilItReturns() throws Exception {
    try (ScratchDatabase database = ScratchDatabase.create("readiness")) {
      Matcher server = Pattern.compile("//([^/:]+):(\\d+)/").matcher(database.url());
      assertTrue(database.url(), server.find());
      try (TcpProxy proxy = new TcpProxy(server.group(1), Integer.parseInt(server.group(2)))) {
        String viaProxy =
            database.url().replace(server.group(0), "//127.0.0.1:" + proxy.port() + "/");
        Map<String, String> env =
            Map.of(
                "DATABASE_URL",
                viaProxy,
                "DATABASE_USER",
                database.user(),
                "DATA_DIR",
                Files.createTempDirectory("periscope-readiness").toString(),
                "AUTH_JWT_SECRET",
                "readiness-test-secret-of-32-bytes-x",
                "ENCRYPTION_KEY",
                "readiness-test-encryption-key-of-32-bytes");
        try (ServiceProcess service =
            new ServiceProcess(env, ServiceProcess.logFile("readiness"))) {
          service.start();
          awaitStatus(service.uri("/health/ready"), 200, Duration.ofSeconds(60));
          assertEquals(200, status(service.uri("/health/live")));
          String token = service.signedInAdmin("root", PASSWORD);
          assertEquals(201, createWatch(service, token, "before-the-outage"));

          proxy.cut();
          Instant cut = Instant.now();
          JsonNode notReady =
              awaitStatus(service.uri("/health/ready"), 503, Duration.ofSeconds(20));
          assertTrue(
              "not ready within seconds: " + Duration.between(cut, Instant.now()),
              Duration.between(cut, Instant.now()).compareTo(Duration.ofSeconds(15)) < 0);
          assertFalse(notReady.toString(), notReady.at("/checks/journal").asBoolean());
          assertEquals("alive without its database", 200, status(service.uri("/health/live")));
          assertEquals(200, status(service.uri("/health")));
          int duringOutage = createWatch(service, token, "during-the-outage");

          proxy.restore();
          awaitStatus(service.uri("/health/ready"), 200, Duration.ofSeconds(60));
          assertTrue("the same process serves again", service.isAlive());
          assertEquals(200, get(service, token, "/watches/before-the-outage"));
          if (duringOutage == 201) {
            assertEquals(
                "a write acknowledged during the outage is kept",
                200,
                get(service, token, "/watches/during-the-outage"));
          }
          assertEquals(201, createWatch(service, token, "after-the-outage"));
        }
      }
    }
  }

  private int status(URI uri) throws Exception {
    return http.send(
            HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
            HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }

  private JsonNode awaitStatus(URI uri, int wanted, Duration patience) throws Exception {
    Instant deadline = Instant.now().plus(patience);
    String last = "";
    while (Instant.now().isBefore(deadline)) {
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
              HttpResponse.BodyHandlers.ofString());
      last = r.statusCode() + " " + r.body();
      if (r.statusCode() == wanted) return Json.MAPPER.readTree(r.body());
      Thread.sleep(250);
    }
    throw new AssertionError(
        uri + " did not answer " + wanted + " within " + patience + "; last: " + last);
  }

  private int createWatch(ServiceProcess service, String token, String id) throws Exception {
    String watch =
        """
        {"id": "%s", "name": "Readiness", "sources": [{"type": "rss", "value": \
        "https://example.org/feed.xml"}],
         "schedule": "0 6 * * *", "condition": "Something happens", "channels": ["telegram"],
         "threshold": 0.8, "weakThreshold": 0.5, "enabled": false}\
        """
            .formatted(id);
    return http.send(
            HttpRequest.newBuilder(service.uri("/watches"))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(watch))
                .build(),
            HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }

  private int get(ServiceProcess service, String token, String path) throws Exception {
    return http.send(
            HttpRequest.newBuilder(service.uri(path))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token)
                .build(),
            HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }
}
