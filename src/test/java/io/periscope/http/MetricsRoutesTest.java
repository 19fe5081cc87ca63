package io.periscope.http;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.periscope.testing.CapturedLogs;
import io.periscope.testing.InProcessService;
import io.periscope.testing.Scrapes;
import io.periscope.testing.TestJournals;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/** GET /metrics on the API port of a single node: METRICS_ENABLED, METRICS_TOKEN and the labels. */
public class MetricsRoutesTest {
  static final String TOKEN = "a-metrics-scrape-token";
  static InProcessService service;
  static String alice;

  @BeforeClass
  public static void start() throws Exception {
    service =
        new InProcessService(
            ConfigFactory.parseMap(
                    Map.of("periscope.metrics.enabled", true, "periscope.metrics.token", TOKEN))
                .withFallback(TestJournals.h2()));
    alice = service.signedIn("alice", "user");
  }

  @AfterClass
  public static void stop() throws Exception {
    service.close();
  }

  static String scrape() throws Exception {
    HttpResponse<String> r =
        service.send("GET", "/metrics", null, null, Map.of("Authorization", "Bearer " + TOKEN));
    assertEquals(r.body(), 200, r.statusCode());
    assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"));
    return r.body();
  }

  static double count(String scrape, String route, String status) {
    return Scrapes.value(
        scrape,
        "http_server_requests_seconds_count",
        "method=\"GET\",route=\"" + route + "\",status=\"" + status + "\"");
  }

  @Test
  public void requestsAreCountedByRouteTemplateNeverByPath() throws Exception {
    double before = count(scrape(), "/watches/{id}", "404");
    for (String id : new String[] {"secret-watch-1", "secret-watch-2", "secret-watch-3"}) {
      assertEquals(404, service.call("GET", "/watches/" + id, alice, null).statusCode());
    }
    service.call("GET", "/no/such/" + "secret-path", alice, null);
    String after = scrape();
    assertEquals(before + 3, count(after, "/watches/{id}", "404"), 0);
    assertTrue(after, after.contains("route=\"unmatched\""));
    assertFalse("no id or path is a label", after.contains("secret-"));
    assertTrue("JVM and process metrics", after.contains("jvm_memory_used_bytes"));
    assertTrue(after.contains("process_uptime_seconds"));
    assertTrue("latency histograms", after.contains("http_server_requests_seconds_bucket"));
    assertTrue(
        "the embedded journal's writes (alice's sign-in wrote events)",
        Scrapes.value(after, "periscope_journal_write_seconds_count", "result=\"ok\"") > 0);
  }

  @Test
  public void theAccessLogCarriesRouteTemplatesNeverAddressesOrIds() throws Exception {
    try (CapturedLogs logs = new CapturedLogs()) {
      service.call("DELETE", "/channels/email-addresses/someone.private@example.org", alice, null);
      service.call("GET", "/watches/secret-watch-9", alice, null);
      List<String> requests =
          logs.lines().stream().filter(l -> l.contains("event=request")).toList();
      assertTrue(
          requests.toString(),
          requests.stream()
              .anyMatch(l -> l.contains("route=/channels/email-addresses/{address} status=404")));
      assertTrue(
          requests.toString(),
          requests.stream().anyMatch(l -> l.contains("route=/watches/{id} status=404")));
      logs.assertNoneContains("someone.private", "secret-watch-9");
    }
  }

  @Test
  public void aScrapeWithoutTheTokenIs401() throws Exception {
    assertEquals(401, service.send("GET", "/metrics", null, null, Map.of()).statusCode());
    assertEquals(
        401,
        service
            .send("GET", "/metrics", null, null, Map.of("Authorization", "Bearer not-it"))
            .statusCode());
    assertEquals(
        "a user's token is not the metrics token",
        401,
        service
            .send("GET", "/metrics", null, null, Map.of("Authorization", "Bearer " + alice))
            .statusCode());
  }

  @Test
  public void openMetricsWhenAsked() throws Exception {
    HttpResponse<String> r =
        service.send(
            "GET",
            "/metrics",
            null,
            null,
            Map.of(
                "Authorization",
                "Bearer " + TOKEN,
                "Accept",
                "application/openmetrics-text; version=1.0.0"));
    assertEquals(200, r.statusCode());
    assertTrue(
        r.headers().firstValue("Content-Type").orElse(""),
        r.headers()
            .firstValue("Content-Type")
            .orElse("")
            .startsWith("application/openmetrics-text"));
    assertTrue(r.body().trim().endsWith("# EOF"));
  }

  @Test
  public void withoutMetricsEnabledThereIsNoRoute() throws Exception {
    try (InProcessService plain = new InProcessService(TestJournals.h2())) {
      assertEquals(
          "an unknown path, behind the token like every other",
          401,
          plain.send("GET", "/metrics", null, null, Map.of()).statusCode());
      assertEquals(
          404, plain.call("GET", "/metrics", plain.signedIn("bob", "user"), null).statusCode());
    }
  }
}
