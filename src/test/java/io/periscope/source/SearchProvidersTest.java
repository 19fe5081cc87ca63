package io.periscope.source;

import static io.periscope.source.SearchTesting.results;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import okhttp3.OkHttpClient;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import org.junit.Test;

public class SearchProvidersTest {
  private final OkHttpClient client = new OkHttpClient();

  @Test
  public void buildsEachProviderByName() {
    assertTrue(SearchProviders.create("brave", null, client) instanceof BraveSearch);
    assertTrue(SearchProviders.create("Tavily", "", client) instanceof TavilySearch);
    assertTrue(
        SearchProviders.create("searxng", "http://searx.internal:8080", client)
            instanceof SearxngSearch);
  }

  @Test
  public void refusesUnknownProvidersAndSearxngWithoutABaseUrl() {
    assertThrows(
        IllegalArgumentException.class, () -> SearchProviders.create("bing", null, client));
    assertThrows(
        IllegalArgumentException.class, () -> SearchProviders.create("searxng", " ", client));
    assertThrows(
        IllegalArgumentException.class, () -> SearchProviders.create("brave", "not a url", client));
  }

  @Test
  public void aConfiguredBaseUrlIsWhereTheProviderIsAsked() throws Exception {
    try (MockWebServer server = new MockWebServer()) {
      server.enqueue(new MockResponse().setBody("{\"results\":[]}"));
      SearchProvider tavily = SearchProviders.create("tavily", server.url("/").toString(), client);
      results(tavily.search("q", null, 3, "k"));
      assertEquals("/search", server.takeRequest().getPath());
    }
  }
}
