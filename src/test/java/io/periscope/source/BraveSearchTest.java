package io.periscope.source;

import static io.periscope.source.SearchTesting.failure;
import static io.periscope.source.SearchTesting.results;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import io.periscope.provider.ProviderFailure;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import okhttp3.OkHttpClient;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import okhttp3.mockwebserver.SocketPolicy;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

public class BraveSearchTest {
  private static final String KEY = "brave-key-123";
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2024-06-15T08:00:00Z"), ZoneOffset.UTC);

  private MockWebServer server;
  private BraveSearch brave;

  @Before
  public void start() throws Exception {
    server = new MockWebServer();
    server.start();
    OkHttpClient client = new OkHttpClient.Builder().readTimeout(Duration.ofSeconds(1)).build();
    brave = new BraveSearch(server.url("/").toString(), client, CLOCK);
  }

  @After
  public void stop() throws Exception {
    server.shutdown();
  }

  @Test
  public void sendsTheDocumentedRequestAndMapsWebResults() throws Exception {
    server.enqueue(
        new MockResponse()
            .setBody(
                """
                {"type":"search","web":{"results":[
                  {"title":"Rust <strong>1.80</strong> released","url":"https://blog.example/rust",
                   "description":"The <strong>Rust</strong> team&#x27;s \
                release","page_age":"2024-06-14T09:30:00"},
                  {"title":"No date","url":"https://other.example/x","description":"plain"},
                  {"title":"No url"}
                ]}}\
                """));
    List<Item> items = results(brave.search("rust release", 3, 5, KEY));

    RecordedRequest request = server.takeRequest();
    assertEquals("GET", request.getMethod());
    assertEquals("/res/v1/web/search", request.getRequestUrl().encodedPath());
    assertEquals("rust release", request.getRequestUrl().queryParameter("q"));
    assertEquals("5", request.getRequestUrl().queryParameter("count"));
    assertEquals("pw", request.getRequestUrl().queryParameter("freshness"));
    assertEquals(KEY, request.getHeader("X-Subscription-Token"));

    assertEquals(2, items.size());
    Item first = items.get(0);
    assertEquals("https://blog.example/rust", first.identity());
    assertEquals("https://blog.example/rust", first.url());
    assertEquals("Rust 1.80 released", first.title());
    assertEquals("The Rust team's release", first.summary());
    assertEquals(Instant.parse("2024-06-14T09:30:00Z"), first.published());
    assertEquals("search", first.sourceType());
    assertEquals("rust release", first.sourceValue());
    assertNull(items.get(1).published());
  }

  @Test
  public void withoutRecencyThereIsNoFreshnessAndCountIsCappedAtBravesMaximum() throws Exception {
    server.enqueue(new MockResponse().setBody("{\"type\":\"search\"}"));
    assertTrue(results(brave.search("q", null, 100, KEY)).isEmpty());
    RecordedRequest request = server.takeRequest();
    assertNull(request.getRequestUrl().queryParameter("freshness"));
    assertEquals("20", request.getRequestUrl().queryParameter("count"));
  }

  @Test
  public void recencyBecomesBravesFreshness() {
    LocalDate today = LocalDate.of(2024, 6, 15);
    assertEquals("pd", BraveSearch.freshness(1, today));
    assertEquals("pw", BraveSearch.freshness(7, today));
    assertEquals("pm", BraveSearch.freshness(8, today));
    assertEquals("pm", BraveSearch.freshness(31, today));
    assertEquals("py", BraveSearch.freshness(365, today));
    assertEquals("2022-06-16to2024-06-15", BraveSearch.freshness(730, today));
  }

  @Test
  public void aLongRecencyIsSentAsADateRange() throws Exception {
    server.enqueue(new MockResponse().setBody("{}"));
    results(brave.search("q", 400, 10, KEY));
    assertEquals(
        "2023-05-12to2024-06-15", server.takeRequest().getRequestUrl().queryParameter("freshness"));
  }

  @Test
  public void aRateLimitCarriesItsRetryAfter() throws Exception {
    server.enqueue(
        new MockResponse()
            .setResponseCode(429)
            .addHeader("Retry-After", "2")
            .setBody(
                "{\"type\":\"ErrorResponse\",\"error\":{\"code\":\"RATE_LIMITED\",\"detail\":\"Re"
                    + "quest"
                    + " rate limit exceeded for plan.\"}}"));
    ProviderFailure failure = failure(brave.search("q", null, 5, KEY));
    assertEquals(ProviderFailure.Kind.RATE_LIMITED, failure.kind());
    assertEquals(Duration.ofSeconds(2), failure.retryAfter());
  }

  @Test
  public void aSpentQuotaWaitsForBravesMonthlyReset() throws Exception {
    server.enqueue(
        new MockResponse()
            .setResponseCode(429)
            .addHeader("X-RateLimit-Reset", "1, 1419704")
            .setBody(
                "{\"type\":\"ErrorResponse\",\"error\":{\"code\":\"QUOTA_LIMITED\",\"detail\":\"R"
                    + "equest"
                    + " quota limit exceeded for plan.\"}}"));
    ProviderFailure failure = failure(brave.search("q", null, 5, KEY));
    assertEquals(ProviderFailure.Kind.QUOTA_EXHAUSTED, failure.kind());
    assertEquals(Duration.ofSeconds(1419704), failure.retryAfter());
  }

  @Test
  public void aBadKeyIsInvalidAndItsMessageDoesNotNameTheKey() throws Exception {
    server.enqueue(
        new MockResponse()
            .setResponseCode(422)
            .setBody(
                "{\"type\":\"ErrorResponse\",\"error\":{\"code\":\"SUBSCRIPTION_TOKEN_INVALID\","
                    + "\"detail\":\"token"
                    + " "
                    + KEY
                    + "\"}}"));
    ProviderFailure failure = failure(brave.search("q", null, 5, KEY));
    assertEquals(ProviderFailure.Kind.INVALID_KEY, failure.kind());
    assertFalse(failure.getMessage().contains(KEY));
  }

  @Test
  public void serverErrorsTimeoutsAndRefusedConnectionsAreTransient() throws Exception {
    server.enqueue(new MockResponse().setResponseCode(502));
    assertEquals(ProviderFailure.Kind.TRANSIENT, failure(brave.search("q", null, 5, KEY)).kind());
    server.enqueue(new MockResponse().setSocketPolicy(SocketPolicy.NO_RESPONSE));
    ProviderFailure timeout = failure(brave.search("q", null, 5, KEY));
    assertEquals(ProviderFailure.Kind.TRANSIENT, timeout.kind());
    assertEquals("provider timed out", timeout.getMessage());
    server.shutdown();
    ProviderFailure refused = failure(brave.search("q", null, 5, KEY));
    assertEquals(ProviderFailure.Kind.TRANSIENT, refused.kind());
    assertNull(refused.httpStatus());
  }

  @Test
  public void otherClientErrorsAreRejected() throws Exception {
    server.enqueue(
        new MockResponse().setResponseCode(400).setBody("{\"error\":{\"code\":\"VALIDATION\"}}"));
    assertEquals(ProviderFailure.Kind.REJECTED, failure(brave.search("q", null, 5, KEY)).kind());
  }

  @Test
  public void aKeyThatCannotBeAHeaderFailsWithoutARequestOrAnEcho() throws Exception {
    ProviderFailure failure = failure(brave.search("q", null, 5, "bad\nkey-secret"));
    assertEquals(ProviderFailure.Kind.INVALID_KEY, failure.kind());
    assertFalse(failure.getMessage().contains("secret"));
    assertEquals(0, server.getRequestCount());
  }
}
