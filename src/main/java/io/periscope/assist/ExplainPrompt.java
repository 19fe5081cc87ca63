package io.periscope.assist;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.llm.InvalidModelOutput;
import io.periscope.llm.StructuredPrompt;
import io.periscope.watch.Watch;
import java.util.Map;

/**
 * The model call of POST /watches/:id/explain: the watch in plain language. docs/model-protocol.md
 * quotes {@link #SYSTEM}, the user template and {@link #schema()}.
 */
public final class ExplainPrompt {
  public static final String SCHEMA_NAME = "explanation";
  static final int MAX_ANSWER_TOKENS = 800;
  static final int MAX_EXPLANATION = 4_000;

  public static final String SYSTEM =
      "You explain a watch to its owner, "
          + WatchText.SERVICE
          + """


          In one short paragraph of plain language, without cron syntax or jargon, say what the \
          watch looks at (its searches and feeds, and how far back), what must happen for an \
          alert, how sure the service must be before it alerts and whether weaker, unconfirmed \
          alerts are sent, how often it runs (its times are in the watch's timeZone), and where alerts go. Say so when \
          the watch is disabled.\
          """;

  private static final JsonNode SCHEMA =
      Schemas.object(
          Map.entry(
              "explanation",
              Schemas.string("The watch explained in one short paragraph of plain language.")));

  private ExplainPrompt() {}

  /** A copy of the explanation's schema, as sent. */
  public static JsonNode schema() {
    return SCHEMA.deepCopy();
  }

  public static StructuredPrompt of(Watch watch) {
    String user =
        "Watch:\n" + WatchText.fields(watch) + "\n\nAlerts go to: " + WatchText.channelKinds(watch);
    return new StructuredPrompt(SYSTEM, user, SCHEMA_NAME, schema(), MAX_ANSWER_TOKENS);
  }

  /** The explanation: non-empty text of at most {@link #MAX_EXPLANATION} characters. */
  static String read(JsonNode answer) {
    JsonNode text = answer.path("explanation");
    if (!text.isTextual() || text.asText().isBlank()) {
      throw new InvalidModelOutput("explanation: must be a non-empty string");
    }
    if (text.asText().strip().length() > MAX_EXPLANATION) {
      throw new InvalidModelOutput(
          "explanation: must be at most " + MAX_EXPLANATION + " characters");
    }
    return text.asText().strip();
  }
}
