package io.periscope.http;

import static io.periscope.testing.ApiClient.error;
import static io.periscope.testing.InProcessService.json;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.json.Json;
import io.periscope.testing.InProcessService;
import io.periscope.testing.OpmlFiles;
import io.periscope.testing.TestJournals;
import io.periscope.testing.TestWatches;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * /sources over real HTTP against a loopback site: what a URL is, the warnings of a saved watch
 * whose rss source is a site's address, the guard and the rate limit.
 */
public class SourceRoutesTest {
  private static final String RSS =
      "<rss version=\"2.0\"><channel><title>t</title><item><title>a</title>"
          + "<link>https://e.example/1</link></item></channel></rss>";

  private static MockWebServer site;
  private static InProcessService service;

  @BeforeClass
  public static void start() throws Exception {
    site = new MockWebServer();
    site.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) {
            return switch (request.getPath()) {
              case "/blog/" ->
                  html(
                      "<link rel=alternate type=application/rss+xml title=Posts href=/feed.xml>"
                          + "<link rel=alternate type=application/atom+xml href=/atom.xml>");
              case "/pricing" -> html("<title>Pricing</title>");
              case "/shop" ->
                  new MockResponse()
                      .setHeader("Content-Type", "text/html")
                      .setBody(
                          "<html><head><title>Shop</title></head><body><main"
                              + " id='m'><h1>Widget</h1><p class='price'>€ 19.99</p><p>Seen <span"
                              + " class='stamp'>10:01</span></p></main></body></html>");
              case "/feed.xml" ->
                  new MockResponse().setBody(RSS).setHeader("Content-Type", "application/rss+xml");
              default -> new MockResponse().setResponseCode(404);
            };
          }
        });
    site.start();
    service =
        new InProcessService(
            TestJournals.h2(
                Map.of(
                    "periscope.fetch.allow-private-networks",
                    true,
                    "periscope.rate-limits.sources-per-owner-per-minute",
                    6)),
            // held still: a rate-limit window does not end mid-test
            Clock.fixed(Instant.parse("2026-01-05T10:00:30Z"), ZoneOffset.UTC));
  }

  @AfterClass
  public static void stop() throws Exception {
    service.close();
    site.shutdown();
  }

  private static MockResponse html(String head) {
    return new MockResponse()
        .setBody("<!doctype html><html><head>" + head + "</head><body>x</body></html>")
        .setHeader("Content-Type", "text/html; charset=utf-8");
  }

  private static String url(String path) {
    return site.url(path).toString();
  }

  private static String discover(String url) {
    return Json.text(Map.of("url", url));
  }

  @Test
  public void discoveryAnswersTheFeedsAPageNamesOrTheFeedItself() throws Exception {
    String bob = service.signedIn("bob", "user");
    JsonNode page =
        json(service.call("POST", "/sources/discover", bob, discover(url("/blog/"))), 200);
    assertTrue(page.get("page").asBoolean());
    assertEquals(
        List.of(url("/feed.xml"), url("/atom.xml")), page.get("feeds").findValuesAsText("url"));
    assertEquals("Posts", page.get("feeds").get(0).get("title").asText());
    assertEquals(List.of("rss", "atom"), page.get("feeds").findValuesAsText("format"));

    JsonNode feed =
        json(service.call("POST", "/sources/discover", bob, discover(url("/feed.xml"))), 200);
    assertFalse(feed.get("page").asBoolean());
    assertEquals(List.of(url("/feed.xml")), feed.get("feeds").findValuesAsText("url"));

    JsonNode none =
        json(service.call("POST", "/sources/discover", bob, discover(url("/pricing"))), 200);
    assertEquals(0, none.get("feeds").size());

    error(service.call("POST", "/sources/discover", bob, discover(url("/missing"))), 502);
    JsonNode invalid =
        error(service.call("POST", "/sources/discover", bob, discover("file:///etc/passwd")), 400);
    assertEquals("url", invalid.get("issues").get(0).get("path").get(0).asText());
    error(service.call("POST", "/sources/discover", bob, "[]"), 400);
    error(service.call("POST", "/sources/discover", null, discover(url("/blog/"))), 401);
  }

  @Test
  public void aPageCheckAnswersTheTextAtTheSelectorBeforeAnythingIsSaved() throws Exception {
    String paula = service.signedIn("paula", "user");
    JsonNode all =
        json(
            service.call(
                "POST",
                "/sources/page/check",
                paula,
                Json.text(Map.of("url", url("/shop"), "ignore", List.of(".stamp")))),
            200);
    assertEquals("Shop", all.get("title").asText());
    assertEquals("Widget\n€ 19.99\nSeen\n", all.get("text").asText());
    assertEquals("m", all.get("blocks").get(0).get("anchor").asText());
    assertFalse(all.get("rendered").asBoolean());
    JsonNode price =
        json(
            service.call(
                "POST",
                "/sources/page/check",
                paula,
                Json.text(Map.of("url", url("/shop"), "selector", ".price"))),
            200);
    assertEquals("€ 19.99\n", price.get("text").asText());
    JsonNode none =
        error(
            service.call(
                "POST",
                "/sources/page/check",
                paula,
                Json.text(Map.of("url", url("/shop"), "selector", "#stock"))),
            422);
    assertTrue(none.toString(), none.get("error").asText().contains("no content at the selector"));
    JsonNode bad =
        error(
            service.call(
                "POST",
                "/sources/page/check",
                paula,
                Json.text(Map.of("url", "ftp://x", "selector", "p >> ["))),
            400);
    assertEquals(2, bad.get("issues").size());
    error(
        service.call(
            "POST", "/sources/page/check", paula, Json.text(Map.of("url", url("/missing")))),
        502);
    error(
        service.call("POST", "/sources/page/check", null, Json.text(Map.of("url", url("/shop")))),
        401);
  }

  @Test
  public void theLimitIsPerOwnerAndShared() throws Exception {
    String carol = service.signedIn("carol", "user");
    for (int i = 0; i < 6; i++)
      json(service.call("POST", "/sources/discover", carol, discover(url("/feed.xml"))), 200);
    var limited = service.call("POST", "/sources/discover", carol, discover(url("/feed.xml")));
    error(limited, 429);
    assertTrue(limited.headers().firstValue("Retry-After").isPresent());
  }

  @Test
  public void aSavedWatchWarnsOfASitesAddressAndNotOfAFeedsOrAnUnfetchableOne() throws Exception {
    String alice = service.signedIn("alice", "user");
    String watch =
        TestWatches.body("blog")
            .name("Blog")
            .condition("a launch")
            .feed(url("/feed.xml"))
            .feed(url("/blog/"))
            .feed(url("/pricing"))
            .feed(url("/missing"))
            .schedule("0 9 * * *")
            // a channel this instance serves: the warnings are the rss sources' alone
            .channel("push")
            .enabled(false)
            .json();
    JsonNode created = json(service.call("POST", "/watches", alice, watch), 201);
    JsonNode warnings = created.get("warnings");
    assertEquals(2, warnings.size());
    assertEquals(1, warnings.get(0).get("source").asInt());
    assertEquals("feed-found", warnings.get(0).get("kind").asText());
    assertEquals(url("/feed.xml"), warnings.get(0).get("feed").asText());
    assertEquals(2, warnings.get(1).get("source").asInt());
    assertEquals("no-feed", warnings.get(1).get("kind").asText());
    assertEquals(
        "the stored source is the address given",
        url("/blog/"),
        created.get("sources").get(1).get("value").asText());

    // saved again unchanged: its sources are known, nothing is looked at or warned of
    int before = site.getRequestCount();
    JsonNode replaced = json(service.call("PUT", "/watches/blog", alice, watch), 200);
    assertFalse(replaced.has("warnings"));
    assertEquals(before, site.getRequestCount());
    assertFalse(json(service.call("GET", "/watches/blog", alice, null), 200).has("warnings"));
  }

  private static java.net.http.HttpResponse<String> opml(String token, byte[] body, String type)
      throws Exception {
    return service.send(
        "POST",
        "/sources/opml",
        token,
        new String(body, java.nio.charset.StandardCharsets.UTF_8),
        Map.of("Content-Type", type));
  }

  @Test
  public void anOpmlFileIsListedValidatedAndNothingIsCreated() throws Exception {
    String dora = service.signedIn("dora", "user");
    JsonNode listed = json(opml(dora, OpmlFiles.file("reader-export.opml"), "text/x-opml"), 200);
    assertEquals("Miniflux", listed.get("title").asText());
    assertEquals(4, listed.get("feeds").size());
    assertEquals("Space / Agencies", listed.get("feeds").get(2).get("folder").asText());
    JsonNode mixed = json(opml(dora, OpmlFiles.file("bad-outlines.opml"), "application/xml"), 200);
    assertEquals(1, mixed.get("feeds").size());
    assertEquals(4, mixed.get("skipped").size());
    assertEquals(0, json(service.call("GET", "/watches", dora, null), 200).get("watches").size());

    JsonNode hostile = error(opml(dora, OpmlFiles.file("billion-laughs.opml"), "text/x-opml"), 400);
    assertTrue(hostile.toString(), hostile.toString().contains("DTD"));
    error(opml(dora, new byte[io.periscope.source.Opml.MAX_BYTES + 1], "text/x-opml"), 413);
    error(opml(dora, "{}".getBytes(), "application/json"), 415);
  }

  @Test
  public void aWatchsAndAnAccountsFeedsAreExportedAsOpml() throws Exception {
    String erin = service.signedIn("erin", "user");
    for (String id : List.of("space", "rockets"))
      json(
          service.call(
              "POST",
              "/watches",
              erin,
              TestWatches.body(id)
                  .name("Watch & " + id)
                  .condition("a launch")
                  .search("acme launch")
                  .feed("https://unresolvable.invalid/" + id)
                  .schedule("0 9 * * *")
                  .enabled(false)
                  .json()),
          201);
    var one = service.call("GET", "/watches/space/sources.opml", erin, null);
    assertEquals(200, one.statusCode());
    assertTrue(one.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"));
    assertTrue(one.headers().firstValue("Content-Disposition").orElse("").contains("sources.opml"));
    io.periscope.source.Opml.Listed watch =
        io.periscope.source.Opml.read(one.body().getBytes(), null);
    assertEquals("Watch & space", watch.title());
    assertEquals(
        List.of("https://unresolvable.invalid/space"),
        watch.feeds().stream().map(io.periscope.source.Opml.Feed::url).toList());

    var all = service.call("GET", "/account/sources.opml", erin, null);
    io.periscope.source.Opml.Listed account =
        io.periscope.source.Opml.read(all.body().getBytes(), null);
    assertEquals(
        List.of("Watch & space", "Watch & rockets"),
        account.feeds().stream().map(io.periscope.source.Opml.Feed::folder).toList());

    error(service.call("GET", "/watches/absent/sources.opml", erin, null), 404);
    String frank = service.signedIn("frank", "user");
    error(service.call("GET", "/watches/space/sources.opml", frank, null), 404);
    error(service.call("GET", "/account/sources.opml", null, null), 401);
  }
}
