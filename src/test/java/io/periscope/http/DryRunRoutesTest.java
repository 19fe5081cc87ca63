package io.periscope.http;

import static io.periscope.testing.ApiClient.error;
import static io.periscope.testing.InProcessService.json;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import io.periscope.testing.FakeUpstream;
import io.periscope.testing.InProcessService;
import io.periscope.testing.TestJournals;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Dry runs over real HTTP against the loopback feeds, model and webhook: judged as a real run is,
 * with nothing sent, nothing marked seen and no run recorded; overrides checked as a replace checks
 * them; another owner's watch not found; counted against the model-call quota.
 */
public class DryRunRoutesTest {
  static FakeUpstream upstream;
  static InProcessService service;
  static String root;
  static String alice;
  static String bob;

  @BeforeClass
  public static void start() throws Exception {
    // every model answer is met, citing each item; each feed fetch publishes one more item
    upstream = new FakeUpstream(Duration.ZERO, Duration.ZERO, true, 3);
    service =
        new InProcessService(
            ConfigFactory.parseMap(
                    Map.of(
                        "periscope.fetch.allow-private-networks",
                        true,
                        "periscope.model.base-url",
                        upstream.base() + "/v1",
                        "periscope.model.api-keys",
                        "sk-dry-run-routes-test-0001"))
                .withFallback(TestJournals.h2())
                .resolve());
    root = service.signedIn("root", "admin");
    alice = service.signedIn("alice", "user");
    bob = service.signedIn("bob", "user");
  }

  @AfterClass
  public static void stop() throws Exception {
    service.close();
    upstream.close();
  }

  private static List<String> titles(JsonNode judged) {
    List<String> titles = new ArrayList<>();
    judged.get("items").forEach(i -> titles.add(i.get("title").asText()));
    return titles;
  }

  /** "Item newest" down to "Item oldest", as a feed lists them. */
  private static List<String> items(int newest, int oldest) {
    List<String> titles = new ArrayList<>();
    for (int n = newest; n >= oldest; n--) titles.add("Item " + n);
    return titles;
  }

  @Test
  public void aDryRunJudgesAsARunWouldAndLeavesTheWatchAsItWas() throws Exception {
    json(
        service.call(
            "POST",
            "/watches",
            alice,
            upstream.alertingWatch("dry", "webhook:" + upstream.hookUrl("dry"))),
        201);
    JsonNode first = json(service.call("POST", "/watches/dry/run", alice, null), 200);
    assertEquals("alert", first.at("/result/outcome").asText());
    assertEquals(1, upstream.alerts().size());
    // the feed publishes an item per request: the newest the first run judged is where counting
    // starts
    // (saving the watch may have fetched the feed once already, to see whether it is one)
    int base =
        Integer.parseInt(
            titles(
                    json(
                            service.call(
                                "GET",
                                "/watches/dry/runs/" + first.at("/result/runId").asText(),
                                alice,
                                null),
                            200)
                        .get("judged"))
                .get(0)
                .substring("Item ".length()));
    JsonNode watchBefore = json(service.call("GET", "/watches/dry", alice, null), 200);
    JsonNode runsBefore = json(service.call("GET", "/watches/dry/runs", alice, null), 200);

    // the feed now lists one item more than the run judged
    long calls = upstream.modelCalls();
    JsonNode dry = json(service.call("POST", "/watches/dry/test", alice, "{}"), 200);
    assertEquals("alert", dry.at("/result/outcome").asText());
    assertEquals("test", dry.at("/result/trigger").asText());
    assertEquals("dry", dry.at("/result/watchId").asText());
    assertFalse("the result is lean: judged is beside it", dry.get("result").has("judged"));
    assertEquals(1, dry.at("/result/evidence").size());
    assertEquals(items(base + 1, base + 1), titles(dry.get("judged")));
    assertTrue(dry.at("/judged/items/0/cited").asBoolean());
    assertEquals(1, dry.at("/usage/calls").asInt());
    assertEquals(FakeUpstream.PROMPT_TOKENS, dry.at("/usage/inputTokens").asLong());
    assertEquals(calls + 1, upstream.modelCalls());

    // the next item and all before it: the dry run marked none seen; with includeSeen, the seen
    // ones too
    JsonNode all =
        json(service.call("POST", "/watches/dry/test", alice, "{\"includeSeen\": true}"), 200);
    assertEquals(items(base + 2, base), titles(all.get("judged")));

    Thread.sleep(300); // a webhook sent would have arrived by now
    assertEquals("nothing sent", 1, upstream.alerts().size());
    assertEquals(watchBefore, json(service.call("GET", "/watches/dry", alice, null), 200));
    assertEquals(runsBefore, json(service.call("GET", "/watches/dry/runs", alice, null), 200));

    // the next real run judges the three items after base: none was marked seen by the dry runs
    JsonNode next = json(service.call("POST", "/watches/dry/run", alice, null), 200);
    String runId = next.at("/result/runId").asText();
    JsonNode whole = json(service.call("GET", "/watches/dry/runs/" + runId, alice, null), 200);
    assertEquals(items(base + 3, base + 1), titles(whole.get("judged")));
    assertEquals(
        2, json(service.call("GET", "/watches/dry/runs", alice, null), 200).get("runs").size());

    // the dry runs' usage is the watch's: two runs and two dry runs
    JsonNode usage = json(service.call("GET", "/watches/dry/usage?days=1", alice, null), 200);
    assertEquals(4, usage.at("/days/0/calls").asInt());
  }

