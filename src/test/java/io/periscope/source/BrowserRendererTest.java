package io.periscope.source;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.periscope.net.SafeHttp;
import io.periscope.testing.NeedsBrowser;
import io.periscope.testing.NoServices;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * A page only JavaScript fills, rendered by the distribution's Chromium started with {@code
 * --remote-debugging-port}, as an operator starts it for {@code BROWSER_URL}.
 */
@Category(NeedsBrowser.class)
public class BrowserRendererTest {
  private static final String APP =
      "<!doctype html><html><head><title>Stock</title></head><body><div id='root'></div>"
          + "<script>document.getElementById('root').innerHTML ="
          + " '<p class=\"stock\">' + ['In', 'stock:', '3', 'left'].join(' ') + '</p>';"
          + "</script></body></html>";

  private static Process chromium;
  private static Path profile;
  private static String endpoint;
  private static MockWebServer server;

  @BeforeClass
  public static void start() throws Exception {
    if (Boolean.getBoolean(NoServices.PROPERTY))
      throw new AssertionError(NoServices.refusal("Chromium", NeedsBrowser.class));
    String named = System.getenv("CHROME_BIN");
    Path binary = Path.of(named == null || named.isBlank() ? "/usr/bin/chromium" : named);
    assertTrue("this test needs Chromium at " + binary, Files.isExecutable(binary));
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    profile = Files.createTempDirectory("periscope-chromium");
    chromium =
        new ProcessBuilder(
                binary.toString(),
                "--headless=new",
                "--no-sandbox",
                "--disable-dev-shm-usage",
                "--disable-gpu",
                "--remote-debugging-address=127.0.0.1",
                "--remote-debugging-port=" + port,
                "--user-data-dir=" + profile,
                "about:blank")
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    endpoint = "http://127.0.0.1:" + port;
    awaitDevTools();
    server = new MockWebServer();
    server.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) {
            return new MockResponse().setHeader("Content-Type", "text/html").setBody(APP);
          }
        });
    server.start();
  }

  private static void awaitDevTools() throws Exception {
    HttpClient client = HttpClient.newHttpClient();
    for (int i = 0; i < 100; i++) {
      try {
        HttpResponse<String> r =
            client.send(
                HttpRequest.newBuilder(URI.create(endpoint + "/json/version")).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200) return;
      } catch (IOException notYet) {
        // Chromium is still starting
      }
      Thread.sleep(100);
    }
    throw new AssertionError("Chromium's DevTools endpoint did not answer at " + endpoint);
  }

  @AfterClass
  public static void stop() throws Exception {
    if (server != null) server.shutdown();
    if (chromium != null) {
      chromium.destroy();
      chromium.waitFor();
    }
    if (profile != null)
      try (var files = Files.walk(profile)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
  }

  private static PageCollector collector(boolean allowPrivate) {
    return new PageCollector(
        new SafeHttp(true),
        new CollectionBudget(CollectionLimits.DEFAULTS),
        BrowserRenderer.of(endpoint, allowPrivate));
  }

  @Test
  public void aPageOnlyJavaScriptFillsIsReadAsRendered() {
    String url = server.url("/app").toString();
    PageCollector.Reading reading =
        collector(true).read(url, ".stock", List.of()).toCompletableFuture().join();
    assertTrue(reading.rendered());
    assertEquals("Stock", reading.title());
    assertEquals("In stock: 3 left\n", PageText.asText(reading.blocks()));
    PageCollector.Collected baseline =
        collector(true).collect(url, ".stock", List.of(), null, null).toCompletableFuture().join();
    assertTrue(baseline.result().succeeded());
    assertEquals(
        List.of(new PageSnapshot.Block("In stock: 3 left", "root")), baseline.snapshot().blocks());
  }

  @Test
  public void theBrowsersRequestsPassTheGuard() {
    // the service may fetch loopback here, but the browser's requests are checked on their own
    String url = server.url("/app").toString();
    PageCollector.Collected refused =
        collector(false).collect(url, ".stock", List.of(), null, null).toCompletableFuture().join();
    assertFalse(refused.result().succeeded());
    assertTrue(
        refused.result().error().message(),
        refused.result().error().message().contains("not allowed"));
  }

  @Test
  public void withoutABrowserThePageIsANoContentError() {
    PageCollector plain =
        new PageCollector(
            new SafeHttp(true), new CollectionBudget(CollectionLimits.DEFAULTS), Optional.empty());
    PageCollector.Collected failed =
        plain
            .collect(server.url("/app").toString(), ".stock", List.of(), null, null)
            .toCompletableFuture()
            .join();
    assertEquals("no-content", failed.result().error().kind());
  }
}
