package io.periscope.assist;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.json.Json;
import io.periscope.llm.InvalidModelOutput;
import io.periscope.watch.Watch;
import io.periscope.watch.WatchSource;
import java.util.List;
import org.junit.Test;

/**
 * The revision the service computes from a model's proposal: only what changes, a reason for each.
 */
public class RevisionTest {
  private static final Watch BASE =
      new Watch(
          "acme",
          "alice",
          "Acme launch",
          List.of(new WatchSource("search", "acme rocket launch", "official", null)),
          "0 */6 * * *",
          "Acme announces its launch date",
          List.of("telegram", "webhook:https://hooks.example/secret-token"),
          0.8,
          0.5,
          true,
          "UTC");

  /** The base as the model would copy it, with {@code edits} applied. */
  private static ObjectNode proposal(String edits) throws Exception {
    ObjectNode answer =
        (ObjectNode)
            Json.MAPPER.readTree(
                """
                {"reasons": [], "name": "Acme launch", "condition": "Acme announces its launch \
                date",
                 "sources": [{"type": "search", "value": "acme rocket launch", "trust": \
                "official", "recencyDays": null}],
                 "schedule": "0 */6 * * *", "threshold": 0.8, "weakThreshold": 0.5, "enabled": \
                true}\
                """);
    answer.setAll((ObjectNode) Json.MAPPER.readTree(edits));
    return answer;
  }

  @Test
  public void anUnchangedCopyIsAnEmptyRevision() throws Exception {
    Revision revision =
        Revision.read(
            proposal("{\"reasons\": [{\"field\": \"name\", \"why\": \"nothing\"}]}"), BASE);

    assertTrue(revision.changes().isEmpty());
    assertTrue("a reason for an unchanged field is dropped", revision.reasons().isEmpty());
    assertEquals("{\"reasons\":[]}", Json.text(revision));
  }

  @Test
  public void onlyChangedFieldsAppearWithTheirNewValuesAndAReasonEach() throws Exception {
    Revision revision =
        Revision.read(
            proposal(
                """
                {"schedule": "0 8,20 * * *", "threshold": 0.8000, "weakThreshold": null,
                 "reasons": [{"field": "schedule", "why": "Twice a day, as asked."},
                             {"field": "schedule", "why": "A second reason is dropped."},
                             {"field": "enabled", "why": "Unchanged, so dropped."}]}\
                """),
            BASE);

    assertEquals(List.of("schedule", "weakThreshold"), List.copyOf(revision.changes().keySet()));
    assertEquals(
        List.of(
            new Revision.Reason("schedule", "Twice a day, as asked."),
            new Revision.Reason("weakThreshold", Revision.NO_REASON_GIVEN)),
        revision.reasons());
    JsonNode json = Json.MAPPER.readTree(Json.text(revision));
    assertEquals("0 8,20 * * *", json.get("schedule").asText());
    assertTrue(
        "removing weakThreshold is an explicit null: " + json, json.get("weakThreshold").isNull());
    assertEquals(3, json.size());
  }

  @Test
  public void changedSourcesAreProposedWhole() throws Exception {
    Revision revision =
        Revision.read(
            proposal(
                """
                {"sources": [{"type": "search", "value": "acme rocket launch", "trust": \
                "official", "recencyDays": 7},
                             {"type": "rss", "value": "https://acme.example/feed.xml", "trust": \
                null, "recencyDays": null}]}\
                """),
            BASE);

    assertEquals(List.of("sources"), List.copyOf(revision.changes().keySet()));
    assertEquals(
        Json.MAPPER.readTree(
            """
            [{"type": "search", "value": "acme rocket launch", "trust": "official", \
            "recencyDays": 7},
             {"type": "rss", "value": "https://acme.example/feed.xml"}]\
            """),
        revision.changes().get("sources"));
  }

  @Test
  public void channelsAndIdsAreNeverRevised() throws Exception {
    Revision revision =
        Revision.read(proposal("{\"channels\": [], \"id\": \"other\", \"owner\": \"bob\"}"), BASE);

    assertTrue(revision.changes().isEmpty());
  }

  @Test
  public void aProposalThatIsNotAValidWatchNamesItsProblems() throws Exception {
    InvalidModelOutput invalid =
        assertThrows(
            InvalidModelOutput.class,
            () ->
                Revision.read(
                    proposal(
                        "{\"schedule\": \"twice a day\", \"weakThreshold\": 0.9, \"sources\":"
                            + " [{\"type\": \"rss\", \"value\": \"acme\"}]}"),
                    BASE));

    assertEquals(3, invalid.problems().size());
    assertEquals(
        "sources[0].value: must be an http(s) URL for an rss source", invalid.problems().get(0));
    assertTrue(invalid.problems().get(1).startsWith("schedule: "));
    assertEquals("weakThreshold: must be below threshold", invalid.problems().get(2));
  }

  @Test
  public void theDiffIsAgainstTheBaseItIsGiven() throws Exception {
    Watch edited =
        new Watch(
            "acme",
            "alice",
            "Acme launch watch",
            BASE.sources(),
            BASE.schedule(),
            BASE.condition(),
            BASE.channels(),
            BASE.threshold(),
            null,
            BASE.enabled(),
            "UTC");

    Revision revision =
        Revision.read(
            proposal("{\"name\": \"Acme launch watch\", \"weakThreshold\": null}"), edited);

    assertTrue(revision.changes().isEmpty());
  }
}
