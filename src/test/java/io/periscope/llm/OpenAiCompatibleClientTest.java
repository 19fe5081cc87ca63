package io.periscope.llm;

import static io.periscope.llm.Outcomes.failure;
import static io.periscope.llm.Outcomes.providerFailure;
import static io.periscope.llm.Outcomes.value;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.json.Json;
import io.periscope.provider.ProviderFailure;
import io.periscope.provider.ProviderFailure.Kind;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import okhttp3.mockwebserver.SocketPolicy;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

/** The OpenAI-compatible client against a real HTTP server on loopback. */
public class OpenAiCompatibleClientTest {
  private static final String KEY = "sk-test-0123456789abcdef";
  private static final OkHttpClient HTTP =
      new OkHttpClient.Builder()
          .readTimeout(Duration.ofMillis(500))
          .callTimeout(Duration.ofSeconds(5))
          .build();

  private MockWebServer server;
  private OpenAiCompatibleClient client;

  @Before
  public void start() throws Exception {
    server = new MockWebServer();
    server.start(java.net.InetAddress.getLoopbackAddress(), 0);
    // A trailing slash in the configured base URL must not double up in the path.
    client = new OpenAiCompatibleClient(server.url("/v1/").toString(), "fake-model", HTTP);
  }

  @After
  public void stop() throws Exception {
    server.shutdown();
  }

  private static StructuredPrompt prompt() {
    return VerdictPrompt.build(
            "Acme launches",
            List.of(
                new VerdictPrompt.Candidate(
                    "https://news.example/a", "Acme", null, "official", "Acme launched")))
        .prompt();
  }

  private static MockResponse json(int status, String body) {
    return new MockResponse()
        .setResponseCode(status)
        .setHeader("Content-Type", "application/json")
        .setBody(body);
  }

  private static MockResponse message(String messageJson) {
    return json(
        200,
        "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,"
            + "\"finish_reason\":\"stop\",\"message\":"
            + messageJson
            + "}]}");
  }

  private static MockResponse content(String content) {
    return message(
        "{\"role\":\"assistant\",\"content\":" + Json.text(content) + ",\"refusal\":null}");
  }

  @Test
  public void sendsAStrictJsonSchemaChatCompletionAndReadsTheContent() throws Exception {
    server.enqueue(content("{\"met\":true,\"confidence\":0.9}"));
    StructuredPrompt prompt = prompt();

    JsonNode answer = value(client.complete(prompt, KEY));

    assertEquals(Json.MAPPER.readTree("{\"met\":true,\"confidence\":0.9}"), answer);
    RecordedRequest request = server.takeRequest(1, TimeUnit.SECONDS);
    assertEquals("POST", request.getMethod());
    assertEquals("/v1/chat/completions", request.getPath());
    assertEquals("Bearer " + KEY, request.getHeader("Authorization"));
    assertTrue(request.getHeader("Content-Type").startsWith("application/json"));
    JsonNode body = Json.MAPPER.readTree(request.getBody().readUtf8());
    assertEquals("fake-model", body.path("model").asText());
    assertEquals("system", body.at("/messages/0/role").asText());
    assertEquals(prompt.system(), body.at("/messages/0/content").asText());
    assertEquals("user", body.at("/messages/1/role").asText());
    assertEquals(prompt.user(), body.at("/messages/1/content").asText());
    assertEquals(2, body.path("messages").size());
    assertEquals("json_schema", body.at("/response_format/type").asText());
    assertEquals("verdict", body.at("/response_format/json_schema/name").asText());
    assertTrue(body.at("/response_format/json_schema/strict").asBoolean());
    assertEquals(VerdictPrompt.schema(), body.at("/response_format/json_schema/schema"));
    assertEquals(0, body.path("temperature").asInt(-1));
    assertEquals(prompt.maxTokens(), body.path("max_tokens").asInt());
  }

