package io.periscope.http;

import static io.periscope.testing.ApiClient.error;
import static io.periscope.testing.InProcessService.json;
import static io.periscope.testing.TestWatches.disabledBody;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.json.Json;
import io.periscope.testing.InProcessService;
import io.periscope.testing.NeedsPostgres;
import io.periscope.testing.TestJournals;
import java.util.List;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * Export and import over real HTTP: an account's watches and trust rules exported from an instance
 * on the embedded journal import into one on PostgreSQL, and both answer the same GET /watches; an
 * import with a conflicting watch imports nothing and says which.
 */
@Category(NeedsPostgres.class)
public class TransferRoutesTest {
  @Test
  public void anExportFromH2ImportsIntoPostgresAllOrNothing() throws Exception {
    TestJournals.requirePostgres();
    JsonNode exported;
    JsonNode listed;
    try (InProcessService embedded = new InProcessService(TestJournals.h2())) {
      String alice = embedded.signedIn("alice", "user");
      json(embedded.call("POST", "/watches", alice, disabledBody("first", "0 9 * * *")), 201);
      json(embedded.call("POST", "/watches", alice, disabledBody("second", "0 18 * * 1")), 201);
      json(embedded.call("POST", "/watches", alice, disabledBody("gone", "0 18 * * 1")), 201);
      assertEquals(204, embedded.call("DELETE", "/watches/gone", alice, null).statusCode());
      json(
          embedded.call("PUT", "/trust-rules/example.org", alice, "{\"tier\": \"official\"}"), 200);
      exported = json(embedded.call("GET", "/export", alice, null), 200);
      listed = json(embedded.call("GET", "/watches", alice, null), 200);
    }
    assertEquals("periscope-export", exported.get("format").asText());
    JsonNode account = exported.get("accounts").get(0);
    assertEquals("alice", account.get("id").asText());
    assertEquals("a deleted watch is not exported", 2, account.get("watches").size());

    try (InProcessService postgres = new InProcessService(TestJournals.postgres())) {
      String alice = postgres.signedIn("alice", "user");
      JsonNode report = json(postgres.call("POST", "/import", alice, exported.toString()), 200);
      assertTrue(report.get("imported").asBoolean());
      assertEquals(List.of("created", "created"), report.get("watches").findValuesAsText("status"));
      assertEquals(1, report.get("trustRules").asInt());
      assertEquals(listed, json(postgres.call("GET", "/watches", alice, null), 200));
      assertEquals(
          "official",
          json(postgres.call("GET", "/trust-rules/example.org", alice, null), 200)
              .get("tier")
              .asText());

      // again: nothing to do
      JsonNode again = json(postgres.call("POST", "/import", alice, exported.toString()), 200);
      assertEquals(
          List.of("unchanged", "unchanged"), again.get("watches").findValuesAsText("status"));

      // a changed watch conflicts: nothing of the document is written, not even the new watch
      json(postgres.call("PUT", "/watches/first", alice, disabledBody("first", "0 7 * * *")), 200);
      ObjectNode changed = exported.deepCopy();
      ArrayNode watches = (ArrayNode) changed.get("accounts").get(0).get("watches");
      watches.add(Json.MAPPER.readTree(disabledBody("third", "0 9 * * *")));
      watches.add(Json.MAPPER.readTree("{\"id\": \"broken\"}"));
      JsonNode refused = error(postgres.call("POST", "/import", alice, changed.toString()), 409);
      JsonNode byWatch = refused.get("report").get("watches");
      assertEquals("conflict", byWatch.get(0).get("status").asText());
      assertEquals("first", byWatch.get(0).get("id").asText());
      assertEquals("invalid", byWatch.get(3).get("status").asText());
      assertTrue(byWatch.get(3).get("problem").asText().contains("name"));
      assertEquals(
          List.of("first", "second"),
          json(postgres.call("GET", "/watches", alice, null), 200)
              .get("watches")
              .findValuesAsText("id"));

      error(postgres.call("POST", "/import", alice, "{\"format\": \"other\"}"), 400);
      error(postgres.call("GET", "/export", null, null), 401);
    }
  }

  @Test
  public void anImportPastTheTrustRuleBoundIs400AndChangesNothing() throws Exception {
    try (InProcessService service = new InProcessService(TestJournals.h2())) {
      String bob = service.signedIn("bob", "user");
      json(service.call("PUT", "/trust-rules/kept.example", bob, "{\"tier\": \"official\"}"), 200);
      ObjectNode document = Json.MAPPER.createObjectNode();
      document.put("format", "periscope-export").put("version", 1);
      ObjectNode account = document.putArray("accounts").addObject().put("id", "bob");
      account.putArray("watches").add(Json.MAPPER.readTree(disabledBody("imported", "0 9 * * *")));
      ArrayNode rules = account.putArray("trustRules");
      for (int i = 0; i < 200; i++)
        rules.addObject().put("pattern", "site" + i + ".example").put("tier", "community");
      account.putObject("channels").putArray("emailAddresses");

      JsonNode refused = error(service.call("POST", "/import", bob, document.toString()), 400);
      assertEquals("trustRules", refused.get("issues").get(0).get("path").get(0).asText());
      assertEquals(
          "no watch was written",
          0,
          json(service.call("GET", "/watches", bob, null), 200).get("watches").size());
      JsonNode kept = json(service.call("GET", "/trust-rules", bob, null), 200);
      assertEquals("no rule was written", 1, kept.findValues("pattern").size());

      // within the bound, the same document imports whole
      rules.remove(199);
      JsonNode report = json(service.call("POST", "/import", bob, document.toString()), 200);
      assertEquals(199, report.get("trustRules").asInt());
      assertEquals(
          200,
          json(service.call("GET", "/trust-rules", bob, null), 200).findValues("pattern").size());
    }
  }
}
