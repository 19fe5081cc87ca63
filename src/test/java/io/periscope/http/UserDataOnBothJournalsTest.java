package io.periscope.http;

import static io.periscope.testing.InProcessService.json;
import static org.junit.Assert.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.Config;
import io.periscope.testing.FakeLaunchUpstream;
import io.periscope.testing.FakePushService;
import io.periscope.testing.InProcessService;
import io.periscope.testing.NeedsPostgres;
import io.periscope.testing.TestJournals;
import io.periscope.testing.TestWatches;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * The user-scoped data through the whole service on the embedded H2 journal and on PostgreSQL: a
 * trust rule sets the tier of a real run's cited evidence, feedback on that run, a device and the
 * generated VAPID key all survive a restart, and the feedback outlives its watch.
 */
public class UserDataOnBothJournalsTest {
  private static final String PASSWORD = "user-data-passphrase";
  private FakeLaunchUpstream upstream;

  @Before
  public void startUpstream() throws Exception {
    upstream = new FakeLaunchUpstream();
  }

  @After
  public void stopUpstream() throws Exception {
    upstream.close();
  }

  @Test
  public void userDataSurvivesARestartOnH2() throws Exception {
    java.nio.file.Path dir = Files.createTempDirectory("periscope-user-data");
    userDataSurvivesARestart(() -> TestJournals.embedded(dir));
  }

  @Test
  @Category(NeedsPostgres.class)
  public void userDataSurvivesARestartOnPostgres() throws Exception {
    userDataSurvivesARestart(TestJournals::postgres);
  }

  private void userDataSurvivesARestart(Supplier<Config> journal) throws Exception {
    String accountId = "keeper-" + UUID.randomUUID().toString().substring(0, 8);
    String watch =
        TestWatches.body("launch")
            .name("Acme launch")
            .condition("Acme sets a launch date")
            .source(Map.of("type", "rss", "value", upstream.url("/feed.xml"), "trust", "community"))
            .json();
    String deviceId;
    String vapidKey;
    try (InProcessService first = new InProcessService(upstream.config(journal.get()));
        FakePushService pushService = new FakePushService()) {
      first.account(accountId, "user", PASSWORD);
      String token = first.login(accountId, PASSWORD);
      json(
          first.send(
              "PUT", "/trust-rules/localhost", token, "{\"tier\": \"established\"}", Map.of()),
          200);
      json(first.send("POST", "/watches", token, watch, Map.of()), 201);
      JsonNode run =
          json(first.send("POST", "/watches/launch/run", token, null, Map.of()), 200).get("result");
      assertEquals("alert", run.get("outcome").asText());
      assertEquals(
          "the rule for the cited item's domain, not the source's community",
          "established",
          run.get("trustTier").asText());
      json(
          first.send(
              "PUT",
              "/watches/launch/runs/" + run.get("runId").asText() + "/feedback",
              token,
              "{\"kind\": \"useful\", \"note\": \"right on time\"}",
              Map.of()),
          200);
      deviceId =
          json(
                  first.send(
                      "POST",
                      "/devices",
                      token,
                      pushService.subscribe(201).registration("phone"),
                      Map.of()),
                  201)
              .get("id")
              .asText();
      vapidKey =
          json(first.send("GET", "/devices/vapid-public-key", token, null, Map.of()), 200)
              .get("publicKey")
              .asText();
    }
    try (InProcessService second = new InProcessService(upstream.config(journal.get()))) {
      String token = second.login(accountId, PASSWORD);
      assertEquals(
          "[{\"pattern\":\"localhost\",\"tier\":\"established\"}]",
          json(second.send("GET", "/trust-rules", token, null, Map.of()), 200)
              .get("rules")
              .toString());
      assertEquals(
          List.of(deviceId),
          json(second.send("GET", "/devices", token, null, Map.of()), 200)
              .get("devices")
              .findValuesAsText("id"));
      assertEquals(
          "the generated key pair is the cluster's, kept in the journal",
          vapidKey,
          json(second.send("GET", "/devices/vapid-public-key", token, null, Map.of()), 200)
              .get("publicKey")
              .asText());
      assertEquals(
          204, second.send("DELETE", "/watches/launch", token, null, Map.of()).statusCode());
      JsonNode feedback =
          json(second.send("GET", "/watches/launch/feedback", token, null, Map.of()), 200)
              .get("feedback")
              .get(0);
      assertEquals("right on time", feedback.get("note").asText());
      assertEquals("alert", feedback.get("run").get("outcome").asText());
      assertEquals(FakeLaunchUpstream.SUMMARY, feedback.get("run").get("summary").asText());
    }
  }
}
