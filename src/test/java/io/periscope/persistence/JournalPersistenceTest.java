package io.periscope.persistence;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.periscope.json.Json;
import io.periscope.testing.InProcessService;
import io.periscope.testing.NeedsPostgres;
import io.periscope.testing.TestJournals;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/** What was acknowledged survives a restart, on the embedded H2 journal and on PostgreSQL alike. */
public class JournalPersistenceTest {
  static final String WATCH =
      """
      {"id": "%s", "name": "%s", "sources": [{"type": "rss", "value": \
      "https://example.org/feed.xml"}],
       "schedule": "0 0 1 1 *", "condition": "c", "threshold": 0.7, "weakThreshold": 0.4}\
      """;

  @Test
  public void stateSurvivesARestartOnH2() throws Exception {
    var dir = Files.createTempDirectory("periscope-journal");
    survivesRestart(() -> TestJournals.embedded(dir));
  }

  /**
   * A journal written before its payloads were kept in their rows (H2's default: apart, in its LOB
   * maps, above 256 bytes) is read by the service that keeps them there.
   */
  @Test
  public void payloadsStoredApartAreReadOnH2() throws Exception {
    var dir = Files.createTempDirectory("periscope-journal");
    String url = "pekko-persistence-jdbc.shared-databases.periscope.db.url";
    Config current = TestJournals.embedded(dir);
    String inRows = ";MAX_LENGTH_INPLACE_LOB=65536";
    assertTrue(current.getString(url).contains(inRows));
    Config apart =
        ConfigFactory.parseMap(Map.of(url, current.getString(url).replace(inRows, "")))
            .withFallback(current);
    survivesRestart(() -> apart, () -> TestJournals.embedded(dir));
  }

  @Test
  @Category(NeedsPostgres.class)
  public void stateSurvivesARestartOnPostgres() throws Exception {
    survivesRestart(TestJournals::postgres);
  }

  private void survivesRestart(Supplier<Config> journal) throws Exception {
    survivesRestart(journal, journal);
  }

  private void survivesRestart(Supplier<Config> before, Supplier<Config> after) throws Exception {
    String accountId = "owner-" + UUID.randomUUID().toString().substring(0, 8);
    try (InProcessService first = new InProcessService(before.get())) {
      first.account(accountId, "user", "a-passphrase");
      String token = first.login(accountId, "a-passphrase");
      for (String id : List.of("kept", "replaced", "deleted")) {
        assertEquals(
            201,
            first.send("POST", "/watches", token, WATCH.formatted(id, id), Map.of()).statusCode());
      }
      assertEquals(
          200,
          first
              .send(
                  "PUT",
                  "/watches/replaced",
                  token,
                  WATCH.formatted("replaced", "renamed").replace(", \"weakThreshold\": 0.4", ""),
                  Map.of())
              .statusCode());
      assertEquals(
          204, first.send("DELETE", "/watches/deleted", token, null, Map.of()).statusCode());
    }
    try (InProcessService second = new InProcessService(after.get())) {
      String token = second.login(accountId, "a-passphrase");
      JsonNode list =
          Json.MAPPER.readTree(second.send("GET", "/watches", token, null, Map.of()).body());
      assertEquals(List.of("kept", "replaced"), list.get("watches").findValuesAsText("id"));
      JsonNode replaced =
          Json.MAPPER.readTree(
              second.send("GET", "/watches/replaced", token, null, Map.of()).body());
      assertEquals("renamed", replaced.get("name").asText());
      assertTrue(replaced.path("weakThreshold").isMissingNode());
      assertEquals(404, second.send("GET", "/watches/deleted", token, null, Map.of()).statusCode());
    }
  }
}
