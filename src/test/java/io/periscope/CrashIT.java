package io.periscope;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.json.Json;
import io.periscope.testing.NeedsPostgres;
import io.periscope.testing.ScratchDatabase;
import io.periscope.testing.ServiceProcess;
import io.periscope.testing.TestJournals;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * kill -9 right after a burst of creates, restart on the same journal: every watch that was
 * answered 201 is there. On the embedded H2 journal and on PostgreSQL.
 */
public class CrashIT {
  static final String SECRET = "crash-test-secret-of-at-least-32-bytes";
  static final int CREATES = 200;
  final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  @Test
  public void acknowledgedWatchesSurviveKillOnH2() throws Exception {
    crashAndRecover(
        Map.of(
            "DATA_DIR",
            Files.createTempDirectory("periscope-crash").toString(),
            "AUTH_JWT_SECRET",
            SECRET),
        "crash-h2");
  }

  @Test
  @Category(NeedsPostgres.class)
  public void acknowledgedWatchesSurviveKillOnPostgres() throws Exception {
    ScratchDatabase database = TestJournals.postgresDatabase();
    crashAndRecover(
        Map.of(
            "DATA_DIR",
            Files.createTempDirectory("periscope-crash").toString(),
            "AUTH_JWT_SECRET",
            SECRET,
            "DATABASE_URL",
            database.url(),
            "DATABASE_USER",
            database.user()),
        "crash-postgres");
  }

  private void crashAndRecover(Map<String, String> env, String name) throws Exception {
    String owner = "crash-" + UUID.randomUUID().toString().substring(0, 8);
    Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    // more watches than one account may keep by default
    env = new java.util.HashMap<>(env);
    env.put("QUOTA_MAX_WATCHES", "0");
    try (ServiceProcess service = new ServiceProcess(env, ServiceProcess.logFile(name)).start()) {
      assertEquals(
          0,
          service.command(
              List.of(
                  "users",
                  "create",
                  "--id",
                  owner,
                  "--email",
                  owner + "@example.org",
                  "--role",
                  "user"),
              "a-crash-passphrase\n"));
      String token = login(service, owner);
      ExecutorService clients = Executors.newFixedThreadPool(16);
      for (int i = 0; i < CREATES; i++) {
        String id = "w-" + i;
        clients.submit(
            () -> {
              try {
                if (post(service, token, id).statusCode() == 201) acknowledged.add(id);
              } catch (Exception e) {
                // unacknowledged: the test only holds the service to what it answered 201
              }
            });
      }
      clients.shutdown();
      assertTrue(clients.awaitTermination(120, TimeUnit.SECONDS));
      service.kill();
    }
    assertTrue(
        "most creates were acknowledged before the kill: " + acknowledged.size(),
        acknowledged.size() > 100);
    try (ServiceProcess restarted =
        new ServiceProcess(env, ServiceProcess.logFile(name + "-restarted")).start()) {
      String token = login(restarted, owner);
      JsonNode list = Json.MAPPER.readTree(get(restarted, token, "/watches").body());
      Set<String> listed = new HashSet<>(list.get("watches").findValuesAsText("id"));
      assertTrue(
          "every acknowledged watch is listed after the crash", listed.containsAll(acknowledged));
      for (String id : acknowledged) {
        assertEquals(id, 200, get(restarted, token, "/watches/" + id).statusCode());
      }
      restarted.stop();
    }
  }

  private String login(ServiceProcess service, String owner) throws Exception {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(service.uri("/auth/login"))
                .header("Content-Type", "application/json")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        Json.text(
                            Map.of(
                                "email",
                                owner + "@example.org",
                                "password",
                                "a-crash-passphrase"))))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals(r.body(), 200, r.statusCode());
    return Json.MAPPER.readTree(r.body()).get("token").asText();
  }

  private HttpResponse<String> post(ServiceProcess service, String token, String id)
      throws Exception {
    String body =
        """
        {"id": "%s", "name": "Crash", "sources": [{"type": "search", "value": "acme"}],
         "schedule": "0 0 1 1 *", "condition": "c", "threshold": 0.8}\
        """
            .formatted(id);
    return http.send(
        HttpRequest.newBuilder(service.uri("/watches"))
            .timeout(Duration.ofSeconds(30))
            .header("Authorization", "Bearer " + token)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> get(ServiceProcess service, String token, String path)
      throws Exception {
    return http.send(
        HttpRequest.newBuilder(service.uri(path))
            .timeout(Duration.ofSeconds(30))
            .header("Authorization", "Bearer " + token)
            .GET()
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
