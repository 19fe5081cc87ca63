package io.periscope.assist;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.periscope.net.SafeHttp;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import okhttp3.mockwebserver.SocketPolicy;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

/**
 * Liveness against a real server on loopback. The production check asks https://host/; here each
 * host name is asked over plain HTTP on the test server's port (the name travels in the path), so
 * every answer can be scripted.
 */
public class DomainLivenessTest {
  private MockWebServer server;
  private DomainLiveness liveness;

  @Before
  public void start() throws Exception {
    server = new MockWebServer();
    server.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) {
            String host = request.getPath().substring(1);
            if (host.startsWith("silent"))
              return new MockResponse().setSocketPolicy(SocketPolicy.NO_RESPONSE);
            if (host.startsWith("broken")) return new MockResponse().setResponseCode(500);
            if (host.startsWith("moved"))
              return new MockResponse()
                  .setResponseCode(301)
                  .addHeader("Location", "http://10.0.0.1/");
            return new MockResponse().setResponseCode(host.startsWith("missing") ? 404 : 200);
          }
        });
    server.start(java.net.InetAddress.getLoopbackAddress(), 0);
    // Loopback allowed: this test's server is there; the guard itself is proven below with the
    // production client.
    liveness =
        new DomainLiveness(
            new SafeHttp(
                true,
                DomainLiveness.PER_DOMAIN,
                DomainLiveness.PER_DOMAIN,
                DomainLiveness.PER_DOMAIN),
            host -> "http://127.0.0.1:" + server.getPort() + "/" + host);
  }

  @After
  public void stop() throws Exception {
    server.shutdown();
  }

  private static Map<String, Boolean> await(DomainLiveness liveness, List<String> domains)
      throws Exception {
    return liveness.check(domains).toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  public void anyHttpAnswerIsLiveAndMalformedNamesAreNotAsked() throws Exception {
    Map<String, Boolean> live =
        await(
            liveness,
            List.of(
                "example.org",
                "missing.example",
                "broken.example",
                "moved.example",
                "not a domain",
                "https://example.org/path",
                "example.org"));

    Map<String, Boolean> expected = new LinkedHashMap<>();
    expected.put("example.org", true);
    expected.put("missing.example", true);
    expected.put("broken.example", true);
    expected.put("moved.example", true);
    expected.put("not a domain", false);
    expected.put("https://example.org/path", false);
    assertEquals(expected, live);
    assertEquals(
        "each distinct well-formed name is asked once, with HEAD", 4, server.getRequestCount());
    assertEquals("HEAD", server.takeRequest().getMethod());
  }

  @Test
  public void fiftySilentDomainsAreAnsweredNotLiveWithinTheBound() throws Exception {
    List<String> domains =
        IntStream.range(0, 50).mapToObj(i -> "silent-" + i + ".example").toList();

    long start = System.nanoTime();
    Map<String, Boolean> live = await(liveness, domains);
    Duration took = Duration.ofNanos(System.nanoTime() - start);

    assertEquals(50, live.size());
    assertTrue(live.toString(), live.values().stream().noneMatch(v -> v));
    assertTrue("50 domains within 5 s, took " + took, took.compareTo(Duration.ofSeconds(5)) < 0);
  }

  @Test
  public void unresolvableAndLoopbackNamesAreNotLiveByDefault() throws Exception {
    DomainLiveness guarded = new DomainLiveness(false);

    Map<String, Boolean> live =
        await(guarded, List.of("no-such-host.invalid", "localhost", "127.0.0.1"));

    assertEquals(
        Map.of("no-such-host.invalid", false, "localhost", false, "127.0.0.1", false), live);
  }

  @Test
  public void hostNamesAreCheckedAndWrittenInTheirAsciiForm() {
    assertEquals(Optional.of("example.org"), DomainLiveness.hostName(" Example.ORG. "));
    assertEquals(Optional.of("xn--bcher-kva.example"), DomainLiveness.hostName("bücher.example"));
    assertEquals(Optional.of("localhost"), DomainLiveness.hostName("localhost"));
    assertEquals(Optional.empty(), DomainLiveness.hostName(""));
    assertEquals(Optional.empty(), DomainLiveness.hostName("under_score.example"));
    assertEquals(Optional.empty(), DomainLiveness.hostName("-leading.example"));
    assertEquals(Optional.empty(), DomainLiveness.hostName("a".repeat(64) + ".example"));
    assertEquals(Optional.empty(), DomainLiveness.hostName("example.org:8443"));
    assertEquals(Optional.empty(), DomainLiveness.hostName("two..dots.example"));
  }
}
