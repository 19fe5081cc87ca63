package io.periscope.assist;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.json.Issue;
import io.periscope.json.Json;
import io.periscope.json.ValidationException;
import java.time.ZoneId;
import java.util.List;
import org.junit.Test;

/** The assistance bodies: what passes, and the issue paths of what does not. */
public class AssistRequestsTest {
  private static JsonNode json(String text) {
    try {
      return Json.MAPPER.readTree(text);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalArgumentException(e);
    }
  }

  private static List<List<Object>> paths(Runnable parse) {
    return assertThrows(ValidationException.class, parse::run).issues().stream()
        .map(Issue::path)
        .toList();
  }

  @Test
  public void aDraftNeedsADescriptionUnlessItRefines() throws Exception {
    AssistRequests.DraftRequest plain =
        AssistRequests.draft(json("{\"description\": \" Tell me about Acme \"}"));
    assertEquals("Tell me about Acme", plain.description());
    assertFalse(plain.refining());

    assertEquals(List.of(List.of("description")), paths(() -> AssistRequests.draft(json("{}"))));
    assertEquals(
        List.of(List.of("description")),
        paths(() -> AssistRequests.draft(json("{\"description\": \" \"}"))));
    assertEquals(List.of(List.of()), paths(() -> AssistRequests.draft(json("[\"Acme\"]"))));
    assertEquals(
        List.of(List.of("description")),
        paths(
            () ->
                AssistRequests.draft(
                    json(
                        "{\"description\": \""
                            + "x".repeat(AssistRequests.MAX_DESCRIPTION + 1)
                            + "\"}"))));
  }

  @Test
  public void aRefinementKeepsOnlyTheDraftsFields() throws Exception {
    AssistRequests.DraftRequest refine =
        AssistRequests.draft(
            json(
                """
                {"description": "", "refine": {"instruction": "only official sources",
                 "previousDraft": {"name": "Acme", "threshold": 0.7, "owner": "mallory",
                                   "sources": [{"type": "search", "value": "acme", "recencyDays": \
                7, "extra": 1}]}}}\
                """));

    assertTrue(refine.refining());
    assertEquals("only official sources", refine.instruction());
    assertEquals(
        json(
            "{\"name\": \"Acme\", \"threshold\": 0.7, \"sources\": [{\"type\": \"search\","
                + " \"value\": \"acme\", \"recencyDays\": 7}]}"),
        refine.previousDraft());
  }

  @Test
  public void aMalformedRefinementIsRefused() throws Exception {
    assertEquals(
        List.of(List.of("refine")),
        paths(() -> AssistRequests.draft(json("{\"refine\": \"yes\"}"))));
    assertEquals(
        List.of(List.of("refine", "previousDraft"), List.of("refine", "instruction")),
        paths(() -> AssistRequests.draft(json("{\"description\": \"\", \"refine\": {}}"))));
    assertEquals(
        List.of(
            List.of("refine", "previousDraft", "threshold"),
            List.of("refine", "previousDraft", "sources", 0, "value")),
        paths(
            () ->
                AssistRequests.draft(
                    json(
                        """
                        {"refine": {"instruction": "x", "previousDraft": {"threshold": "high", \
                        "sources": [{"value": 3}]}}}\
                        """))));
  }