  @Test
  public void overridesAreJudgedAndCheckedAsAReplaceChecksThem() throws Exception {
    json(
        service.call(
            "POST",
            "/watches",
            alice,
            upstream.alertingWatch("over", "webhook:" + upstream.hookUrl("over"))),
        201);
    JsonNode weak =
        json(
            service.call(
                "POST",
                "/watches/over/test",
                alice,
                "{\"condition\": \"a weaker question\", \"threshold\": 1, \"weakThreshold\": 0.5}"),
            200);
    // the fake model is met at 0.9: below the overridden threshold, above its weakThreshold
    assertEquals("weak-alert", weak.at("/result/outcome").asText());
    assertEquals(
        "the stored watch is unchanged",
        "anything",
        json(service.call("GET", "/watches/over", alice, null), 200).get("condition").asText());

    JsonNode bad =
        error(
            service.call(
                "POST",
                "/watches/over/test",
                alice,
                "{\"weakThreshold\": 0.9, \"sources\": [], \"name\": \"x\", \"includeSeen\": 1}"),
            400);
    List<String> paths = new ArrayList<>();
    bad.get("issues").forEach(i -> paths.add(i.get("path").toString()));
    assertEquals(bad.toString(), List.of("[\"name\"]", "[\"includeSeen\"]"), paths);
    JsonNode overrides =
        error(
            service.call(
                "POST", "/watches/over/test", alice, "{\"weakThreshold\": 0.9, \"sources\": []}"),
            400);
    assertEquals(overrides.toString(), 2, overrides.get("issues").size());
    error(service.call("POST", "/watches/over/test", alice, "[]"), 400);

    error(service.call("POST", "/watches/over/test", bob, "{}"), 404);
    error(service.call("POST", "/watches/never/test", alice, "{}"), 404);
  }

  @Test
  public void anUnsavedWatchIsJudgedAsItsFirstRunWouldBeAndCheckedAsACreate() throws Exception {
    String body = upstream.alertingWatch("draft-watch", "webhook:" + upstream.hookUrl("draft"));
    JsonNode dry = json(service.call("POST", "/watches/test", bob, body), 200);
    assertEquals("alert", dry.at("/result/outcome").asText());
    assertEquals("draft-watch", dry.at("/result/watchId").asText());
    assertEquals(1, dry.at("/judged/items").size());
    assertEquals(1, dry.at("/usage/calls").asInt());
    error(service.call("GET", "/watches/draft-watch", bob, null), 404);
    assertTrue(upstream.alerts().stream().noneMatch(a -> a.watchId().equals("draft-watch")));
    // its usage is the account's, of no watch
    JsonNode mine = json(service.call("GET", "/account/usage?days=1", bob, null), 200);
    assertEquals("", mine.at("/watches/0/watchId").asText());
    assertEquals(1, mine.at("/watches/0/calls").asInt());

    JsonNode bad = error(service.call("POST", "/watches/test", bob, "{\"name\": \"n\"}"), 400);
    assertTrue(bad.get("issues").size() >= 5);
  }

  @Test
  public void dryRunsAreRateLimitedWithTheAiRoutes() throws Exception {
    String erin = service.signedIn("erin", "user");
    // an invalid body asks no model but counts against the limit, 10 a minute per account: the
    // 429 comes within 21 requests even when a minute's window turns meanwhile
    java.net.http.HttpResponse<String> limited = null;
    for (int i = 0; i < 21 && limited == null; i++) {
      var r = service.call("POST", "/watches/test", erin, "{\"name\": 1}");
      if (r.statusCode() == 429) limited = r;
      else error(r, 400);
    }
    assertTrue("limited", limited != null);
    error(limited, 429);
    assertTrue(limited.headers().firstValue("Retry-After").isPresent());
    error(service.call("POST", "/watches/anything/test", erin, "{}"), 429);
  }

  @Test
  public void aDryRunPastTheModelCallQuotaIsRefusedAndMakesNoCall() throws Exception {
    String carol = service.signedIn("carol", "user");
    json(service.call("PUT", "/admin/users/carol/quotas", root, "{\"modelCallsPerDay\": 1}"), 200);
    json(
        service.call(
            "POST",
            "/watches",
            carol,
            upstream.alertingWatch("capped", "webhook:" + upstream.hookUrl("capped"))),
        201);
    json(service.call("POST", "/watches/capped/test", carol, "{}"), 200);
    long calls = upstream.modelCalls();
    JsonNode refused = error(service.call("POST", "/watches/capped/test", carol, "{}"), 429);
    assertEquals("modelCallsPerDay", refused.get("quota").asText());
    assertEquals(calls, upstream.modelCalls());
    assertEquals(
        0, json(service.call("GET", "/watches/capped/runs", carol, null), 200).get("runs").size());
  }
}
