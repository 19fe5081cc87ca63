package io.periscope.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.json.Json;
import io.periscope.provider.ProviderFailure;
import okhttp3.OkHttpClient;
import okhttp3.Request;

/**
 * OpenAI Chat Completions with a strict {@code response_format} JSON schema: OpenAI itself, and the
 * servers that speak the same protocol (Ollama, vLLM, llama.cpp, OpenRouter). {@code baseUrl}
 * includes the version segment, e.g. {@code https://api.openai.com/v1}.
 */
public final class OpenAiCompatibleClient extends HttpModelClient {
  public static final String DEFAULT_BASE_URL = "https://api.openai.com/v1";
  public static final String DEFAULT_MODEL = "gpt-4o-mini";

  public OpenAiCompatibleClient(String baseUrl, String model, OkHttpClient http) {
    this(baseUrl, model, null, http);
  }

  /**
   * @param price null when none is set
   */
  public OpenAiCompatibleClient(String baseUrl, String model, ModelPrice price, OkHttpClient http) {
    super("openai", baseUrl, model, price, http);
  }

  @Override
  Request completionRequest(StructuredPrompt prompt, String apiKey) {
    ObjectNode body = Json.MAPPER.createObjectNode();
    body.put("model", model());
    var messages = body.putArray("messages");
    messages.addObject().put("role", "system").put("content", prompt.system());
    messages.addObject().put("role", "user").put("content", prompt.user());
    ObjectNode format = body.putObject("response_format").put("type", "json_schema");
    format
        .putObject("json_schema")
        .put("name", prompt.schemaName())
        .put("strict", true)
        .set("schema", prompt.schema());
    body.put("temperature", 0);
    // max_tokens rather than max_completion_tokens: every compatible server understands it.
    body.put("max_tokens", prompt.maxTokens());
    return new Request.Builder()
        .url(baseUrl + "/chat/completions")
        .header("Authorization", "Bearer " + apiKey)
        .post(jsonBody(body))
        .build();
  }

  /**
   * {@code choices[0].message}: its {@code content}, or, from servers that answer a schema through
   * a function call, {@code tool_calls[0].function.arguments}. A refusal is final for this request,
   * whatever the key.
   */
  @Override
  JsonNode answer(JsonNode envelope) {
    JsonNode message = envelope.path("choices").path(0).path("message");
    if (message.isMissingNode())
      throw new InvalidModelOutput("the answer has no choices[0].message");
    String refusal = message.path("refusal").asText("");
    if (!refusal.isBlank()) {
      throw new ProviderFailure(
          ProviderFailure.Kind.REJECTED, 200, null, "openai model refused to answer");
    }
    JsonNode content = message.path("content");
    if (content.isTextual() && !content.asText().isBlank()) return parseAnswer(content.asText());
    JsonNode arguments = message.path("tool_calls").path(0).path("function").path("arguments");
    if (arguments.isTextual()) return parseAnswer(arguments.asText());
    if (arguments.isObject()) return arguments;
    throw new InvalidModelOutput("the answer has neither content nor a tool call");
  }

  /**
   * {@code usage.prompt_tokens} (cached ones included), {@code usage.completion_tokens} (reasoning
   * included) and {@code usage.prompt_tokens_details.cached_tokens}, which servers other than
   * OpenAI often leave out.
   */
  @Override
  Usage usage(JsonNode envelope) {
    JsonNode usage = envelope.path("usage");
    return new Usage(
        usage.path("prompt_tokens").asLong(0),
        usage.path("completion_tokens").asLong(0),
        usage.path("prompt_tokens_details").path("cached_tokens").asLong(0));
  }

  @Override
  Request probeRequest(String apiKey) {
    return new Request.Builder()
        .url(baseUrl + "/models")
        .header("Authorization", "Bearer " + apiKey)
        .get()
        .build();
  }
}
