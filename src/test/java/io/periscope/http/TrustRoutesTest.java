package io.periscope.http;

import static io.periscope.testing.ApiClient.error;
import static io.periscope.testing.InProcessService.json;
import static org.junit.Assert.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.testing.InProcessService;
import io.periscope.testing.TestJournals;
import java.util.List;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/** /trust-rules over real HTTP: owner-scoped, addressed by pattern, validated. */
public class TrustRoutesTest {
  static InProcessService service;
  static String alice;
  static String bob;
  static String carol;

  @BeforeClass
  public static void start() throws Exception {
    service = new InProcessService(TestJournals.h2());
    alice = service.signedIn("alice", "user");
    bob = service.signedIn("bob", "user");
    carol = service.signedIn("carol", "user");
  }

  @AfterClass
  public static void stop() throws Exception {
    service.close();
  }

  @Test
  public void rulesAreSetReadListedReplacedAndRemoved() throws Exception {
    assertEquals(
        "{\"pattern\":\"example.org\",\"tier\":\"official\"}",
        service.call("PUT", "/trust-rules/Example.ORG", carol, "{\"tier\": \"official\"}").body());
    json(service.call("PUT", "/trust-rules/*.gov", carol, "{\"tier\": \"established\"}"), 200);
    json(service.call("PUT", "/trust-rules/example.org", carol, "{\"tier\": \"community\"}"), 200);
    JsonNode list = json(service.call("GET", "/trust-rules", carol, null), 200);
    assertEquals(List.of("*.gov", "example.org"), list.get("rules").findValuesAsText("pattern"));
    assertEquals(List.of("established", "community"), list.get("rules").findValuesAsText("tier"));
    assertEquals(
        "community",
        json(service.call("GET", "/trust-rules/EXAMPLE.org", carol, null), 200)
            .get("tier")
            .asText());
    assertEquals(204, service.call("DELETE", "/trust-rules/*.gov", carol, null).statusCode());
    error(service.call("DELETE", "/trust-rules/*.gov", carol, null), 404);
    error(service.call("GET", "/trust-rules/*.gov", carol, null), 404);
    assertEquals(
        1, json(service.call("GET", "/trust-rules", carol, null), 200).get("rules").size());
  }

  @Test
  public void anotherOwnersRulesAreNotFoundAndNotListed() throws Exception {
    json(
        service.call("PUT", "/trust-rules/private.example", alice, "{\"tier\": \"official\"}"),
        200);
    error(service.call("GET", "/trust-rules/private.example", bob, null), 404);
    error(service.call("DELETE", "/trust-rules/private.example", bob, null), 404);
    assertEquals(0, json(service.call("GET", "/trust-rules", bob, null), 200).get("rules").size());
    assertEquals(
        200, service.call("GET", "/trust-rules/private.example", alice, null).statusCode());
  }

  @Test
  public void badPatternsAndTiersAre400WithIssues() throws Exception {
    JsonNode both =
        error(service.call("PUT", "/trust-rules/10.0.0.1", alice, "{\"tier\": \"gospel\"}"), 400);
    assertEquals("[[\"pattern\"], [\"tier\"]]", both.get("issues").findValues("path").toString());
    error(service.call("PUT", "/trust-rules/a.*.example", alice, "{\"tier\": \"official\"}"), 400);
    error(service.call("PUT", "/trust-rules/example.org", alice, "{}"), 400);
    error(service.call("PUT", "/trust-rules/example.org", alice, "[\"official\"]"), 400);
    error(service.call("PUT", "/trust-rules/example.org", alice, "{\"tier\": 1}"), 400);
    error(service.call("GET", "/trust-rules/not%20a%20domain", alice, null), 404);
    error(service.call("POST", "/trust-rules", alice, "{}"), 405);
    error(service.call("GET", "/trust-rules", null, null), 401);
  }
}
