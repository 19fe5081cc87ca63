package io.periscope.http;

import static io.periscope.testing.ApiClient.error;
import static io.periscope.testing.InProcessService.json;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import io.periscope.testing.FakeJudge;
import io.periscope.testing.FakeUpstream;
import io.periscope.testing.InProcessService;
import io.periscope.testing.TestJournals;
import io.periscope.testing.TestWatches;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import okhttp3.mockwebserver.MockResponse;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Backtests over real HTTP, against a fake model that decides from the condition and the items as
 * it reads them: an unchanged condition reproduces every recorded outcome, a changed one shows the
 * runs it changes weighed against the feedback on them, as a job too; bodies are validated and
 * another owner's watch is not found. Also times a 100-run backtest (docs/performance.md).
 */
public class BacktestRoutesTest {
  private static final Pattern CONDITION = Pattern.compile("^Condition: (.*)$", Pattern.MULTILINE);
  private static final Pattern ITEM = Pattern.compile("\nURL: (http\\S+/(\\d+))");

  static FakeUpstream feeds;
  static FakeJudge model;
  static InProcessService service;
  static String alice;
  static String bob;

  /**
   * Met, citing the items that meet it: "even items" by the even-numbered items, "every item" by
   * all, anything else by none.
   */
  static MockResponse judge(FakeJudge.Question q) {
    Matcher condition = CONDITION.matcher(q.prompt());
    String asked = condition.find() ? condition.group(1) : "";
    List<String> meeting = new ArrayList<>();
    Matcher item = ITEM.matcher(q.prompt());
    while (item.find()) {
      boolean even = Integer.parseInt(item.group(2)) % 2 == 0;
      if (asked.equals("every item") || (asked.equals("even items") && even))
        meeting.add(item.group(1));
    }
    return FakeJudge.verdict(!meeting.isEmpty(), meeting, 500, 0, 50);
  }

