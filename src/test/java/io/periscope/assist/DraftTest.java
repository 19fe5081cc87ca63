package io.periscope.assist;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.json.Json;
import io.periscope.llm.InvalidModelOutput;
import java.time.ZoneId;
import java.util.List;
import org.junit.Test;

/**
 * The draft checker: a model's answer becomes a draft only when it passes the watch's rules and the
 * draft's.
 */
public class DraftTest {
  private static ObjectNode answer() throws Exception {
    return (ObjectNode)
        Json.MAPPER.readTree(
            """
            {"name": " Acme launch ", "condition": "Acme announces its launch date",
             "sources": [
               {"type": "search", "value": "acme launch date", "trust": null, "recencyDays": 7,
                "rationale": "News searches catch the announcement."},
               {"type": "rss", "value": "https://acme.example/news.xml", "trust": "official", \
            "recencyDays": null,
                "rationale": "Acme's own newsroom."}],
             "schedule": "0  */6 * * *", "threshold": 0.8, "notes": "I assumed daily news is \
            enough.",
             "channels": ["carrier-pigeon"], "surprise": true}\
            """);
  }

  private static List<String> problems(JsonNode answer) {
    return assertThrows(InvalidModelOutput.class, () -> Draft.check(answer, ZoneId.of("UTC")))
        .problems();
  }

  @Test
  public void aValidAnswerIsADraftWithTheWatchsNormalFormsAndItsDisplayFields() throws Exception {
    Draft draft = Draft.check(answer(), ZoneId.of("Europe/Berlin"));

    assertEquals("Acme launch", draft.name());
    assertEquals("0 */6 * * *", draft.schedule());
    assertEquals("the zone the model was told", "Europe/Berlin", draft.timeZone());
    assertEquals(0.8, draft.threshold(), 0);
    assertEquals("I assumed daily news is enough.", draft.notes());
    assertEquals(
        new Draft.DraftSource(
            "search", "acme launch date", null, 7, "News searches catch the announcement."),
        draft.sources().get(0));
    assertEquals("official", draft.sources().get(1).trust());
    assertNull(draft.sources().get(1).recencyDays());
    String json = Json.text(draft);
    assertTrue(
        "fields the draft does not own are not carried: " + json,
        !json.contains("pigeon") && !json.contains("surprise"));
  }

  @Test
  public void everyBrokenWatchRuleIsNamed() throws Exception {
    ObjectNode answer = answer();
    ObjectNode search = (ObjectNode) answer.get("sources").get(0);
    ObjectNode rss = (ObjectNode) answer.get("sources").get(1);
    search.put("type", "carrier-pigeon");
    rss.put("value", "acme newsroom");
    answer.put("schedule", "0 0 */6 * * *");
    answer.put("threshold", 1.5);

    List<String> problems = problems(answer);

    assertEquals(problems.toString(), 4, problems.size());
    assertEquals("sources[0].type: must be 'search', 'rss' or 'page'", problems.get(0));
    assertEquals("sources[1].value: must be an http(s) URL for an rss source", problems.get(1));
    assertTrue(problems.get(2), problems.get(2).startsWith("schedule: is not a valid schedule"));
    assertEquals("threshold: must be a number from 0 to 1", problems.get(3));
  }

  @Test
  public void aPageTheRequestNamesMayBeProposedAsAPageSource() throws Exception {
    ObjectNode answer = answer();
    ObjectNode page =
        ((com.fasterxml.jackson.databind.node.ArrayNode) answer.get("sources")).addObject();
    page.put("type", "page").put("value", "https://acme.example/pricing");
    page.putNull("trust").putNull("recencyDays").put("rationale", "The pricing page has no feed.");

    assertEquals(
        new Draft.DraftSource(
            "page", "https://acme.example/pricing", null, null, "The pricing page has no feed."),
        Draft.check(answer, ZoneId.of("UTC")).sources().get(2));
    page.put("value", "acme pricing");
    assertEquals(
        List.of("sources[2].value: must be an http(s) URL for a page source"), problems(answer));
  }

  @Test
  public void aSearchSourceSaysHowFarBackEverySourceWhyAndNotesAreText() throws Exception {
    ObjectNode answer = answer();
    ((ObjectNode) answer.get("sources").get(0)).putNull("recencyDays");
    ((ObjectNode) answer.get("sources").get(1)).remove("rationale");
    answer.put("notes", 3);

    assertEquals(
        List.of(
            "sources[0].recencyDays: a search source must say how many days back it looks",
            "sources[1].rationale: must be a non-empty string",
            "notes: must be a string"),
        problems(answer));

    ((ObjectNode) answer.get("sources").get(0)).put("recencyDays", 0);
    assertTrue(
        problems(answer)
            .contains("sources[0].recencyDays: must be a whole number of days from 1 to 3650"));
  }

  @Test
  public void missingFieldsAndEmptySourcesAreNamed() throws Exception {
    List<String> problems = problems(Json.MAPPER.readTree("{\"sources\": [], \"notes\": \"\"}"));

    assertEquals(
        List.of(
            "name: is required",
            "condition: is required",
            "sources: must hold at least one source",
            "schedule: is required",
            "threshold: is required"),
        problems);
  }
}
