package io.periscope.testing;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.json.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/** JSON over HTTP/1.1 to a service under test, as an API client calls it. */
public final class ApiClient {
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  /** {@code token} and {@code body} may be null. */
  public HttpResponse<String> send(String method, URI uri, String token, String body)
      throws IOException, InterruptedException {
    return send(method, uri, token, body, Duration.ofSeconds(30));
  }

  public HttpResponse<String> send(
      String method, URI uri, String token, String body, Duration timeout)
      throws IOException, InterruptedException {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(timeout);
    if (token != null) b.header("Authorization", "Bearer " + token);
    if (body != null) b.header("Content-Type", "application/json");
    b.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Signs in at {@code base}; fails unless the answer is a token. */
  public String login(URI base, String email, String password)
      throws IOException, InterruptedException {
    HttpResponse<String> r =
        send(
            "POST",
            base.resolve("/auth/login"),
            null,
            Json.text(Map.of("email", email, "password", password)));
    if (r.statusCode() != 200)
      throw new AssertionError(
          "sign-in of " + email + " failed: " + r.statusCode() + " " + r.body());
    return json(r).get("token").asText();
  }

  public static JsonNode json(HttpResponse<String> r) throws IOException {
    return Json.MAPPER.readTree(r.body());
  }

  /**
   * The body of {@code r}, which must be an error answer with {@code status}: JSON that says why.
   */
  public static JsonNode error(HttpResponse<String> r, int status) throws IOException {
    assertEquals(r.body(), status, r.statusCode());
    assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
    JsonNode body = json(r);
    assertTrue(
        "an error message: " + r.body(),
        body.path("error").isTextual() && !body.get("error").asText().isEmpty());
    return body;
  }
}