  @BeforeClass
  public static void start() throws Exception {
    feeds = new FakeUpstream(Duration.ZERO, Duration.ZERO, false, 1);
    model = new FakeJudge(BacktestRoutesTest::judge);
    service =
        new InProcessService(
            ConfigFactory.parseMap(
                    Map.of(
                        "periscope.fetch.allow-private-networks",
                        true,
                        "periscope.model.base-url",
                        model.baseUrl(),
                        "periscope.model.api-keys",
                        "sk-backtest-routes-test-0001",
                        "periscope.rate-limits.ai-per-owner-per-minute",
                        1000))
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

  /**
   * A watch of its own feed, one new item a run, alerting on even items; run {@code runs} times.
   */
  static Map<String, String> watchRunTimes(String id, int runs) throws Exception {
    json(
        service.call(
            "POST",
            "/watches",
            alice,
            TestWatches.body(id).condition("even items").feed(feeds.feedUrl(id)).json()),
        201);
    Map<String, String> outcomes = new HashMap<>();
    for (int i = 0; i < runs; i++) {
      JsonNode run = json(service.call("POST", "/watches/" + id + "/run", alice, null), 200);
      outcomes.put(run.at("/result/runId").asText(), run.at("/result/outcome").asText());
    }
    return outcomes;
  }

  static JsonNode backtest(String id, String body) throws Exception {
    return json(service.call("POST", "/watches/" + id + "/backtest", alice, body), 200);
  }

  @Test
  public void anUnchangedConditionReproducesTheRecordedOutcomes() throws Exception {
    Map<String, String> recorded = watchRunTimes("same", 4);
    assertTrue(recorded.containsValue("alert"));
    assertTrue(recorded.containsValue("no-match"));
    int asked = model.questions().size();

    JsonNode same = backtest("same", "{}");
    assertEquals(4, same.at("/summary/runs").asInt());
    assertEquals(4, same.at("/summary/replayed").asInt());
    assertEquals(0, same.at("/summary/changed").asInt());
    for (JsonNode run : same.get("runs")) {
      String outcome = recorded.get(run.get("runId").asText());
      assertEquals(outcome, run.at("/recorded/outcome").asText());
      assertEquals(outcome, run.at("/candidate/outcome").asText());
      assertEquals("replayed", run.get("status").asText());
    }
    assertEquals("one model call per run", asked + 4, model.questions().size());
    assertEquals(4, same.at("/usage/calls").asInt());
    assertEquals(2000, same.at("/usage/inputTokens").asLong());
    assertTrue("no price set: no cost", same.at("/usage/cost").isNull());
    // kept with the watch's usage
    JsonNode usage = json(service.call("GET", "/watches/same/usage?days=1", alice, null), 200);
    assertEquals("4 runs and 4 replays", 8, usage.at("/total/calls").asInt());

    // the newest runs, at most runs
    JsonNode two = backtest("same", "{\"runs\": 2}");
    assertEquals(2, two.get("runs").size());
  }

  @Test
  public void aChangedConditionShowsTheChangeAgainstTheFeedback() throws Exception {
    Map<String, String> recorded = watchRunTimes("changed", 4);
    List<String> alerts = new ArrayList<>();
    List<String> quiet = new ArrayList<>();
    recorded.forEach((run, outcome) -> (outcome.equals("alert") ? alerts : quiet).add(run));
    feedback("changed", alerts.get(0), "useful");
    feedback("changed", alerts.get(1), "wrong");
    feedback("changed", quiet.get(0), "missed");

    JsonNode every = backtest("changed", "{\"condition\": \"every item\"}");
    assertEquals(2, every.at("/summary/changed").asInt());
    assertEquals(2, every.at("/summary/alertsRecorded").asInt());
    assertEquals(4, every.at("/summary/alertsCandidate").asInt());
    assertEquals(1, every.at("/summary/missedFound").asInt());
    assertEquals(1, every.at("/summary/wrongAlerting").asInt());
    assertEquals(0, every.at("/summary/usefulLost").asInt());
    for (JsonNode run : every.get("runs")) {
      assertEquals("alert", run.at("/candidate/outcome").asText());
      assertEquals(quiet.contains(run.get("runId").asText()), run.get("changed").asBoolean());
    }

    JsonNode none = backtest("changed", "{\"condition\": \"nothing at all\"}");
    assertEquals(2, none.at("/summary/changed").asInt());
    assertEquals(1, none.at("/summary/usefulLost").asInt());
    assertEquals(0, none.at("/summary/wrongAlerting").asInt());
    assertEquals(0, none.at("/summary/missedFound").asInt());

    // a threshold above the verdicts' confidence: no alert, and the rule says why
    JsonNode strict = backtest("changed", "{\"threshold\": 0.95}");
    assertEquals(2, strict.at("/summary/changed").asInt());
    assertEquals(0, strict.at("/summary/alertsCandidate").asInt());
    // with a weak threshold under it, the alerts become weak ones, still alerts
    JsonNode weak = backtest("changed", "{\"threshold\": 0.95, \"weakThreshold\": 0.5}");
    assertEquals(2, weak.at("/summary/changed").asInt());
    assertEquals(2, weak.at("/summary/alertsCandidate").asInt());
    assertEquals(0, weak.at("/summary/usefulLost").asInt());
  }

  @Test
  public void aLongBacktestRunsAsAJobWithProgress() throws Exception {
    Map<String, String> recorded = watchRunTimes("job", 3);
    long quiet = recorded.values().stream().filter(outcome -> !outcome.equals("alert")).count();
    assertTrue("a run judged only odd items", quiet > 0);
    HttpResponse<String> started =
        service.call(
            "POST", "/watches/job/backtest?async=true", alice, "{\"condition\": \"every item\"}");
    JsonNode job = json(started, 202).get("job");
    String path = "/watches/job/backtest/jobs/" + job.get("id").asText();
    assertEquals(path, started.headers().firstValue("Location").orElseThrow());
    HttpResponse<String> events =
        service.send("GET", path + "/events", alice, null, Map.of("Accept", "text/event-stream"));
    assertEquals(200, events.statusCode());
    assertEquals(3, events.body().split("event: ?run", -1).length - 1);
    assertTrue(events.body(), events.body().matches("(?s).*event: ?done.*"));
    JsonNode done = json(service.call("GET", path, alice, null), 200).get("job");
    assertEquals("done", done.get("status").asText());
    assertEquals(3, done.get("total").asInt());
    assertEquals("the quiet runs now alert", quiet, done.at("/summary/changed").asInt());
    assertNotNull(done.at("/usage/calls"));
    assertEquals(3, done.at("/usage/calls").asInt());

    error(service.call("GET", path, bob, null), 404);
    error(service.call("GET", "/watches/job/backtest/jobs/no-such-job", alice, null), 404);
  }

  @Test
  public void badBodiesAre400AndAnotherOwnersWatch404() throws Exception {
    watchRunTimes("checked", 1);
    int asked = model.questions().size();
    for (String body :
        List.of(
            "{\"runs\": 0}",
            "{\"runs\": 101}",
            "{\"runs\": \"ten\"}",
            "{\"runs\": 2.5}",
            "{\"schedule\": \"* * * * *\"}",
            "{\"threshold\": 2}",
            "{\"condition\": \"\"}",
            "{\"threshold\": 0.5, \"weakThreshold\": 0.6}",
            "[]")) {
      JsonNode refused = error(service.call("POST", "/watches/checked/backtest", alice, body), 400);
      assertTrue(body, refused.get("issues").size() > 0);
    }
    error(service.call("POST", "/watches/checked/backtest?async=maybe", alice, "{}"), 400);
    error(service.call("POST", "/watches/checked/backtest", bob, "{}"), 404);
    error(service.call("POST", "/watches/never/backtest", alice, "{}"), 404);
    assertEquals("nothing was asked", asked, model.questions().size());
  }

  @Test
  public void aHundredRunBacktestIsTimed() throws Exception {
    watchRunTimes("hundred", 100);
    long start = System.nanoTime();
    JsonNode hundred = backtest("hundred", "{\"runs\": 100, \"condition\": \"every item\"}");
    long ms = (System.nanoTime() - start) / 1_000_000;
    assertEquals(100, hundred.at("/summary/replayed").asInt());
    assertEquals(50, hundred.at("/summary/changed").asInt());
    System.out.println("backtest of 100 runs on the fake model: " + ms + " ms");
  }

  static void feedback(String watch, String run, String kind) throws Exception {
    json(
        service.call(
            "PUT",
            "/watches/" + watch + "/runs/" + run + "/feedback",
            alice,
            "{\"kind\": \"" + kind + "\"}"),
        200);
  }
}
