package io.periscope.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.json.Json;
import io.periscope.keys.ProviderErrors;
import io.periscope.keys.ProviderFailure;
import io.periscope.keys.ProviderFailure.Kind;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * What both protocols share: asynchronous JSON calls over OkHttp with bounded answers, every failure classified
 * for the key pool, and the model's JSON text read into an object. The key travels in a header only; no message
 * built here contains it, or anything a provider echoes back about it.
 */
abstract class HttpModelClient implements ModelClient {
  static final MediaType JSON = MediaType.get("application/json");
  /** Far above any verdict or draft; a bigger body is a misbehaving upstream, not an answer to buffer. */
  static final long MAX_BODY_BYTES = 4L * 1024 * 1024;

  private final String provider;
  private final String model;
  protected final String baseUrl;
  private final OkHttpClient http;

  HttpModelClient(String provider, String baseUrl, String model, OkHttpClient http) {
    this.provider = provider;
    this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
    this.model = model;
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

  /** The provider's request for one structured answer. */
  abstract Request completionRequest(StructuredPrompt prompt, String apiKey);

  /** The answer's JSON object out of the provider's 2xx envelope. */
  abstract JsonNode answer(JsonNode envelope);

  /** The provider's "list models" request. */
  abstract Request probeRequest(String apiKey);

  @Override
  public CompletionStage<JsonNode> complete(StructuredPrompt prompt, String apiKey) {
    return call(completionRequest(prompt, apiKey)).thenApply(this::answer);
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
    CompletableFuture<JsonNode> result = new CompletableFuture<>();
    http.newCall(request).enqueue(new Callback() {
      @Override
      public void onFailure(Call call, IOException e) {
        result.completeExceptionally(ProviderErrors.transientFailure(provider, e));
      }

      @Override
      public void onResponse(Call call, Response response) {
        try (response) {
          byte[] body = boundedBody(response.body());
          if (!response.isSuccessful()) {
            ProviderErrors.forgetConnection(http, response);
            result.completeExceptionally(ProviderErrors.classify(provider, response.code(), response.headers(),
                new String(body, StandardCharsets.UTF_8)));
            return;
          }
          try {
            result.complete(Json.parse(body));
          } catch (JsonProcessingException e) {
            // A 2xx that is not JSON is a proxy or a wrong base URL talking, not the model: retry elsewhere.
            result.completeExceptionally(new ProviderFailure(Kind.TRANSIENT, response.code(), null,
                provider + " answered HTTP " + response.code() + " with a body that is not JSON"));
          }
        } catch (IOException e) {
          result.completeExceptionally(ProviderErrors.transientFailure(provider, e));
        } catch (RuntimeException e) {
          result.completeExceptionally(e);
        }
      }
    });
    return result;
  }

  private byte[] boundedBody(ResponseBody body) throws IOException {
    if (body == null) return new byte[0];
    try (InputStream in = body.byteStream()) {
      byte[] bytes = in.readNBytes((int) MAX_BODY_BYTES + 1);
      if (bytes.length > MAX_BODY_BYTES) throw new IOException("body over " + MAX_BODY_BYTES + " bytes");
      return bytes;
    }
  }

  /**
   * The model's JSON text as an object. Local servers sometimes wrap it in a Markdown code fence even under a
   * schema, so a fence is taken off first.
   */
  static JsonNode parseAnswer(String text) {
    String json = text.strip();
    if (json.startsWith("```")) {
      int firstLineEnd = json.indexOf('\n');
      int lastFence = json.lastIndexOf("```");
      if (firstLineEnd > 0 && lastFence > firstLineEnd) json = json.substring(firstLineEnd + 1, lastFence).strip();
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
