package io.periscope.identity;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.entity.Failures;
import io.periscope.provider.ProviderCall;
import io.periscope.provider.ProviderFailure;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import okhttp3.FormBody;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;

/**
 * JSON calls to an identity provider. Its endpoints are the operator's, so trusted (no SSRF guard),
 * but every call is bounded in time (the client's timeouts) and size; any failure is the provider
 * being unavailable.
 */
final class IdentityHttp {
  /** Discovery documents, key sets and token answers are a few kilobytes. */
  static final long MAX_ANSWER_BYTES = 1024 * 1024;

  private final OkHttpClient client;
  private final String who;

  IdentityHttp(OkHttpClient client, String who) {
    this.client = client;
    this.who = who;
  }

  CompletionStage<JsonNode> get(String url, Map<String, String> headers) {
    Request.Builder request = new Request.Builder().url(url(url)).get();
    headers.forEach(request::header);
    return call(request.build());
  }

  CompletionStage<JsonNode> postForm(
      String url, Map<String, String> form, Map<String, String> headers) {
    FormBody.Builder body = new FormBody.Builder();
    form.forEach(body::add);
    Request.Builder request = new Request.Builder().url(url(url)).post(body.build());
    headers.forEach(request::header);
    return call(request.build());
  }

  private CompletionStage<JsonNode> call(Request request) {
    return ProviderCall.json(
            client,
            request,
            who,
            (status, headers, body) ->
                new ProviderFailure(
                    ProviderFailure.Kind.REJECTED, status, null, who + " answered HTTP " + status),
            MAX_ANSWER_BYTES)
        .exceptionally(
            e -> {
              Throwable cause = Failures.unwrap(e);
              if (cause instanceof ProviderFailure f) {
                throw new SignInFailure(SignInFailure.Reason.UNAVAILABLE, f.getMessage());
              }
              throw cause instanceof RuntimeException r ? r : new CompletionException(cause);
            });
  }

  private HttpUrl url(String url) {
    HttpUrl parsed = HttpUrl.parse(url);
    if (parsed == null)
      throw new SignInFailure(
          SignInFailure.Reason.UNAVAILABLE, who + " gave an endpoint that is not an http(s) URL");
    return parsed;
  }
}
