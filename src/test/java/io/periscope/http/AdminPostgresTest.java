package io.periscope.http;

import static org.junit.Assert.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.periscope.json.Json;
import io.periscope.keys.KeyCipher;
import io.periscope.testing.InProcessService;
import io.periscope.testing.TestJournals;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.UUID;
import org.junit.Test;

/**
 * Administration on the PostgreSQL journal, across a restart of the service: the model configuration an admin set
 * is still in force, and a key the environment seeds that an admin removed is not seeded back. The database is
 * shared with other tests, so the configuration (one per cluster) is set back to the environment's at the end.
 */
public class AdminPostgresTest {
  private static final String PASSWORD = "admin-postgres-passphrase";

  private static JsonNode call(InProcessService service, String method, String path, String token, String body,
                               int status) throws Exception {
    HttpResponse<String> r = service.send(method, path, token, body, Map.of());
    assertEquals(r.body(), status, r.statusCode());
    return r.body().isEmpty() ? null : Json.MAPPER.readTree(r.body());
  }

  @Test
  public void aModelConfigurationAndARemovedSeededKeySurviveARestart() throws Exception {
    String run = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    String seeded = "sk-valid-postgres-" + run;
    String admin = "admin-" + run;
    Config config = ConfigFactory.parseMap(Map.of(
        "periscope.model.provider", "openai", "periscope.model.base-url", "http://127.0.0.1:9/v1",
        "periscope.model.name", "from-environment", "periscope.model.api-keys", seeded))
        .withFallback(TestJournals.postgres());
    String keyPath = "/admin/keys/model/" + KeyCipher.fingerprint(seeded);
    String chosen = AdminRoutesTest.modelBody("openai", "https://judge.example/v1", "judge-pg",
        "anthropic", "https://helper.example", "helper-pg");

    try (InProcessService first = new InProcessService(config)) {
      first.account(admin, "admin", PASSWORD);
      String token = first.login(admin, PASSWORD);
      try {
        call(first, "DELETE", "/admin/model", token, null, 200); // whatever an earlier run left
        call(first, "GET", keyPath, token, null, 200);
        call(first, "PUT", "/admin/model", token, chosen, 200);
        call(first, "DELETE", keyPath, token, null, 204);
      } catch (Throwable t) {
        call(first, "DELETE", "/admin/model", token, null, 200);
        throw t;
      }
    }
    try (InProcessService second = new InProcessService(config)) {
      String token = second.login(admin, PASSWORD);
      try {
        JsonNode inForce = call(second, "GET", "/admin/model", token, null, 200);
        assertEquals("admin", inForce.get("source").asText());
        assertEquals(admin, inForce.get("changedBy").asText());
        assertEquals(Json.MAPPER.readTree(chosen).get("verdicts"), inForce.get("verdicts"));
        assertEquals(Json.MAPPER.readTree(chosen).get("assistance"), inForce.get("assistance"));
        call(second, "GET", keyPath, token, null, 404);
      } finally {
        assertEquals("environment", call(second, "DELETE", "/admin/model", token, null, 200).get("source").asText());
      }
    }
  }
}
