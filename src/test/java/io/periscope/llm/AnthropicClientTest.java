package io.periscope.llm;

import static io.periscope.llm.Outcomes.failure;
import static io.periscope.llm.Outcomes.providerFailure;
import static io.periscope.llm.Outcomes.value;
import static org.junit.Assert.assertEquals;
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

/** The Anthropic Messages client against a real HTTP server on loopback. */
public class AnthropicClientTest {
  private static final String KEY = "sk-ant-test-0123456789abcdef";
  private static final OkHttpClient HTTP =
      new OkHttpClient.Builder()
          .readTimeout(Duration.ofMillis(500))
          .callTimeout(Duration.ofSeconds(5))
          .build();

  private MockWebServer server;
  private AnthropicClient client;

  @Before
  public void start() throws Exception {
    server = new MockWebServer();
    server.start(java.net.InetAddress.getLoopbackAddress(), 0);
    client = new AnthropicClient(server.url("/").toString(), "claude-test", HTTP);
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

  private static MockResponse error(int status, String type) {
    return json(
        status,
        "{\"type\":\"error\",\"error\":{\"type\":\""
            + type
            + "\",\"message\":\"m\"},"
            + "\"request_id\":\"req_1\"}");
  }

  private static MockResponse messageWith(String contentBlocks) {
    return json(
        200,
        "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-test\","
            + "\"content\":"
            + contentBlocks
            + ",\"stop_reason\":\"tool_use\"}");
  }

  @Test
  public void forcesOneToolWhoseInputSchemaIsTheSchemaAndReadsItsInput() throws Exception {
    server.enqueue(
        messageWith(
            "[{\"type\":\"text\",\"text\":\"Here is my verdict.\"},"
                + "{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"verdict\",\"input\":{\"me"
                + "t\":true,\"confidence\":0.8}}]"));
    StructuredPrompt prompt = prompt();

    JsonNode answer = value(client.complete(prompt, KEY));

    assertEquals(Json.MAPPER.readTree("{\"met\":true,\"confidence\":0.8}"), answer);
    RecordedRequest request = server.takeRequest(1, TimeUnit.SECONDS);
    assertEquals("POST", request.getMethod());
    assertEquals("/v1/messages", request.getPath());
    assertEquals(KEY, request.getHeader("x-api-key"));
    assertEquals("2023-06-01", request.getHeader("anthropic-version"));
    assertNull(request.getHeader("Authorization"));
    JsonNode body = Json.MAPPER.readTree(request.getBody().readUtf8());
    assertEquals("claude-test", body.path("model").asText());
    assertEquals(prompt.maxTokens(), body.path("max_tokens").asInt());
    assertEquals(0, body.path("temperature").asInt(-1));
    assertEquals(prompt.system(), body.path("system").asText());
    assertEquals(1, body.path("messages").size());
    assertEquals("user", body.at("/messages/0/role").asText());
    assertEquals(prompt.user(), body.at("/messages/0/content").asText());
    assertEquals(1, body.path("tools").size());
    assertEquals("verdict", body.at("/tools/0/name").asText());
    assertEquals(VerdictPrompt.schema(), body.at("/tools/0/input_schema"));
    assertEquals("tool", body.at("/tool_choice/type").asText());
    assertEquals("verdict", body.at("/tool_choice/name").asText());
  }

  @Test
  public void readsTheTokensCountingWhatTheCacheReadAndWroteAsInput() throws Exception {
    // Anthropic's envelope: input_tokens counts only what follows the last cache breakpoint
    server.enqueue(
        json(
            200,
            """
            {"id": "msg_2", "type": "message", "role": "assistant", "model": "claude-test",             "content": [{"type": "tool_use", "id": "toolu_2", "name": "verdict", "input": {}}],             "stop_reason": "tool_use", "usage": {"input_tokens": 50,             "cache_creation_input_tokens": 248, "cache_read_input_tokens": 1800,             "output_tokens": 120}}\
            """));
    server.enqueue(
        json(
            200,
            """
            {"id": "msg_3", "type": "message", "role": "assistant", "model": "claude-test",             "content": [{"type": "tool_use", "id": "toolu_3", "name": "verdict", "input": {}}],             "stop_reason": "tool_use", "usage": {"input_tokens": 2048, "output_tokens": 95}}\
            """));

    assertEquals(
        new ModelClient.Usage(50 + 248 + 1800, 120, 1800),
        value(client.completion(prompt(), KEY)).usage());
    assertEquals(
        new ModelClient.Usage(2048, 95, 0), value(client.completion(prompt(), KEY)).usage());
  }

  @Test
  public void anAnswerWithoutAToolCallIsInvalidModelOutput() throws Exception {
    server.enqueue(messageWith("[{\"type\":\"text\",\"text\":\"I would rather chat.\"}]"));
    server.enqueue(
        messageWith(
            "[{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"verdict\",\"input\":\"yes\"}]"));

    for (String problem : List.of("no tool_use block", "not an object")) {
      Throwable failure = failure(client.complete(prompt(), KEY));
      assertTrue(failure.toString(), failure instanceof InvalidModelOutput);
      assertTrue(failure.getMessage(), failure.getMessage().contains(problem));
    }
  }

  @Test
  public void overloadedIsTransient() throws Exception {
    server.enqueue(error(529, "overloaded_error"));

    ProviderFailure failure = providerFailure(client.complete(prompt(), KEY), KEY);

    assertEquals(Kind.TRANSIENT, failure.kind());
    assertEquals(Integer.valueOf(529), failure.httpStatus());
  }

  @Test
  public void aRateLimitCarriesRetryAfterAndASpendLimitIsQuota() throws Exception {
    server.enqueue(error(429, "rate_limit_error").setHeader("retry-after", "7"));
    server.enqueue(
        json(
            429,
            "{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"m\","
                + "\"details\":{\"error_code\":\"enforced_spend_limit_reached\"}}}"));
    server.enqueue(
        json(
            400,
            "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\","
                + "\"message\":\"Your credit balance is too low to access the Anthropic API.\"}}"));

    ProviderFailure limited = providerFailure(client.complete(prompt(), KEY), KEY);
    ProviderFailure spent = providerFailure(client.complete(prompt(), KEY), KEY);
    ProviderFailure noCredit = providerFailure(client.complete(prompt(), KEY), KEY);

    assertEquals(Kind.RATE_LIMITED, limited.kind());
    assertEquals(Duration.ofSeconds(7), limited.retryAfter());
    assertEquals(Kind.QUOTA_EXHAUSTED, spent.kind());
    assertEquals(Kind.QUOTA_EXHAUSTED, noCredit.kind());
  }

  @Test
  public void aRefusedKeyIsInvalidAndABadRequestIsRejected() throws Exception {
    server.enqueue(error(401, "authentication_error"));
    server.enqueue(error(403, "permission_error"));
    server.enqueue(error(400, "invalid_request_error"));
    server.enqueue(error(404, "not_found_error"));

    assertEquals(Kind.INVALID_KEY, providerFailure(client.complete(prompt(), KEY), KEY).kind());
    assertEquals(Kind.INVALID_KEY, providerFailure(client.complete(prompt(), KEY), KEY).kind());
    assertEquals(Kind.REJECTED, providerFailure(client.complete(prompt(), KEY), KEY).kind());
    ProviderFailure notFound = providerFailure(client.complete(prompt(), KEY), KEY);
    assertEquals(Kind.REJECTED, notFound.kind());
    assertTrue(notFound.getMessage(), notFound.getMessage().contains("not_found_error"));
  }

  @Test
  public void aTimeoutIsTransient() throws Exception {
    server.enqueue(new MockResponse().setSocketPolicy(SocketPolicy.NO_RESPONSE));

    ProviderFailure failure = providerFailure(client.complete(prompt(), KEY), KEY);

    assertEquals(Kind.TRANSIENT, failure.kind());
    assertNull(failure.httpStatus());
  }

  @Test
  public void theKeyProbeListsModels() throws Exception {
    server.enqueue(
        json(200, "{\"data\":[{\"type\":\"model\",\"id\":\"claude-test\"}],\"has_more\":false}"));
    server.enqueue(error(401, "authentication_error"));

    value(client.probe(KEY));
    ProviderFailure failure = providerFailure(client.probe(KEY), KEY);

    RecordedRequest request = server.takeRequest(1, TimeUnit.SECONDS);
    assertEquals("GET", request.getMethod());
    assertEquals("/v1/models", request.getPath());
    assertEquals(KEY, request.getHeader("x-api-key"));
    assertEquals("2023-06-01", request.getHeader("anthropic-version"));
    assertEquals(Kind.INVALID_KEY, failure.kind());
  }
}
