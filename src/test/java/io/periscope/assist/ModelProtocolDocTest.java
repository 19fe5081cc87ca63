package io.periscope.assist;

import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.json.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.Test;

/**
 * docs/model-protocol.md quotes every assistance prompt and schema as sent, and example user
 * prompts as the code builds them: a change to either side that is not made to the other fails
 * here.
 */
public class ModelProtocolDocTest {
  private static String doc() throws Exception {
    return Files.readString(Path.of("docs/model-protocol.md"), StandardCharsets.UTF_8);
  }

  private static void quoted(String doc, String what, String text) {
    assertTrue(
        "docs/model-protocol.md must quote the " + what + " as:\n" + text, doc.contains(text));
  }

  private static String pretty(JsonNode schema) throws Exception {
    return Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(schema);
  }

  @Test
  public void theSystemPromptsAndSchemasAreQuotedVerbatim() throws Exception {
    String doc = doc();
    quoted(doc, "draft system prompt", DraftPrompt.SYSTEM);
    quoted(doc, "draft schema", pretty(DraftPrompt.schema()));
    quoted(doc, "revision system prompt", RevisionPrompt.SYSTEM);
    quoted(doc, "revision schema", pretty(RevisionPrompt.schema()));
    quoted(doc, "explanation system prompt", ExplainPrompt.SYSTEM);
    quoted(doc, "explanation schema", pretty(ExplainPrompt.schema()));
  }

  @Test
  public void theExampleUserPromptsAreWhatTheCodeBuilds() throws Exception {
    String doc = doc();
    for (Map.Entry<String, String> example : ModelProtocolExamples.ALL.entrySet()) {
      quoted(doc, example.getKey() + " example", "```text\n" + example.getValue() + "\n```");
    }
  }

  @Test
  public void noPromptShowsAChannelsTarget() {
    ModelProtocolExamples.ALL.values().forEach(user -> assertTrue(user, !user.contains("T0K3N")));
  }
}
