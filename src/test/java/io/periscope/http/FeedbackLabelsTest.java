package io.periscope.http;

import static io.periscope.testing.ApiClient.error;
import static io.periscope.testing.InProcessService.json;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import io.periscope.json.Json;
import io.periscope.testing.FakeJudge;
import io.periscope.testing.FakeUpstream;
import io.periscope.testing.InProcessService;
import io.periscope.testing.TestJournals;
import io.periscope.testing.TestWatches;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import okhttp3.mockwebserver.MockResponse;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Feedback that names the items a run judged, over real HTTP, and the quality measured from it: the
 * marks kept with their titles, the missed item by key or URL, every name checked against the run,
 * and precision and recall given from {@link io.periscope.feedback.Quality#MIN_LABELS} labels on.
 */
public class FeedbackLabelsTest {
  private static final Pattern LISTED_URL = Pattern.compile("\nURL: (http\\S+)");

  static FakeUpstream feeds;
  static FakeJudge model;
  static InProcessService service;
  static String alice;
  static String bob;

  /** Met citing the first item listed when the condition says so; else not met. */
  static MockResponse answer(FakeJudge.Question q) {
    Matcher first = LISTED_URL.matcher(q.prompt());
    boolean met = q.prompt().startsWith("Condition: it alerts");
    return FakeJudge.verdict(
        met, met && first.find() ? List.of(first.group(1)) : List.of(), 100, 0, 10);
  }

  @BeforeClass
  public static void start() throws Exception {
    feeds = new FakeUpstream(Duration.ZERO, Duration.ZERO, false, 3);
    model = new FakeJudge(FeedbackLabelsTest::answer);
    service =
        new InProcessService(
            ConfigFactory.parseMap(
                    Map.of(
                        "periscope.fetch.allow-private-networks",
                        true,
                        "periscope.model.base-url",
                        model.baseUrl(),
                        "periscope.model.api-keys",
                        "sk-feedback-labels-test-0001"))
                .withFallback(TestJournals.h2())
                .resolve());
    alice = service.signedIn("alice", "user");
    bob = service.signedIn("bob", "user");
  }

  @AfterClass
  public static void stop() throws Exception {
    service.close();
    model.close();
    feeds.close();
  }

  static void watch(String id, String condition) throws Exception {
    json(
        service.call(
            "POST",
            "/watches",
            alice,
            TestWatches.body(id).condition(condition).feed(feeds.feedUrl(id)).json()),
        201);
  }

  /** Runs the watch; its whole record. */
  static JsonNode run(String id) throws Exception {
    String runId =
        json(service.call("POST", "/watches/" + id + "/run", alice, null), 200)
            .at("/result/runId")
            .asText();
    return json(service.call("GET", "/watches/" + id + "/runs/" + runId, alice, null), 200);
  }

  static JsonNode put(String id, JsonNode run, String body, int status) throws Exception {
    return json(
        service.call(
            "PUT",
            "/watches/" + id + "/runs/" + run.get("runId").asText() + "/feedback",
            alice,
            body),
        status);
  }

  @Test
  public void judgedItemsAreMarkedAndWhatWasMissedIsNamed() throws Exception {
    watch("marked", "it alerts on anything");
    JsonNode run = run("marked");
    assertEquals("alert", run.get("outcome").asText());
    JsonNode item = run.at("/judged/items/0");
    String key = item.get("key").asText();

    JsonNode given =
        put(
            "marked",
            run,
            Json.text(
                Map.of(
                    "kind", "useful", "items", List.of(Map.of("key", key, "label", "relevant")))),
            200);
    JsonNode mark = given.at("/items/0");
    assertEquals(key, mark.get("key").asText());
    assertEquals("relevant", mark.get("label").asText());
    assertEquals("kept with its title", item.get("title").asText(), mark.get("title").asText());
    assertEquals(item.get("url").asText(), mark.get("url").asText());
    assertTrue("the run alerted citing it", mark.get("alerted").asBoolean());

    JsonNode byKey =
        put("marked", run, Json.text(Map.of("kind", "missed", "missed", Map.of("key", key))), 200);
    assertEquals(item.get("title").asText(), byKey.at("/missedItem/title").asText());
    assertEquals(0, byKey.get("items").size());
    JsonNode byUrl =
        put(
            "marked",
            run,
            "{\"kind\": \"missed\", \"missed\": {\"url\": \"https://example.org/launch\"}}",
            200);
    assertEquals("https://example.org/launch", byUrl.at("/missedItem/url").asText());
    assertFalse(byUrl.get("missedItem").has("key"));
    assertEquals(
        "read back as given",
        byUrl,
        json(
            service.call(
                "GET",
                "/watches/marked/runs/" + run.get("runId").asText() + "/feedback",
                alice,
                null),
            200));
  }

  @Test
  public void namesTheRunDidNotJudgeAreRefusedAndChangeNothing() throws Exception {
    watch("refused", "it alerts on anything");
    JsonNode run = run("refused");
    String key = run.at("/judged/items/0/key").asText();
    JsonNode before = put("refused", run, "{\"kind\": \"useful\"}", 200);

    JsonNode unknown =
        put(
            "refused",
            run,
            Json.text(
                Map.of(
                    "kind",
                    "missed",
                    "items",
                    List.of(Map.of("key", "rss:elsewhere https://e.org/x", "label", "relevant")),
                    "missed",
                    Map.of("key", "no-such-item"))),
            400);
    assertEquals(
        "[[\"items\",0,\"key\"], [\"missed\",\"key\"]]",
        unknown.get("issues").findValues("path").toString());
    JsonNode malformed =
        put(
            "refused",
            run,
            Json.text(
                Map.of(
                    "kind",
                    "missed",
                    "items",
                    List.of(
                        Map.of("key", key, "label", "maybe"),
                        Map.of("key", key, "label", "relevant"),
                        "k"),
                    "missed",
                    Map.of("url", "ftp://example.org/x"))),
            400);
    assertEquals(
        "[[\"items\",0,\"label\"], [\"items\",1,\"key\"], [\"items\",2], [\"missed\",\"url\"]]",
        malformed.get("issues").findValues("path").toString());
    error(
        service.call(
            "PUT",
            "/watches/refused/runs/" + run.get("runId").asText() + "/feedback",
            alice,
            "{\"kind\": \"useful\", \"missed\": {\"url\": \"https://example.org/x\"}}"),
        400);
    put("refused", run, "{\"kind\": \"missed\", \"missed\": {}}", 400);
    put("refused", run, "{\"kind\": \"useful\", \"items\": {}}", 400);
    assertEquals(
        "nothing changed",
        before,
        json(
            service.call(
                "GET",
                "/watches/refused/runs/" + run.get("runId").asText() + "/feedback",
                alice,
                null),
            200));
  }

  @Test
  public void qualityGivesPrecisionAndRecallFromFiveLabelsOn() throws Exception {
    watch("measured", "it alerts on anything");
    watch("quiet", "nothing ever happens");
    JsonNode fresh = json(service.call("GET", "/watches/measured/quality", alice, null), 200);
    assertEquals(5, fresh.get("minimumLabels").asInt());
    assertEquals(List.of("30", "90"), fresh.get("windows").findValuesAsText("days"));
    assertTrue(fresh.at("/windows/0/precision/value").isNull());
    assertEquals(0, fresh.at("/windows/0/feedback/useful").asInt());

    for (int i = 0; i < 4; i++) {
      JsonNode run = run("measured");
      String key = run.at("/judged/items/0/key").asText();
      put(
          "measured",
          run,
          Json.text(
              Map.of(
                  "kind",
                  i < 3 ? "useful" : "wrong",
                  "items",
                  List.of(Map.of("key", key, "label", i < 3 ? "relevant" : "irrelevant")))),
          200);
    }
    JsonNode four = json(service.call("GET", "/watches/measured/quality", alice, null), 200);
    assertEquals(4, four.at("/windows/0/precision/labels").asInt());
    assertTrue("four rated alerts are too few", four.at("/windows/0/precision/value").isNull());

    put("measured", run("measured"), "{\"kind\": \"useful\"}", 200);
    // a run that did not alert, its relevant item missed: recall's fourth and fifth labels
    JsonNode quiet = run("quiet");
    assertEquals("no-match", quiet.get("outcome").asText());
    put(
        "measured",
        run("measured"),
        "{\"kind\": \"missed\", \"missed\": {\"url\": \"https://example.org/missed\"}}",
        200);
    JsonNode quietItem = quiet.at("/judged/items/0");
    put(
        "quiet",
        quiet,
        Json.text(
            Map.of(
                "kind",
                "missed",
                "items",
                List.of(Map.of("key", quietItem.get("key").asText(), "label", "relevant")))),
        200);
    assertFalse(
        json(service.call("GET", "/watches/quiet/feedback", alice, null), 200)
            .at("/feedback/0/items/0/alerted")
            .asBoolean());

    JsonNode five = json(service.call("GET", "/watches/measured/quality", alice, null), 200);
    for (JsonNode window : five.get("windows")) {
      assertEquals(4, window.at("/feedback/useful").asInt());
      assertEquals(1, window.at("/feedback/wrong").asInt());
      assertEquals(1, window.at("/feedback/missed").asInt());
      assertEquals(3, window.at("/items/relevant").asInt());
      assertEquals(1, window.at("/items/irrelevant").asInt());
      assertEquals(5, window.at("/precision/labels").asInt());
      assertEquals(0.8, window.at("/precision/value").asDouble(), 1e-9);
      assertEquals("three relevant and one missed", 4, window.at("/recall/labels").asInt());
      assertTrue(window.at("/recall/value").isNull());
    }

    error(service.call("GET", "/watches/measured/quality", bob, null), 404);
    error(service.call("GET", "/watches/never/quality", alice, null), 404);
  }
}
