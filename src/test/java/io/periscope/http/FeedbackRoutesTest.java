package io.periscope.http;

import static io.periscope.testing.ApiClient.error;
import static io.periscope.testing.InProcessService.json;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.testing.InProcessService;
import io.periscope.testing.TestJournals;
import io.periscope.testing.TestWatches;
import java.util.List;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Feedback on runs over real HTTP. The watches have one search source and no search provider is
 * configured, so each run is a quick recorded {@code error}: a real run of the watch's history,
 * which is all feedback needs.
 */
public class FeedbackRoutesTest {
  static InProcessService service;
  static String alice;
  static String bob;

  @BeforeClass
  public static void start() throws Exception {
    service = new InProcessService(TestJournals.h2());
    alice = service.signedIn("alice", "user");
    bob = service.signedIn("bob", "user");
  }

  @AfterClass
  public static void stop() throws Exception {
    service.close();
  }

  /** Creates the watch and runs it once; the run's id. */
  static String watchWithARun(String token, String id) throws Exception {
    json(
        service.call(
            "POST",
            "/watches",
            token,
            TestWatches.body(id).name("Acme").condition("Acme sets a date").search("acme").json()),
        201);
    return json(service.call("POST", "/watches/" + id + "/run", token, null), 200)
        .get("result")
        .get("runId")
        .asText();
  }

  @Test
  public void feedbackIsGivenReplacedReadListedAndWithdrawn() throws Exception {
    String run = watchWithARun(alice, "given");
    String path = "/watches/given/runs/" + run + "/feedback";
    JsonNode given =
        json(
            service.call(
                "PUT", path, alice, "{\"kind\": \"wrong\", \"note\": \"  not about Acme  \"}"),
            200);
    assertEquals(run, given.get("runId").asText());
    assertEquals("wrong", given.get("kind").asText());
    assertEquals("not about Acme", given.get("note").asText());
    assertEquals(
        "the run it concerns, as it concluded", "error", given.get("run").get("outcome").asText());
    assertTrue(given.get("at").isTextual());

    json(service.call("PUT", path, alice, "{\"kind\": \"useful\"}"), 200);
    JsonNode listed =
        json(service.call("GET", "/watches/given/feedback", alice, null), 200).get("feedback");
    assertEquals("a second feedback on a run replaces the first", 1, listed.size());
    assertEquals("useful", listed.get(0).get("kind").asText());
    assertFalse("the replaced note is gone", listed.get(0).has("note"));
    assertEquals("useful", json(service.call("GET", path, alice, null), 200).get("kind").asText());

    assertEquals(204, service.call("DELETE", path, alice, null).statusCode());
    error(service.call("DELETE", path, alice, null), 404);
    error(service.call("GET", path, alice, null), 404);
    assertEquals(
        0,
        json(service.call("GET", "/watches/given/feedback", alice, null), 200)
            .get("feedback")
            .size());
  }

  @Test
  public void feedbackIsListedMostRecentlyGivenFirst() throws Exception {
    String first = watchWithARun(alice, "ordered");
    String second =
        json(service.call("POST", "/watches/ordered/run", alice, null), 200)
            .get("result")
            .get("runId")
            .asText();
    json(
        service.call(
            "PUT",
            "/watches/ordered/runs/" + second + "/feedback",
            alice,
            "{\"kind\": \"missed\"}"),
        200);
    json(
        service.call(
            "PUT", "/watches/ordered/runs/" + first + "/feedback", alice, "{\"kind\": \"useful\"}"),
        200);
    JsonNode listed =
        json(service.call("GET", "/watches/ordered/feedback", alice, null), 200).get("feedback");
    assertEquals(List.of(first, second), listed.findValuesAsText("runId"));
  }

  @Test
  public void anotherOwnersWatchAndItsFeedbackAreNotFound() throws Exception {
    String run = watchWithARun(alice, "mine");
    String path = "/watches/mine/runs/" + run + "/feedback";
    json(service.call("PUT", path, alice, "{\"kind\": \"useful\"}"), 200);
    error(service.call("GET", "/watches/mine/feedback", bob, null), 404);
    error(service.call("GET", path, bob, null), 404);
    error(service.call("PUT", path, bob, "{\"kind\": \"wrong\"}"), 404);
    error(service.call("DELETE", path, bob, null), 404);
    assertEquals("useful", json(service.call("GET", path, alice, null), 200).get("kind").asText());
  }

  @Test
  public void feedbackNeedsARunOfAnExistingWatch() throws Exception {
    watchWithARun(alice, "runs-only");
    assertEquals(
        "run not found",
        error(
                service.call(
                    "PUT",
                    "/watches/runs-only/runs/no-such-run/feedback",
                    alice,
                    "{\"kind\": \"useful\"}"),
                404)
            .get("error")
            .asText());
    assertEquals(
        "watch not found",
        error(
                service.call(
                    "PUT", "/watches/never/runs/r/feedback", alice, "{\"kind\": \"useful\"}"),
                404)
            .get("error")
            .asText());
    error(service.call("GET", "/watches/never/feedback", alice, null), 404);
    error(service.call("GET", "/watches/bad%20id/feedback", alice, null), 404);
  }

  @Test
  public void feedbackOutlivesItsWatchButNoneIsGivenOnADeletedOne() throws Exception {
    String run = watchWithARun(alice, "deleted");
    String path = "/watches/deleted/runs/" + run + "/feedback";
    json(
        service.call("PUT", path, alice, "{\"kind\": \"missed\", \"note\": \"the blog said so\"}"),
        200);
    assertEquals(204, service.call("DELETE", "/watches/deleted", alice, null).statusCode());
    JsonNode listed =
        json(service.call("GET", "/watches/deleted/feedback", alice, null), 200).get("feedback");
    assertEquals("the blog said so", listed.get(0).get("note").asText());
    assertEquals(
        "watch not found",
        error(service.call("PUT", path, alice, "{\"kind\": \"useful\"}"), 404)
            .get("error")
            .asText());
  }

  @Test
  public void badFeedbackIs400WithIssuesAndChangesNothing() throws Exception {
    String run = watchWithARun(alice, "bad-bodies");
    String path = "/watches/bad-bodies/runs/" + run + "/feedback";
    JsonNode both =
        error(
            service.call(
                "PUT", path, alice, "{\"kind\": \"meh\", \"note\": \"" + "x".repeat(1001) + "\"}"),
            400);
    assertEquals("[[\"kind\"], [\"note\"]]", both.get("issues").findValues("path").toString());
    error(service.call("PUT", path, alice, "{}"), 400);
    error(service.call("PUT", path, alice, "{\"kind\": \"useful\", \"note\": 3}"), 400);
    error(service.call("PUT", path, alice, "\"useful\""), 400);
    error(service.call("PUT", path, alice, ""), 400);
    error(service.call("GET", path, alice, null), 404);
    error(service.call("POST", path, alice, "{\"kind\": \"useful\"}"), 405);
  }

  @Test
  public void theRunRoutesOfWatchesStillAnswer() throws Exception {
    String run = watchWithARun(alice, "runs");
    assertEquals(
        run,
        json(service.call("GET", "/watches/runs/runs", alice, null), 200)
            .get("runs")
            .get(0)
            .get("runId")
            .asText());
    assertEquals(
        "the run's own route, not its feedback's",
        run,
        json(service.call("GET", "/watches/runs/runs/" + run, alice, null), 200)
            .get("runId")
            .asText());
  }
}
