package io.periscope.source;

import static io.periscope.source.SearchTesting.failure;
import static io.periscope.source.SearchTesting.results;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import io.periscope.provider.ProviderFailure;
import java.time.Instant;
import java.util.List;
import okhttp3.OkHttpClient;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

public class SearxngSearchTest {
  private static final String RESULTS =
      """
      {"query":"q","results":[
        {"title":"One","url":"https://one.example/","content":"First &amp; \
      best","publishedDate":"2024-06-01T12:00:00"},
        {"title":"Two","url":"https://two.example/","content":"Second","publishedDate":null},
        {"title":"Three","url":"https://three.example/","content":"Third"}
      ]}\
      """;

  private MockWebServer server;
  private SearxngSearch searxng;

  @Before
  public void start() throws Exception {
    server = new MockWebServer();
    server.start();
    searxng = new SearxngSearch(server.url("/searx/").toString(), new OkHttpClient());
  }

  @After
  public void stop() throws Exception {
    server.shutdown();
  }

  @Test
  public void asksForJsonWithATimeRangeAndCutsToTheCount() throws Exception {
    server.enqueue(new MockResponse().setBody(RESULTS));
    List<Item> items = results(searxng.search("pekko release", 7, 2, null));

    RecordedRequest request = server.takeRequest();
    assertEquals("/searx/search", request.getRequestUrl().encodedPath());
    assertEquals("pekko release", request.getRequestUrl().queryParameter("q"));
    assertEquals("json", request.getRequestUrl().queryParameter("format"));
    assertEquals("week", request.getRequestUrl().queryParameter("time_range"));
    assertNull(request.getHeader("Authorization"));

    assertEquals(2, items.size());
    assertEquals("https://one.example/", items.get(0).identity());
    assertEquals("First & best", items.get(0).summary());
    assertEquals(Instant.parse("2024-06-01T12:00:00Z"), items.get(0).published());
    assertNull(items.get(1).published());
  }

  @Test
  public void aGivenKeyTravelsAsABearerAndRecencyPastAYearIsDropped() throws Exception {
    server.enqueue(new MockResponse().setBody(RESULTS));
    results(searxng.search("q", 800, 10, "proxy-token"));
    RecordedRequest request = server.takeRequest();
    assertEquals("Bearer proxy-token", request.getHeader("Authorization"));
    assertNull(request.getRequestUrl().queryParameter("time_range"));
  }

  @Test
  public void classifiesFailures() throws Exception {
    server.enqueue(new MockResponse().setResponseCode(429));
    server.enqueue(new MockResponse().setResponseCode(403));
    server.enqueue(new MockResponse().setResponseCode(503));
    server.enqueue(new MockResponse().setBody("<html>not json</html>"));
    assertEquals(
        ProviderFailure.Kind.RATE_LIMITED, failure(searxng.search("q", null, 5, null)).kind());
    assertEquals(
        ProviderFailure.Kind.INVALID_KEY, failure(searxng.search("q", null, 5, null)).kind());
    assertEquals(
        ProviderFailure.Kind.TRANSIENT, failure(searxng.search("q", null, 5, null)).kind());
    assertEquals(
        ProviderFailure.Kind.TRANSIENT, failure(searxng.search("q", null, 5, null)).kind());
  }
}
