package io.periscope.llm;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * One structured-output request: instructions, the task, and the JSON schema the answer must be an
 * instance of. {@code schemaName} names the schema (OpenAI's {@code json_schema.name}, Anthropic's
 * tool name), so it must match {@code [a-zA-Z0-9_-]{1,64}}; {@code maxTokens} bounds the answer's
 * length.
 */
public record StructuredPrompt(
    String system, String user, String schemaName, JsonNode schema, int maxTokens) {
  /**
   * What a second try adds after the user prompt when the first answer could not be used; {@code
   * %s} is the problems, one "- " line each. docs/model-protocol.md quotes it.
   */
  public static final String RETRY_NOTE =
      """


      Your previous answer could not be used:
      %s
      Answer again with an instance of the schema that fixes these problems.\
      """;

  /** Compiled once: a prompt is made for every model question. */
  private static final Pattern SCHEMA_NAME = Pattern.compile("[a-zA-Z0-9_-]{1,64}");

  public StructuredPrompt {
    if (!SCHEMA_NAME.matcher(schemaName).matches()) {
      throw new IllegalArgumentException(
          "schema name must match [a-zA-Z0-9_-]{1,64}: " + schemaName);
    }
    if (!schema.isObject()) throw new IllegalArgumentException("schema must be a JSON object");
    if (maxTokens <= 0) throw new IllegalArgumentException("maxTokens must be positive");
  }

  /** The same request once more, its user prompt naming what was wrong with the first answer. */
  public StructuredPrompt retrying(List<String> problems) {
    String listed = problems.stream().map(p -> "- " + p).collect(Collectors.joining("\n"));
    return new StructuredPrompt(
        system, user + RETRY_NOTE.formatted(listed), schemaName, schema, maxTokens);
  }
}
