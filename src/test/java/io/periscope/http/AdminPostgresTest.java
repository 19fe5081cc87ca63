package io.periscope.http;

import static io.periscope.testing.InProcessService.json;
import static org.junit.Assert.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.periscope.json.Json;
import io.periscope.keys.KeyCipher;
import io.periscope.testing.AdminBodies;
import io.periscope.testing.InProcessService;
import io.periscope.testing.NeedsPostgres;
import io.periscope.testing.ScratchDatabase;
import io.periscope.testing.TestJournals;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.Map;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * Administration on a PostgreSQL journal of its own, across a restart of the service: the model
 * configuration an admin set is still in force, and a key the environment seeds that an admin
 * removed is not seeded back.
 */
@Category(NeedsPostgres.class)
public class AdminPostgresTest {
  private static final String PASSWORD = "admin-postgres-passphrase";
  private static final String SEEDED = "sk-valid-postgres-000000000001";

  @Test
  public void aModelConfigurationAndARemovedSeededKeySurviveARestart() throws Exception {
    String keyPath = "/admin/keys/model/" + KeyCipher.fingerprint(SEEDED);
    String chosen =
        AdminBodies.modelBody(
            "openai",
            "https://judge.example/v1",
            "judge-pg",
            "anthropic",
            "https://helper.example",
            "helper-pg");
    try (ScratchDatabase database = ScratchDatabase.create("periscope_admin")) {
      Config config =
          ConfigFactory.parseMap(
                  Map.of(
                      "periscope.model.provider",
                      "openai",
                      "periscope.model.base-url",
                      "http://127.0.0.1:9/v1",
                      "periscope.model.name",
                      "from-environment",
                      "periscope.model.api-keys",
                      SEEDED))
              .withFallback(TestJournals.postgres(database));

      try (InProcessService first = new InProcessService(config)) {
        first.account("root", "admin", PASSWORD);
        String token = first.login("root", PASSWORD);
        assertEquals(
            "environment",
            json(first.call("GET", "/admin/model", token, null), 200).get("source").asText());
        json(first.call("GET", keyPath, token, null), 200);
        json(first.call("PUT", "/admin/model", token, chosen), 200);
        json(first.call("DELETE", keyPath, token, null), 204);
      }
      try (InProcessService second = new InProcessService(config)) {
        String token = second.login("root", PASSWORD);
        JsonNode inForce = json(second.call("GET", "/admin/model", token, null), 200);
        assertEquals("admin", inForce.get("source").asText());
        assertEquals("root", inForce.get("changedBy").asText());
        assertEquals(Json.MAPPER.readTree(chosen).get("verdicts"), inForce.get("verdicts"));
        assertEquals(Json.MAPPER.readTree(chosen).get("assistance"), inForce.get("assistance"));
        json(second.call("GET", keyPath, token, null), 404);
      }
      try (Connection c = DriverManager.getConnection(database.url(), database.user(), "");
          ResultSet changes =
              c.createStatement()
                  .executeQuery(
                      "select count(*) from event_journal where persistence_id ="
                          + " 'ModelConfig|models'")) {
        changes.next();
        assertEquals("the change is in this test's own journal", 1, changes.getInt(1));
      }
    }
  }
}