  @Test
  public void readsTheTokensWithTheCachedPartWhereTheServerReportsIt() throws Exception {
    // OpenAI's envelope: prompt_tokens counts the cached tokens too
    server.enqueue(
        json(
            200,
            """
            {"id": "chatcmpl-2", "object": "chat.completion", "choices": [{"index": 0,             "finish_reason": "stop", "message": {"role": "assistant", "content": "{}"}}],             "usage": {"prompt_tokens": 2006, "completion_tokens": 300, "total_tokens": 2306,             "prompt_tokens_details": {"cached_tokens": 1920, "audio_tokens": 0},             "completion_tokens_details": {"reasoning_tokens": 64}}}\
            """));
    // a compatible server's: no details
    server.enqueue(
        json(
            200,
            """
            {"choices": [{"message": {"role": "assistant", "content": "{}"}}],             "usage": {"prompt_tokens": 812, "completion_tokens": 41, "total_tokens": 853}}\
            """));
    // and one that says nothing
    server.enqueue(content("{}"));

    assertEquals(
        new ModelClient.Usage(2006, 300, 1920), value(client.completion(prompt(), KEY)).usage());
    assertEquals(
        new ModelClient.Usage(812, 41, 0), value(client.completion(prompt(), KEY)).usage());
    assertEquals(ModelClient.Usage.UNKNOWN, value(client.completion(prompt(), KEY)).usage());
  }

  @Test
  public void acceptsAnAnswerGivenAsAToolCallOrInACodeFence() throws Exception {
    server.enqueue(
        message(
            "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"call_1\","
                + "\"type\":\"function\",\"function\":{\"name\":\"verdict\",\"arguments\":\"{"
                + "\\\"met\\\":false}\"}}]}"));
    server.enqueue(content("```json\n{\"met\":true}\n```"));

    assertFalse(value(client.complete(prompt(), KEY)).path("met").asBoolean(true));
    assertTrue(value(client.complete(prompt(), KEY)).path("met").asBoolean(false));
  }

  @Test
  public void anAnswerThatIsNotAJsonObjectIsInvalidModelOutput() throws Exception {
    server.enqueue(content("I am not able to answer in JSON today."));
    server.enqueue(content("[1, 2, 3]"));
    server.enqueue(message("{\"role\":\"assistant\",\"content\":null}"));

    for (String problem : List.of("not JSON", "not an object", "neither content nor a tool call")) {
      Throwable failure = failure(client.complete(prompt(), KEY));
      assertTrue(failure.toString(), failure instanceof InvalidModelOutput);
      assertTrue(failure.getMessage(), failure.getMessage().contains(problem));
    }
  }

  @Test
  public void aRefusalIsRejectedNotRetried() throws Exception {
    server.enqueue(
        message(
            "{\"role\":\"assistant\",\"content\":null,\"refusal\":\"I can't help with that.\"}"));

    ProviderFailure failure = providerFailure(client.complete(prompt(), KEY), KEY);

    assertEquals(Kind.REJECTED, failure.kind());
    assertFalse(failure.retryable());
  }

  @Test
  public void anInvalidKeyIsClassifiedWithoutEchoingTheKey() throws Exception {
    // OpenAI's own message repeats part of the key; none of it may reach the exception.
    server.enqueue(
        json(
            401,
            "{\"error\":{\"message\":\"Incorrect API key provided: "
                + KEY
                + ".\",\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"invalid_api_k"
                + "ey\"}}"));

    ProviderFailure failure = providerFailure(client.complete(prompt(), KEY), KEY);

    assertEquals(Kind.INVALID_KEY, failure.kind());
    assertEquals(Integer.valueOf(401), failure.httpStatus());
    assertTrue(failure.getMessage(), failure.getMessage().contains("invalid_api_key"));
  }

  @Test
  public void aRateLimitCarriesRetryAfter() throws Exception {
    server.enqueue(
        json(
                429,
                "{\"error\":{\"message\":\"Rate limit reached.\",\"type\":\"requests\","
                    + "\"code\":\"rate_limit_exceeded\"}}")
            .setHeader("Retry-After", "20"));

    ProviderFailure failure = providerFailure(client.complete(prompt(), KEY), KEY);

    assertEquals(Kind.RATE_LIMITED, failure.kind());
    assertEquals(Duration.ofSeconds(20), failure.retryAfter());
  }

