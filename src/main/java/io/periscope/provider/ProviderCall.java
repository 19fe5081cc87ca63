package io.periscope.provider;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.Headers;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * One JSON call to a model or search provider, the same for both: a bounded answer, an error answer
 * classified for the key pool (and its connection dropped), a 2xx that is not JSON or cannot be
 * read treated as transient.
 */
public final class ProviderCall {
  /**
   * Turns an error answer into a failure; a provider may refine {@link ProviderErrors#classify}.
   */
  public interface Classifier {
    ProviderFailure classify(int status, Headers headers, String body);
  }

  private ProviderCall() {}

  /**
   * @param who how messages name the upstream (never a secret)
   */
  public static CompletionStage<JsonNode> json(
      OkHttpClient client, Request request, String who, Classifier classifier, long maxBodyBytes) {
    CompletableFuture<JsonNode> result = new CompletableFuture<>();
    client
        .newCall(request)
        .enqueue(
            new Callback() {
              @Override
              public void onFailure(Call call, IOException e) {
                result.completeExceptionally(ProviderErrors.transientFailure(who, e));
              }

              @Override
              public void onResponse(Call call, Response response) {
                try (response) {
                  byte[] body = bounded(response.body(), maxBodyBytes);
                  if (!response.isSuccessful()) {
                    ProviderErrors.forgetConnection(client, response);
                    result.completeExceptionally(
                        classifier.classify(
                            response.code(),
                            response.headers(),
                            new String(body, StandardCharsets.UTF_8)));
                    return;
                  }
                  try {
                    result.complete(Json.parse(body));
                  } catch (JsonProcessingException e) {
                    // A 2xx that is not JSON is a proxy or a wrong base URL talking, not the
                    // provider: retry elsewhere.
                    result.completeExceptionally(
                        new ProviderFailure(
                            ProviderFailure.Kind.TRANSIENT,
                            response.code(),
                            null,
                            who
                                + " answered HTTP "
                                + response.code()
                                + " with a body that is not JSON"));
                  }
                } catch (IOException e) {
                  // A broken connection mid-body or an answer over the bound: another try may well
                  // succeed.
                  result.completeExceptionally(ProviderErrors.transientFailure(who, e));
                } catch (RuntimeException e) {
                  result.completeExceptionally(e);
                }
              }
            });
    return result;
  }

  private static byte[] bounded(ResponseBody body, long maxBytes) throws IOException {
    if (body == null) return new byte[0];
    try (InputStream in = body.byteStream()) {
      byte[] bytes = in.readNBytes((int) maxBytes + 1);
      if (bytes.length > maxBytes) throw new IOException("body over " + maxBytes + " bytes");
      return bytes;
    }
  }
}
