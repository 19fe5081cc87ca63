package io.periscope.source;

import static io.periscope.source.SearchTesting.failure;
import static io.periscope.source.SearchTesting.results;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.json.Json;
import io.periscope.provider.ProviderFailure;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import okhttp3.OkHttpClient;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

public class TavilySearchTest {
  private static final String KEY = "tvly-key-123";

  private MockWebServer server;
  private TavilySearch tavily;

  @Before
  public void start() throws Exception {
    server = new MockWebServer();
    server.start();
    tavily =
        new TavilySearch(
            server.url("/").toString(),
            new OkHttpClient(),
            Clock.fixed(Instant.parse("2024-06-15T08:00:00Z"), ZoneOffset.UTC));
  }

  @After
  public void stop() throws Exception {
    server.shutdown();
  }

  private static JsonNode body(RecordedRequest request) throws Exception {
    return Json.parse(request.getBody().readByteArray());
  }

  @Test
  public void postsTheQueryWithABearerKeyAndMapsResults() throws Exception {
    server.enqueue(
        new MockResponse()
            .setBody(
                """
                {"query":"q","results":[
                  {"title":"A","url":"https://a.example/1","content":"About A","score":0.9,
                   "published_date":"Fri, 14 Jun 2024 10:00:00 GMT"},
                  {"title":"B","url":"https://b.example/2","content":"About B","score":0.5}
                ]}\
                """));
    List<Item> items = results(tavily.search("open source news", 30, 7, KEY));

    RecordedRequest request = server.takeRequest();
    assertEquals("POST", request.getMethod());
    assertEquals("/search", request.getPath());
    assertEquals("Bearer " + KEY, request.getHeader("Authorization"));
    JsonNode sent = body(request);
    assertEquals("open source news", sent.path("query").asText());
    assertEquals(7, sent.path("max_results").asInt());
    assertEquals("month", sent.path("time_range").asText());

    assertEquals(2, items.size());
    assertEquals("https://a.example/1", items.get(0).identity());
    assertEquals("A", items.get(0).title());
    assertEquals("About A", items.get(0).summary());
    assertEquals(Instant.parse("2024-06-14T10:00:00Z"), items.get(0).published());
    assertEquals("search", items.get(0).sourceType());
  }

  @Test
  public void recencyBecomesATimeRangeOrAStartDate() throws Exception {
    server.enqueue(new MockResponse().setBody("{\"results\":[]}"));
    server.enqueue(new MockResponse().setBody("{\"results\":[]}"));
    server.enqueue(new MockResponse().setBody("{\"results\":[]}"));
    results(tavily.search("q", 1, 5, KEY));
    results(tavily.search("q", 500, 5, KEY));
    results(tavily.search("q", null, 5, KEY));
    assertEquals("day", body(server.takeRequest()).path("time_range").asText());
    JsonNode longRange = body(server.takeRequest());
    assertEquals("2023-02-01", longRange.path("start_date").asText());
    assertFalse(longRange.has("time_range"));
    JsonNode none = body(server.takeRequest());
    assertFalse(none.has("time_range") || none.has("start_date"));
  }

  @Test
  public void classifiesTavilysFailures() throws Exception {
    server.enqueue(
        new MockResponse()
            .setResponseCode(401)
            .setBody("{\"detail\":{\"error\":\"Unauthorized\"}}"));
    server.enqueue(
        new MockResponse()
            .setResponseCode(429)
            .addHeader("Retry-After", "60")
            .setBody("{\"detail\":{\"error\":\"Too many requests\"}}"));
    server.enqueue(
        new MockResponse()
            .setResponseCode(432)
            .setBody(
                "{\"detail\":{\"error\":\"This request exceeds your plan's set usage limit.\"}}"));
    server.enqueue(
        new MockResponse()
            .setResponseCode(400)
            .setBody("{\"detail\":{\"error\":\"Invalid topic\"}}"));
    server.enqueue(new MockResponse().setResponseCode(500));

    assertEquals(
        ProviderFailure.Kind.INVALID_KEY, failure(tavily.search("q", null, 5, KEY)).kind());
    ProviderFailure rate = failure(tavily.search("q", null, 5, KEY));
    assertEquals(ProviderFailure.Kind.RATE_LIMITED, rate.kind());
    assertEquals(Duration.ofSeconds(60), rate.retryAfter());
    assertEquals(
        ProviderFailure.Kind.QUOTA_EXHAUSTED, failure(tavily.search("q", null, 5, KEY)).kind());
    assertEquals(ProviderFailure.Kind.REJECTED, failure(tavily.search("q", null, 5, KEY)).kind());
    assertEquals(ProviderFailure.Kind.TRANSIENT, failure(tavily.search("q", null, 5, KEY)).kind());
  }
}
