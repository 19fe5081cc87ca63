package io.periscope.http;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.periscope.testing.InProcessService;
import io.periscope.testing.TestJournals;
import java.net.http.HttpResponse;
import java.util.Map;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.Test;

/**
 * Model and search keys travel in headers that an HTTP client forwards across a redirect when they
 * are not {@code Authorization} (Anthropic's {@code x-api-key}, Brave's {@code
 * X-Subscription-Token}): a provider, or whoever answers for it, that redirects a key probe must
 * not get the key sent to the redirect's target.
 */
public class ProviderRedirectsTest {
  @Test
  public void keyProbesFollowNoRedirectSoTheKeyStaysWithTheProvider() throws Exception {
    try (MockWebServer provider = new MockWebServer();
        MockWebServer elsewhere = new MockWebServer()) {
      elsewhere.start();
      provider.start();
      String target = elsewhere.url("/stolen").toString();
      for (int i = 0; i < 2; i++) {
        provider.enqueue(new MockResponse().setResponseCode(307).setHeader("Location", target));
      }
      try (InProcessService service =
          new InProcessService(
              ConfigFactory.parseMap(
                      Map.of(
                          "periscope.model.provider",
                          "anthropic",
                          "periscope.model.base-url",
                          provider.url("/").toString(),
                          "periscope.search.provider",
                          "brave",
                          "periscope.search.base-url",
                          provider.url("/").toString()))
                  .withFallback(TestJournals.h2()))) {
        String root = service.signedIn("root", "admin");
        for (String pool : new String[] {"model", "search"}) {
          HttpResponse<String> r =
              service.call(
                  "POST", "/admin/keys/" + pool, root, "{\"key\": \"secret-" + pool + "-key-1\"}");
          assertNotEquals(r.body(), 201, r.statusCode());
          assertTrue(r.body(), r.statusCode() >= 400 && r.statusCode() < 600);
        }
      }
      RecordedRequest modelProbe = provider.takeRequest();
      assertEquals("secret-model-key-1", modelProbe.getHeader("x-api-key"));
      RecordedRequest searchProbe = provider.takeRequest();
      assertEquals("secret-search-key-1", searchProbe.getHeader("X-Subscription-Token"));
      assertEquals("the redirect's target never hears of the keys", 0, elsewhere.getRequestCount());
    }
  }
}