  @Test
  public void insufficientQuotaIsQuotaExhaustedThoughItIsA429() throws Exception {
    server.enqueue(
        json(
            429,
            "{\"error\":{\"message\":\"You exceeded your current quota.\","
                + "\"type\":\"insufficient_quota\",\"param\":null,\"code\":\"insufficient_quota"
                + "\"}}"));

    ProviderFailure failure = providerFailure(client.complete(prompt(), KEY), KEY);

    assertEquals(Kind.QUOTA_EXHAUSTED, failure.kind());
    assertNull(failure.retryAfter());
  }

  @Test
  public void serverErrorsAndTimeoutsAreTransient() throws Exception {
    server.enqueue(
        json(
            500,
            "{\"error\":{\"message\":\"The server had an error\",\"type\":\"server_error\"}}"));
    server.enqueue(new MockResponse().setSocketPolicy(SocketPolicy.NO_RESPONSE));

    ProviderFailure serverError = providerFailure(client.complete(prompt(), KEY), KEY);
    ProviderFailure timeout = providerFailure(client.complete(prompt(), KEY), KEY);

    assertEquals(Kind.TRANSIENT, serverError.kind());
    assertEquals(Integer.valueOf(500), serverError.httpStatus());
    assertEquals(Kind.TRANSIENT, timeout.kind());
    assertNull(timeout.httpStatus());
    assertTrue(timeout.getMessage(), timeout.getMessage().contains("timed out"));
  }

  @Test
  public void aRetryAfterDateIsReadAsTheTimeLeft() throws Exception {
    String inAMinute =
        java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME.format(
            java.time.ZonedDateTime.now(java.time.ZoneOffset.UTC).plusSeconds(60));
    server.enqueue(json(429, "{}").setHeader("Retry-After", inAMinute));

    Duration retryAfter = providerFailure(client.complete(prompt(), KEY), KEY).retryAfter();

    assertTrue(
        String.valueOf(retryAfter),
        retryAfter.compareTo(Duration.ofSeconds(50)) > 0
            && retryAfter.compareTo(Duration.ofSeconds(61)) < 0);
  }

  @Test
  public void anUnreachableServerOrANonJsonEnvelopeIsTransient() throws Exception {
    server.enqueue(
        new MockResponse()
            .setHeader("Content-Type", "text/html")
            .setBody("<html>a login page</html>"));
    ProviderFailure notJson = providerFailure(client.complete(prompt(), KEY), KEY);
    server.shutdown();
    ProviderFailure unreachable = providerFailure(client.complete(prompt(), KEY), KEY);

    assertEquals(Kind.TRANSIENT, notJson.kind());
    assertEquals(Integer.valueOf(200), notJson.httpStatus());
    assertEquals(Kind.TRANSIENT, unreachable.kind());
    assertNull(unreachable.httpStatus());
  }

  @Test
  public void anotherClientErrorIsRejected() throws Exception {
    server.enqueue(
        json(
            400,
            "{\"error\":{\"message\":\"Invalid schema for response_format 'verdict'\","
                + "\"type\":\"invalid_request_error\",\"code\":null}}"));

    assertEquals(Kind.REJECTED, providerFailure(client.complete(prompt(), KEY), KEY).kind());
  }

  @Test
  public void theKeyProbeListsModels() throws Exception {
    server.enqueue(json(200, "{\"object\":\"list\",\"data\":[{\"id\":\"fake-model\"}]}"));
    server.enqueue(json(401, "{\"error\":{\"message\":\"bad key\",\"code\":\"invalid_api_key\"}}"));

    value(client.probe(KEY));
    ProviderFailure failure = providerFailure(client.probe(KEY), KEY);

    RecordedRequest request = server.takeRequest(1, TimeUnit.SECONDS);
    assertEquals("GET", request.getMethod());
    assertEquals("/v1/models", request.getPath());
    assertEquals("Bearer " + KEY, request.getHeader("Authorization"));
    assertEquals(Kind.INVALID_KEY, failure.kind());
  }
}