  @Test
  public void aRevisionNeedsAnInstructionAndCountsOnlyABaseWithThePathsId() throws Exception {
    String watch =
        """
        {"id": "%s", "name": "Acme", "sources": [{"type": "search", "value": "acme"}], \
        "schedule": "%s",
         "condition": "c", "threshold": 0.8}\
        """;
    assertEquals(
        List.of(List.of("instruction")),
        paths(() -> AssistRequests.revision(json("{}"), "acme", "alice", ZoneId.of("UTC"))));
    assertEquals(
        List.of(List.of("instruction")),
        paths(
            () ->
                AssistRequests.revision(
                    json("{\"instruction\": \"\"}"), "acme", "alice", ZoneId.of("UTC"))));

    AssistRequests.RevisionRequest withBase =
        AssistRequests.revision(
            json(
                "{\"instruction\": \"daily\", \"base\": "
                    + watch.formatted("acme", "0 * * * *")
                    + "}"),
            "acme",
            "alice",
            ZoneId.of("UTC"));
    assertEquals("alice", withBase.base().owner());
    assertEquals("0 * * * *", withBase.base().schedule());

    AssistRequests.RevisionRequest otherId =
        AssistRequests.revision(
            json(
                "{\"instruction\": \"daily\", \"base\": "
                    + watch.formatted("other", "not cron")
                    + "}"),
            "acme",
            "alice",
            ZoneId.of("UTC"));
    assertNull("a base of another id is ignored, whatever it holds", otherId.base());

    AssistRequests.RevisionRequest withoutId =
        AssistRequests.revision(
            json(
                "{\"instruction\": \"daily\", \"base\": "
                    + watch.formatted("acme", "0 * * * *").replace("\"id\": \"acme\", ", "")
                    + "}"),
            "acme",
            "alice",
            ZoneId.of("UTC"));
    assertEquals("a base without an id is the diff base", "0 * * * *", withoutId.base().schedule());
    assertEquals("acme", withoutId.base().id());

    assertEquals(
        List.of(List.of("base", "schedule")),
        paths(
            () ->
                AssistRequests.revision(
                    json(
                        "{\"instruction\": \"daily\", \"base\": "
                            + watch.formatted("acme", "not cron")
                            + "}"),
                    "acme",
                    "alice",
                    ZoneId.of("UTC"))));
    assertEquals(
        List.of(List.of("base")),
        paths(
            () ->
                AssistRequests.revision(
                    json("{\"instruction\": \"daily\", \"base\": \"acme\"}"),
                    "acme",
                    "alice",
                    ZoneId.of("UTC"))));
  }

  @Test
  public void aPreviewNeedsAQueryAndAtMostARecencyHint() throws Exception {
    AssistRequests.PreviewRequest preview =
        AssistRequests.preview(json("{\"value\": \"acme\", \"hints\": {\"recencyDays\": 7}}"));
    assertEquals(new AssistRequests.PreviewRequest("acme", 7), preview);
    assertNull(AssistRequests.preview(json("{\"value\": \"acme\"}")).recencyDays());

    assertEquals(
        List.of(List.of("value")), paths(() -> AssistRequests.preview(json("{\"value\": 3}"))));
    assertEquals(
        List.of(List.of("hints", "recencyDays")),
        paths(
            () ->
                AssistRequests.preview(
                    json("{\"value\": \"acme\", \"hints\": {\"recencyDays\": 0}}"))));
    assertEquals(
        List.of(List.of("hints")),
        paths(() -> AssistRequests.preview(json("{\"value\": \"acme\", \"hints\": 7}"))));
  }

  @Test
  public void domainsAreAnArrayOfAtMostFiftyStrings() throws Exception {
    assertEquals(
        List.of("example.org", "example.org", "not a domain"),
        AssistRequests.domains(
                json("{\"domains\": [\"example.org\", \"example.org\", \"not a domain\"]}"))
            .domains());

    assertEquals(
        List.of(List.of("domains")),
        paths(() -> AssistRequests.domains(json("{\"domains\": \"example.org\"}"))));
    assertEquals(List.of(List.of("domains")), paths(() -> AssistRequests.domains(json("{}"))));
    assertEquals(
        List.of(List.of("domains", 1)),
        paths(() -> AssistRequests.domains(json("{\"domains\": [\"a.org\", 1]}"))));
    String fiftyOne = "[" + "\"a.org\",".repeat(50) + "\"a.org\"]";
    assertEquals(
        List.of(List.of("domains")),
        paths(() -> AssistRequests.domains(json("{\"domains\": " + fiftyOne + "}"))));
  }
}
