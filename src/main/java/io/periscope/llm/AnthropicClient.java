package io.periscope.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.json.Json;
import io.periscope.provider.ProviderFailure;
import okhttp3.OkHttpClient;
import okhttp3.Request;

/**
 * Anthropic Messages. Structured output is one tool whose {@code input_schema} is the schema,
 * forced with {@code tool_choice}: the model's answer is that tool call's {@code input}. {@code
 * baseUrl} has no version segment, e.g. {@code https://api.anthropic.com}.
 */
public final class AnthropicClient extends HttpModelClient {
  public static final String DEFAULT_BASE_URL = "https://api.anthropic.com";
  public static final String DEFAULT_MODEL = "claude-3-5-haiku-latest";
  static final String API_VERSION = "2023-06-01";

  public AnthropicClient(String baseUrl, String model, OkHttpClient http) {
    this(baseUrl, model, null, http);
  }

  /**
   * @param price null when none is set
   */
  public AnthropicClient(String baseUrl, String model, ModelPrice price, OkHttpClient http) {
    super("anthropic", baseUrl, model, price, http);
  }

  @Override
  Request completionRequest(StructuredPrompt prompt, String apiKey) {
    ObjectNode body = Json.MAPPER.createObjectNode();
    body.put("model", model());
    body.put("max_tokens", prompt.maxTokens());
    body.put("temperature", 0);
    body.put("system", prompt.system());
    body.putArray("messages").addObject().put("role", "user").put("content", prompt.user());
    body.putArray("tools")
        .addObject()
        .put("name", prompt.schemaName())
        .put(
            "description",
            "Give your answer as this tool's input; its schema is the required answer format.")
        .set("input_schema", prompt.schema());
    body.putObject("tool_choice").put("type", "tool").put("name", prompt.schemaName());
    return withKey(new Request.Builder().url(baseUrl + "/v1/messages"), apiKey)
        .post(jsonBody(body))
        .build();
  }

  /**
   * Anthropic's {@code usage.input_tokens} counts only the prompt's tokens after its last cache
   * breakpoint: the whole prompt is that plus {@code cache_read_input_tokens} (read from the cache,
   * the cached part) and {@code cache_creation_input_tokens} (written to it). Periscope sets no
   * cache breakpoint, so it is written none; were some written, they count as input at the input
   * price, below what Anthropic bills for a cache write.
   */
  @Override
  Usage usage(JsonNode envelope) {
    JsonNode usage = envelope.path("usage");
    long cacheRead = usage.path("cache_read_input_tokens").asLong(0);
    long cacheWritten = usage.path("cache_creation_input_tokens").asLong(0);
    return new Usage(
        usage.path("input_tokens").asLong(0) + cacheRead + cacheWritten,
        usage.path("output_tokens").asLong(0),
        cacheRead);
  }

  /** The {@code tool_use} block's {@code input}. */
  @Override
  JsonNode answer(JsonNode envelope) {
    if ("refusal".equals(envelope.path("stop_reason").asText())) {
      throw new ProviderFailure(
          ProviderFailure.Kind.REJECTED, 200, null, "anthropic model refused to answer");
    }
    for (JsonNode block : envelope.path("content")) {
      if ("tool_use".equals(block.path("type").asText())) {
        JsonNode input = block.path("input");
        if (!input.isObject())
          throw new InvalidModelOutput("the tool call's input is not an object");
        return input;
      }
    }
    throw new InvalidModelOutput("the answer has no tool_use block");
  }

  @Override
  Request probeRequest(String apiKey) {
    return withKey(new Request.Builder().url(baseUrl + "/v1/models"), apiKey).get().build();
  }

  private static Request.Builder withKey(Request.Builder request, String apiKey) {
    return request.header("x-api-key", apiKey).header("anthropic-version", API_VERSION);
  }
}
