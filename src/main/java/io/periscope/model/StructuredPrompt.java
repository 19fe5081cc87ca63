package io.periscope.model;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One structured-output request: instructions, the task, and the JSON schema the answer must be an instance of.
 * {@code schemaName} names the schema (OpenAI's {@code json_schema.name}, Anthropic's tool name), so it must match
 * {@code [a-zA-Z0-9_-]{1,64}}; {@code maxTokens} bounds the answer's length.
 */
public record StructuredPrompt(String system, String user, String schemaName, JsonNode schema, int maxTokens) {
  public StructuredPrompt {
    if (!schemaName.matches("[a-zA-Z0-9_-]{1,64}")) {
      throw new IllegalArgumentException("schema name must match [a-zA-Z0-9_-]{1,64}: " + schemaName);
    }
    if (!schema.isObject()) throw new IllegalArgumentException("schema must be a JSON object");
    if (maxTokens <= 0) throw new IllegalArgumentException("maxTokens must be positive");
  }
}
