package io.periscope.assist;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.assist.AssistRequests.DraftRequest;
import io.periscope.feedback.Feedback;
import io.periscope.json.Json;
import io.periscope.watch.Watch;
import io.periscope.watch.WatchSource;
import java.time.Instant;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The user prompts docs/model-protocol.md shows as examples, built by the code that builds the real
 * ones.
 */
final class ModelProtocolExamples {
  static final Watch WATCH =
      new Watch(
          "acme-launch",
          "alice",
          "Acme launch",
          List.of(
              new WatchSource("search", "acme rocket launch", "official", 7),
              new WatchSource("rss", "https://acme.example/news.xml", null, null)),
          "0 */6 * * *",
          "Acme announces the date of its first rocket launch",
          List.of("telegram", "webhook:https://hooks.example/T0K3N"),
          0.8,
          0.5,
          true,
          "UTC");

  static final Map<String, String> ALL = new LinkedHashMap<>();

  static {
    ALL.put(
        "draft",
        DraftPrompt.of(
                new DraftRequest("Tell me when Acme announces its first rocket launch", null, null),
                ZoneId.of("UTC"))
            .user());
    ObjectNode previous =
        Json.MAPPER
            .createObjectNode()
            .put("name", "Acme launch")
            .put("condition", "Acme announces the date of its first rocket launch");
    previous
        .putArray("sources")
        .addObject()
        .put("type", "search")
        .put("value", "acme rocket launch")
        .put("recencyDays", 7)
        .put("rationale", "News of the date will be searchable.");
    previous
        .put("schedule", "0 */6 * * *")
        .put("threshold", 0.8)
        .put("notes", "Checked four times a day.");
    ALL.put(
        "refine",
        DraftPrompt.of(
                new DraftRequest("", previous, "only use official sources, twice a day"),
                ZoneId.of("UTC"))
            .user());
    ALL.put("explain", ExplainPrompt.of(WATCH).user());
    ALL.put(
        "revise",
        RevisionPrompt.of(WATCH, "check twice a day and drop the weak alerts", List.of()).user());
    ALL.put(
        "revise with feedback",
        RevisionPrompt.of(
                WATCH,
                "fewer false alarms",
                List.of(
                    new Feedback(
                        "run-2",
                        Feedback.WRONG,
                        "a rumour, not an announcement",
                        Instant.parse("2026-03-02T09:00:00Z"),
                        new Feedback.RunSummary(
                            Instant.parse("2026-03-02T06:00:00Z"),
                            "alert",
                            "A forum post says Acme will launch in June.",
                            0.82),
                        List.of(
                            new Feedback.ItemLabel(
                                "rss:https://forum.example/acme.xml https://forum.example/t/42",
                                Feedback.IRRELEVANT,
                                "Acme to launch in June? (rumour thread)",
                                "https://forum.example/t/42",
                                true)),
                        null),
                    new Feedback(
                        "run-1",
                        Feedback.USEFUL,
                        null,
                        Instant.parse("2026-03-01T19:00:00Z"),
                        new Feedback.RunSummary(
                            Instant.parse("2026-03-01T18:00:00Z"), "no-match", null, 0.1))))
            .user());
  }

  private ModelProtocolExamples() {}
}
