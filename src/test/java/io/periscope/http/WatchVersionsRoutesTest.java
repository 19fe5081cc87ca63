package io.periscope.http;

import static io.periscope.testing.InProcessService.json;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.typesafe.config.Config;
import io.periscope.json.Json;
import io.periscope.testing.InProcessService;
import io.periscope.testing.NeedsPostgres;
import io.periscope.testing.TestJournals;
import io.periscope.testing.TestWatches;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * The history of a watch's definition through the whole service, on the embedded journal and on
 * PostgreSQL: every kind of change with its actor (the owner, an import), field-level differences,
 * versions that outlive the watch's delete and a restart, a restore that creates a deleted watch
 * again as a new version, 404 for another owner's, 400 for a bad version number, 422 for restoring
 * a delete.
 */
public class WatchVersionsRoutesTest {
  @Test(timeout = 240_000)
  public void onH2() throws Exception {
    java.nio.file.Path dir = Files.createTempDirectory("periscope-versions");
    versions(() -> TestJournals.embedded(dir));
  }

  @Test(timeout = 240_000)
  @Category(NeedsPostgres.class)
  public void onPostgres() throws Exception {
    TestJournals.requirePostgres();
    Config journal = TestJournals.postgres();
    versions(() -> journal);
  }

  private static String watch(String condition, boolean enabled) throws Exception {
    ObjectNode w = (ObjectNode) Json.MAPPER.readTree(TestWatches.disabledBody("w", "0 7 * * *"));
    w.put("condition", condition).put("enabled", enabled);
    return w.toString();
  }

  private static List<String> changes(JsonNode list) {
    List<String> out = new ArrayList<>();
    for (JsonNode v : list.get("versions"))
      out.add(
          v.get("version").asInt()
              + " "
              + v.get("change").asText()
              + " "
              + (v.path("actor").isMissingNode() ? "-" : v.get("actor").get("kind").asText()));
    return out;
  }

  private void versions(Supplier<Config> journal) throws Exception {
    String ann = "ann" + System.nanoTime() % 100000;
    String exported;
    try (InProcessService s = new InProcessService(journal.get())) {
      String token = s.signedIn(ann, "user");
      String other = s.signedIn("o" + ann, "user");
      json(s.call("POST", "/watches", token, watch("Acme launches", false)), 201);
      json(s.call("PUT", "/watches/w", token, watch("Acme sets a launch date", false)), 200);
      json(s.call("PUT", "/watches/w", token, watch("Acme sets a launch date", true)), 200);
      json(s.call("PUT", "/watches/w", token, watch("Acme sets a launch date", false)), 200);
      exported = json(s.call("GET", "/export", token, null), 200).toString();
      assertEquals(204, s.call("DELETE", "/watches/w", token, null).statusCode());

      // versions outlive the delete
      JsonNode list = json(s.call("GET", "/watches/w/versions", token, null), 200);
      assertEquals(
          List.of(
              "5 deleted owner",
              "4 disabled owner",
              "3 enabled owner",
              "2 replaced owner",
              "1 created owner"),
          changes(list));
      assertEquals(ann, list.get("versions").get(0).get("actor").get("account").asText());
      assertEquals(List.of("condition"), toList(list.get("versions").get(3).get("changed")));
      assertEquals(List.of("enabled"), toList(list.get("versions").get(2).get("changed")));

      JsonNode two = json(s.call("GET", "/watches/w/versions/2", token, null), 200);
      assertEquals("replaced", two.get("change").asText());
      JsonNode diff = two.get("differences").get(0);
      assertEquals("condition", diff.get("field").asText());
      assertEquals("Acme launches", diff.get("before").asText());
      assertEquals("Acme sets a launch date", diff.get("after").asText());
      assertEquals(1, two.get("differences").size());
      assertTrue(
          json(s.call("GET", "/watches/w/versions/5", token, null), 200)
              .path("watch")
              .isMissingNode());

      // scoped, validated, nothing written on a refusal
      assertEquals(404, s.call("GET", "/watches/w/versions", other, null).statusCode());
      assertEquals(404, s.call("GET", "/watches/w/versions/1", other, null).statusCode());
      assertEquals(404, s.call("POST", "/watches/w/versions/1/restore", other, null).statusCode());
      assertEquals(404, s.call("GET", "/watches/w/versions/9", token, null).statusCode());
      JsonNode bad = json(s.call("GET", "/watches/w/versions/first", token, null), 400);
      assertEquals(List.of("path", "n"), toList(bad.get("issues").get(0).get("path")));
      assertEquals(400, s.call("POST", "/watches/w/versions/0/restore", token, null).statusCode());
      assertEquals(422, s.call("POST", "/watches/w/versions/5/restore", token, null).statusCode());
      assertEquals(404, s.call("GET", "/watches/w", token, null).statusCode());

      // a restore creates the deleted watch again, as a new version
      JsonNode restored = json(s.call("POST", "/watches/w/versions/1/restore", token, null), 200);
      assertEquals("Acme launches", restored.get("condition").asText());
      assertEquals(
          "Acme launches",
          json(s.call("GET", "/watches/w", token, null), 200).get("condition").asText());
      JsonNode six = json(s.call("GET", "/watches/w/versions/6", token, null), 200);
      assertEquals("restored", six.get("change").asText());
      assertEquals(1, six.get("restoredFrom").asInt());
      // and a restore of a live watch replaces it
      json(s.call("POST", "/watches/w/versions/4/restore", token, null), 200);
      assertEquals(
          "Acme sets a launch date",
          json(s.call("GET", "/watches/w", token, null), 200).get("condition").asText());
      assertEquals(
          List.of("condition"),
          toList(json(s.call("GET", "/watches/w/versions/7", token, null), 200).get("changed")));
      // an import is an actor of its own
      assertEquals(204, s.call("DELETE", "/watches/w", token, null).statusCode());
      json(s.call("POST", "/import", token, exported), 200);
    }
    try (InProcessService s = new InProcessService(journal.get())) {
      String token = s.login(ann, ann + "-passphrase");
      JsonNode list = json(s.call("GET", "/watches/w/versions", token, null), 200);
      List<String> all = changes(list);
      assertEquals("9 created import", all.get(0));
      assertEquals("8 deleted owner", all.get(1));
      assertEquals("7 restored owner", all.get(2));
      assertEquals(9, all.size());
    }
  }

  private static List<String> toList(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }
}
