package io.periscope.llm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.json.Json;
import io.periscope.provider.ProviderCall;
import io.periscope.provider.ProviderErrors;
import io.periscope.provider.ProviderFailure;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletionStage;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;

/**
 * What both protocols share: asynchronous JSON calls over OkHttp with bounded answers, every
 * failure classified for the key pool, and the model's JSON text read into an object. The key
 * travels in a header only; no message built here contains it, or anything a provider echoes back
 * about it.
 */
abstract class HttpModelClient implements ModelClient {
  static final MediaType JSON = MediaType.get("application/json");

  /**
   * Far above any verdict or draft; a bigger body is a misbehaving upstream, not an answer to
   * buffer.
   */
  static final long MAX_BODY_BYTES = 4L * 1024 * 1024;

  private final String provider;
  private final String model;
  private final ModelPrice price;
  protected final String baseUrl;
  private final OkHttpClient http;

  /**
   * @param price null when none is set
   */
  HttpModelClient(
      String provider, String baseUrl, String model, ModelPrice price, OkHttpClient http) {
    this.provider = provider;
    this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
    this.model = model;
    this.price = price;
    this.http = http;
  }

  @Override
  public String provider() {
    return provider;
  }

  @Override
  public String model() {
    return model;
  }

  @Override
  public ModelPrice price() {
    return price;
  }

  /** The provider's request for one structured answer. */
  abstract Request completionRequest(StructuredPrompt prompt, String apiKey);

  /** The answer's JSON object out of the provider's 2xx envelope. */
  abstract JsonNode answer(JsonNode envelope);

  /** The tokens of the call, from the envelope's {@code usage}; 0 for what it does not say. */
  abstract Usage usage(JsonNode envelope);

  /** The provider's "list models" request. */
  abstract Request probeRequest(String apiKey);

  @Override
  public CompletionStage<JsonNode> complete(StructuredPrompt prompt, String apiKey) {
    return completion(prompt, apiKey).thenApply(Completion::answer);
  }

  @Override
  public CompletionStage<Completion> completion(StructuredPrompt prompt, String apiKey) {
    return call(completionRequest(prompt, apiKey))
        .thenApply(
            envelope -> {
              Usage usage = usage(envelope);
              try {
                return new Completion(answer(envelope), usage);
              } catch (InvalidModelOutput invalid) {
                throw invalid.took(usage);
              }
            });
  }

  @Override
  public CompletionStage<Void> probe(String apiKey) {
    return call(probeRequest(apiKey)).thenApply(envelope -> null);
  }

  static RequestBody jsonBody(JsonNode body) {
    return RequestBody.create(Json.bytes(body), JSON);
  }

  /** The 2xx body as JSON; anything else fails with a classified {@link ProviderFailure}. */
  private CompletionStage<JsonNode> call(Request request) {
    return ProviderCall.json(
        http,
        request,
        provider,
        (status, headers, body) -> ProviderErrors.classify(provider, status, headers, body),
        MAX_BODY_BYTES);
  }

  /**
   * The model's JSON text as an object. Local servers sometimes wrap it in a Markdown code fence
   * even under a schema, so a fence is taken off first.
   */
  static JsonNode parseAnswer(String text) {
    String json = text.strip();
    if (json.startsWith("```")) {
      int firstLineEnd = json.indexOf('\n');
      int lastFence = json.lastIndexOf("```");
      if (firstLineEnd > 0 && lastFence > firstLineEnd)
        json = json.substring(firstLineEnd + 1, lastFence).strip();
    }
    JsonNode answer;
    try {
      answer = Json.parse(json.getBytes(StandardCharsets.UTF_8));
    } catch (JsonProcessingException e) {
      throw new InvalidModelOutput("the answer is not JSON");
    }
    if (!answer.isObject()) throw new InvalidModelOutput("the answer is JSON but not an object");
    return answer;
  }
}
