package io.periscope.run;

import static org.junit.Assert.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.Config;
import io.periscope.json.Json;
import io.periscope.testing.FakeLaunchUpstream;
import io.periscope.testing.InProcessService;
import io.periscope.testing.NeedsPostgres;
import io.periscope.testing.TestJournals;
import io.periscope.testing.TestWatches;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * Runs through the whole service on the embedded H2 journal and on PostgreSQL: the run record and
 * the items it marks seen are written together, so after a restart the same items are still seen
 * (nothing alerted again, no model call), and the history, newest first, outlives both the restart
 * and the watch.
 */
public class RunsOnBothJournalsTest {
  private static final String PASSWORD = "runs-journal-passphrase";
  private FakeLaunchUpstream upstream;

  @Before
  public void startUpstream() throws Exception {
    upstream = new FakeLaunchUpstream();
  }

  @After
  public void stopUpstream() throws Exception {
    upstream.close();
  }

  private String url(String path) {
    return upstream.url(path);
  }

  private Config withUpstream(Config journal) {
    return upstream.config(journal);
  }

  @Test
  public void runsAndSeenItemsSurviveARestartOnH2() throws Exception {
    Path dir = Files.createTempDirectory("periscope-runs");
    runsSurviveRestarts(() -> TestJournals.embedded(dir));
  }

  @Test
  @Category(NeedsPostgres.class)
  public void runsAndSeenItemsSurviveARestartOnPostgres() throws Exception {
    runsSurviveRestarts(TestJournals::postgres);
  }

  private JsonNode run(InProcessService service, String token) throws Exception {
    var response = service.send("POST", "/watches/launch/run", token, null, Map.of());
    assertEquals(response.body(), 200, response.statusCode());
    return Json.MAPPER.readTree(response.body()).get("result");
  }

  private List<String> outcomes(InProcessService service, String token) throws Exception {
    var response = service.send("GET", "/watches/launch/runs", token, null, Map.of());
    assertEquals(response.body(), 200, response.statusCode());
    return Json.MAPPER.readTree(response.body()).get("runs").findValuesAsText("outcome");
  }

  private void runsSurviveRestarts(Supplier<Config> journal) throws Exception {
    String accountId = "runner-" + UUID.randomUUID().toString().substring(0, 8);
    String watch =
        TestWatches.body("launch")
            .name("Acme launch")
            .condition("Acme sets a launch date")
            .source(Map.of("type", "rss", "value", url("/feed.xml"), "trust", "official"))
            .channel("webhook:" + url("/hook"))
            .json();
    try (InProcessService first = new InProcessService(withUpstream(journal.get()))) {
      first.account(accountId, "user", PASSWORD);
      String token = first.login(accountId, PASSWORD);
      assertEquals(201, first.send("POST", "/watches", token, watch, Map.of()).statusCode());
      JsonNode alerted = run(first, token);
      assertEquals("alert", alerted.get("outcome").asText());
      assertEquals(1, alerted.get("notificationsSent").asInt());
      assertEquals("official", alerted.get("trustTier").asText());
      assertEquals("nothing-new", run(first, token).get("outcome").asText());
    }
    assertEquals(1, upstream.modelCalls.get());
    assertEquals(1, upstream.alerts.get());
    try (InProcessService second = new InProcessService(withUpstream(journal.get()))) {
      String token = second.login(accountId, PASSWORD);
      assertEquals(
          "the seen item was persisted with the record",
          "nothing-new",
          run(second, token).get("outcome").asText());
      assertEquals(List.of("nothing-new", "nothing-new", "alert"), outcomes(second, token));
      assertEquals(
          204, second.send("DELETE", "/watches/launch", token, null, Map.of()).statusCode());
    }
    try (InProcessService third = new InProcessService(withUpstream(journal.get()))) {
      String token = third.login(accountId, PASSWORD);
      assertEquals(
          "history outlives the watch and a restart",
          List.of("nothing-new", "nothing-new", "alert"),
          outcomes(third, token));
      assertEquals(
          404, third.send("POST", "/watches/launch/run", token, null, Map.of()).statusCode());
    }
    assertEquals("no second model call for the same item", 1, upstream.modelCalls.get());
    assertEquals("no second alert for the same item", 1, upstream.alerts.get());
  }
}
