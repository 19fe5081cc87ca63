package io.periscope.web;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.periscope.testing.InProcessService;
import io.periscope.testing.TestJournals;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Which requests the web client answers and which it leaves to the interface, without a browser
 * (WebClientIT walks the client itself).
 */
public class WebRoutesTest {
  static final Map<String, String> BROWSER = Map.of("Accept", "text/html,*/*;q=0.8");
  static InProcessService service;

  @BeforeClass
  public static void start() throws Exception {
    service = new InProcessService(TestJournals.h2());
  }

  @AfterClass
  public static void stop() throws Exception {
    service.close();
  }

  static HttpResponse<String> get(String path, Map<String, String> headers) throws Exception {
    return service.send("GET", path, null, null, headers);
  }

  @Test
  public void theRootAndBrowserNavigationsGetTheClient() throws Exception {
    for (var request :
        Map.of("/", Map.<String, String>of(), "/watch/x/edit", BROWSER, "/sign-in", BROWSER)
            .entrySet()) {
      HttpResponse<String> r = get(request.getKey(), request.getValue());
      assertEquals(request.getKey(), 200, r.statusCode());
      assertTrue(r.body().contains("<script type=\"importmap\">"));
      assertEquals("no-cache", r.headers().firstValue("Cache-Control").orElseThrow());
      String csp = r.headers().firstValue("Content-Security-Policy").orElseThrow();
      assertTrue(csp, csp.contains("'sha256-" + WebAssets.importMapHash(r.body()) + "'"));
    }
  }

  @Test
  public void interfacePathsAndApiClientsKeepTheirJsonAnswers() throws Exception {
    for (String path :
        new String[] {"/watches", "/watches/x", "/admin", "/devices/x", "/auth/nope"}) {
      HttpResponse<String> r = get(path, BROWSER);
      assertTrue(path + " " + r.statusCode(), r.statusCode() == 401 || r.statusCode() == 404);
      assertTrue(
          path,
          r.headers().firstValue("Content-Type").orElseThrow().startsWith("application/json"));
    }
    assertEquals(401, get("/no-such-route", Map.of()).statusCode());
    assertEquals(401, get("/no-such-route", Map.of("Accept", "application/json")).statusCode());
    assertEquals(200, get("/health", BROWSER).statusCode());
    // the interface is not negotiated: an Accept it cannot meet still gets its JSON, not a 406
    HttpResponse<String> htmlOnly = get("/health", Map.of("Accept", "text/html"));
    assertEquals(200, htmlOnly.statusCode());
    assertEquals("application/json", htmlOnly.headers().firstValue("Content-Type").orElseThrow());
    assertEquals(401, service.send("POST", "/sign-in", null, null, BROWSER).statusCode());
  }

  @Test
  public void assetsAreImmutableUnderTheirHashAndGoneUnderAnother() throws Exception {
    Matcher app =
        Pattern.compile("/assets/([0-9a-f]{16})/app\\.js").matcher(get("/", Map.of()).body());
    assertTrue(app.find());
    HttpResponse<String> asset = get(app.group(), Map.of());
    assertEquals(200, asset.statusCode());
    assertEquals(
        "public, max-age=31536000, immutable",
        asset.headers().firstValue("Cache-Control").orElseThrow());
    assertTrue(asset.headers().firstValue("Content-Type").orElseThrow().contains("javascript"));
    assertEquals(200, get("/assets/" + app.group(1) + "/vendor/preact.js", Map.of()).statusCode());
    assertEquals(404, get("/assets/" + app.group(1) + "/nope.js", Map.of()).statusCode());
    assertEquals(404, get("/assets/0123456789abcdef/app.js", Map.of()).statusCode());

    HttpResponse<String> worker = get("/service-worker.js", Map.of());
    assertEquals(200, worker.statusCode());
    assertEquals("no-cache", worker.headers().firstValue("Cache-Control").orElseThrow());
  }
}
