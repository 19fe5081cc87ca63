package io.periscope.http;

import static io.periscope.http.HttpApiTest.error;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.json.Json;
import io.periscope.testing.InProcessService;
import io.periscope.testing.TestJournals;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Feedback on runs over real HTTP. The watches have one search source and no search provider is configured, so
 * each run is a quick recorded {@code error}: a real run of the watch's history, which is all feedback needs.
 */
public class FeedbackRoutesTest {
  static InProcessService service;
  static String alice;
  static String bob;

  static final String WATCH = """
      {"id": "%s", "name": "Acme", "sources": [{"type": "search", "value": "acme"}],
       "schedule": "0 0 1 1 *", "condition": "Acme sets a date", "threshold": 0.8}""";

  @BeforeClass
  public static void start() throws Exception {
    service = new InProcessService(TestJournals.h2());
    service.account("alice", "user", "alice-passphrase");
    service.account("bob", "user", "bob-passphrase");
    alice = service.login("alice", "alice-passphrase");
    bob = service.login("bob", "bob-passphrase");
  }

  @AfterClass
  public static void stop() throws Exception {
    service.close();
  }

  static HttpResponse<String> call(String method, String path, String token, String body) throws Exception {
    return service.send(method, path, token, body, Map.of());
  }

  static JsonNode json(HttpResponse<String> r, int status) throws Exception {
    assertEquals(r.body(), status, r.statusCode());
    return Json.MAPPER.readTree(r.body());
  }

  /** Creates the watch and runs it once; the run's id. */
  static String watchWithARun(String token, String id) throws Exception {
    json(call("POST", "/watches", token, WATCH.formatted(id)), 201);
    return json(call("POST", "/watches/" + id + "/run", token, null), 200).get("result").get("runId").asText();
  }

  @Test
  public void feedbackIsGivenReplacedReadListedAndWithdrawn() throws Exception {
    String run = watchWithARun(alice, "given");
    String path = "/watches/given/runs/" + run + "/feedback";
    JsonNode given = json(call("PUT", path, alice, "{\"kind\": \"wrong\", \"note\": \"  not about Acme  \"}"), 200);
    assertEquals(run, given.get("runId").asText());
    assertEquals("wrong", given.get("kind").asText());
    assertEquals("not about Acme", given.get("note").asText());
    assertEquals("the run it concerns, as it concluded", "error", given.get("run").get("outcome").asText());
    assertTrue(given.get("at").isTextual());

    json(call("PUT", path, alice, "{\"kind\": \"useful\"}"), 200);
    JsonNode listed = json(call("GET", "/watches/given/feedback", alice, null), 200).get("feedback");
    assertEquals("a second feedback on a run replaces the first", 1, listed.size());
    assertEquals("useful", listed.get(0).get("kind").asText());
    assertFalse("the replaced note is gone", listed.get(0).has("note"));
    assertEquals("useful", json(call("GET", path, alice, null), 200).get("kind").asText());

    assertEquals(204, call("DELETE", path, alice, null).statusCode());
    error(call("DELETE", path, alice, null), 404);
    error(call("GET", path, alice, null), 404);
    assertEquals(0, json(call("GET", "/watches/given/feedback", alice, null), 200).get("feedback").size());
  }

  @Test
  public void feedbackIsListedMostRecentlyGivenFirst() throws Exception {
    String first = watchWithARun(alice, "ordered");
    String second = json(call("POST", "/watches/ordered/run", alice, null), 200).get("result").get("runId").asText();
    json(call("PUT", "/watches/ordered/runs/" + second + "/feedback", alice, "{\"kind\": \"missed\"}"), 200);
    json(call("PUT", "/watches/ordered/runs/" + first + "/feedback", alice, "{\"kind\": \"useful\"}"), 200);
    JsonNode listed = json(call("GET", "/watches/ordered/feedback", alice, null), 200).get("feedback");
    assertEquals(List.of(first, second), listed.findValuesAsText("runId"));
  }

  @Test
  public void anotherOwnersWatchAndItsFeedbackAreNotFound() throws Exception {
    String run = watchWithARun(alice, "mine");
    String path = "/watches/mine/runs/" + run + "/feedback";
    json(call("PUT", path, alice, "{\"kind\": \"useful\"}"), 200);
    error(call("GET", "/watches/mine/feedback", bob, null), 404);
    error(call("GET", path, bob, null), 404);
    error(call("PUT", path, bob, "{\"kind\": \"wrong\"}"), 404);
    error(call("DELETE", path, bob, null), 404);
    assertEquals("useful", json(call("GET", path, alice, null), 200).get("kind").asText());
  }

  @Test
  public void feedbackNeedsARunOfAnExistingWatch() throws Exception {
    watchWithARun(alice, "runs-only");
    assertEquals("run not found", error(call("PUT", "/watches/runs-only/runs/no-such-run/feedback", alice,
        "{\"kind\": \"useful\"}"), 404).get("error").asText());
    assertEquals("watch not found", error(call("PUT", "/watches/never/runs/r/feedback", alice,
        "{\"kind\": \"useful\"}"), 404).get("error").asText());
    error(call("GET", "/watches/never/feedback", alice, null), 404);
    error(call("GET", "/watches/bad%20id/feedback", alice, null), 404);
  }

  @Test
  public void feedbackOutlivesItsWatchButNoneIsGivenOnADeletedOne() throws Exception {
    String run = watchWithARun(alice, "deleted");
    String path = "/watches/deleted/runs/" + run + "/feedback";
    json(call("PUT", path, alice, "{\"kind\": \"missed\", \"note\": \"the blog said so\"}"), 200);
    assertEquals(204, call("DELETE", "/watches/deleted", alice, null).statusCode());
    JsonNode listed = json(call("GET", "/watches/deleted/feedback", alice, null), 200).get("feedback");
    assertEquals("the blog said so", listed.get(0).get("note").asText());
    assertEquals("watch not found", error(call("PUT", path, alice, "{\"kind\": \"useful\"}"), 404).get("error").asText());
  }

  @Test
  public void badFeedbackIs400WithIssuesAndChangesNothing() throws Exception {
    String run = watchWithARun(alice, "bad-bodies");
    String path = "/watches/bad-bodies/runs/" + run + "/feedback";
    JsonNode both = error(call("PUT", path, alice,
        "{\"kind\": \"meh\", \"note\": \"" + "x".repeat(1001) + "\"}"), 400);
    assertEquals("[[\"kind\"], [\"note\"]]", both.get("issues").findValues("path").toString());
    error(call("PUT", path, alice, "{}"), 400);
    error(call("PUT", path, alice, "{\"kind\": \"useful\", \"note\": 3}"), 400);
    error(call("PUT", path, alice, "\"useful\""), 400);
    error(call("PUT", path, alice, ""), 400);
    error(call("GET", path, alice, null), 404);
    error(call("POST", path, alice, "{\"kind\": \"useful\"}"), 405);
  }

  @Test
  public void theRunRoutesOfWatchesStillAnswer() throws Exception {
    String run = watchWithARun(alice, "runs");
    assertEquals(run, json(call("GET", "/watches/runs/runs", alice, null), 200).get("runs").get(0).get("runId").asText());
    error(call("GET", "/watches/runs/runs/" + run, alice, null), 404);
  }
}
