package io.periscope.source;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

import io.periscope.net.SafeHttp;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

/** Pages made for each case, served on loopback, collected twice: the baseline, then the change. */
public class PageCollectorTest {
  private MockWebServer server;
  private PageCollector collector;

  @Before
  public void start() throws Exception {
    server = new MockWebServer();
    server.start();
    collector =
        new PageCollector(
            new SafeHttp(true), new CollectionBudget(CollectionLimits.DEFAULTS), Optional.empty());
  }

  @After
  public void stop() throws Exception {
    server.shutdown();
  }

  private static String page(String body) {
    return "<!doctype html><html><head><title>Acme changelog</title>"
        + "<script>var t = 1;</script></head><body><nav>Home | About</nav>"
        + "<main>"
        + body
        + "</main><footer>© Acme</footer></body></html>";
  }

  private void serve(String html) {
    server.enqueue(
        new MockResponse().setHeader("Content-Type", "text/html; charset=utf-8").setBody(html));
  }

  private String url() {
    return server.url("/page").toString();
  }

  /** Collects {@code before} (the baseline), then {@code after}, and answers the second. */
  private PageCollector.Collected twice(
      String before, String after, String selector, List<String> ignore) {
    serve(before);
    PageCollector.Collected baseline = collect(selector, ignore, null);
    assertTrue(baseline.result().succeeded());
    assertTrue("the baseline alerts on nothing", baseline.result().items().isEmpty());
    serve(after);
    return collect(selector, ignore, baseline.snapshot());
  }

  private PageCollector.Collected collect(String selector, List<String> ignore, PageSnapshot last) {
    return collector
        .collect(url(), selector, ignore, "official", last)
        .toCompletableFuture()
        .join();
  }

  @Test
  public void aChangedBlockIsOneItemWithBeforeAndNow() {
    PageCollector.Collected second =
        twice(
            page("<h2 id='v2'>Version 2</h2><p>Adds export.</p><p>Fixes login.</p>"),
            page("<h2 id='v2'>Version 2</h2><p>Adds export to CSV.</p><p>Fixes login.</p>"),
            null,
            List.of());
    List<Item> items = second.result().items();
    assertEquals(1, items.size());
    Item item = items.get(0);
    assertEquals(
        "Under: Version 2\nBefore: Adds export.\nNow: Adds export to CSV.", item.summary());
    assertEquals("Acme changelog — changed: Version 2: Adds export to CSV.", item.title());
    assertEquals(url(), item.url()); // the paragraph has no id of its own or above it
    assertEquals(PageCollector.SOURCE_TYPE, item.sourceType());
    assertEquals(url(), item.sourceValue());
    assertEquals("official", item.trust());
    assertNull(item.published());
    assertTrue(
        second.snapshot().blocks().contains(new PageSnapshot.Block("Adds export to CSV.", null)));
  }

  @Test
  public void anAddedTableRowIsAnItemAnchoredAtItsTable() {
    String table =
        "<table id='prices'><tr><th>Plan</th><th>Price</th></tr>"
            + "<tr><td>Basic</td><td>$10</td></tr>%s</table>";
    PageCollector.Collected second =
        twice(
            page(String.format(table, "")),
            page(String.format(table, "<tr><td>Team</td><td>$49</td></tr>")),
            null,
            List.of());
    assertEquals(1, second.result().items().size());
    Item row = second.result().items().get(0);
    assertEquals("Added: Team | $49", row.summary());
    assertEquals(url() + "#prices", row.url());
  }

  @Test
  public void aChangedPriceAtTheSelector() {
    String product =
        "<div class='product'><h1>Widget</h1><span class='price'>%s</span>"
            + "<p class='stock'>In stock</p></div><p>Reviews: many</p>";
    PageCollector.Collected second =
        twice(
            page(String.format(product, "€ 19.99")),
            page(String.format(product, "€ 17.49")),
            ".price",
            List.of());
    assertEquals(1, second.result().items().size());
    assertEquals("Before: € 19.99\nNow: € 17.49", second.result().items().get(0).summary());
    assertEquals(List.of(new PageSnapshot.Block("€ 17.49", null)), second.snapshot().blocks());
  }

  @Test
  public void noiseMakesNoItem() {
    String before =
        "<p class='a' id='x'>Our   prices\n are fair.</p>"
            + "<p>Updated <span class='stamp'>10:01:07</span></p><ul><li>One</li><li>Two</li></ul>";
    String after =
        "<p id='x'   class='a'>Our prices are\tfair.</p>"
            + "<p>Updated <span class='stamp'>11:45:52</span></p><ul><li>Two</li><li>One</li></ul>"
            + "<script>var rotated = 'token-8d7f';</script>";
    PageCollector.Collected second = twice(page(before), page(after), null, List.of(".stamp"));
    assertTrue(second.result().succeeded());
    assertEquals(List.of(), second.result().items());
  }

  @Test
  public void withoutIgnoreTheTimestampWouldCount() {
    PageCollector.Collected second =
        twice(
            page("<p>Updated <span class='stamp'>10:01</span></p>"),
            page("<p>Updated <span class='stamp'>11:45</span></p>"),
            null,
            List.of());
    assertEquals(1, second.result().items().size());
  }

  @Test
  public void aRemovedBlockIsNoItem() {
    PageCollector.Collected second =
        twice(page("<p>One</p><p>Two</p>"), page("<p>One</p>"), null, List.of());
    assertEquals(List.of(), second.result().items());
    assertEquals(1, second.snapshot().blocks().size());
  }

  @Test
  public void aSelectorMatchingNothingIsASourceErrorThatSaysSo() {
    serve(page("<p>Plain</p>"));
    PageCollector.Collected first = collect("#pricing", List.of(), null);
    assertFalse(first.result().succeeded());
    assertNull(first.snapshot());
    SourceError error = first.result().error();
    assertEquals("no-content", error.kind());
    assertTrue(error.message(), error.message().contains("no content at the selector '#pricing'"));
    assertTrue(error.message(), error.message().contains("BROWSER_URL"));
  }

  @Test
  public void aPageThatNeedsJavaScriptIsReportedAsSuch() {
    serve(
        "<!doctype html><html><head><title>App</title><script src='/app.js'></script></head>"
            + "<body><div id='root'></div><noscript>Enable JavaScript</noscript></body></html>");
    PageCollector.Collected first = collect(null, List.of(), null);
    assertEquals("no-content", first.result().error().kind());
    assertTrue(
        first.result().error().message(),
        first.result().error().message().contains("only JavaScript renders"));
  }

  @Test
  public void aPageGrowingPastTheBoundKeepsItsFirstPartWatched() {
    StringBuilder small = new StringBuilder("<p>Intro v1</p>");
    for (int i = 0; i < 50; i++)
      small.append("<p>Entry ").append(i).append(" ").append("x".repeat(100)).append("</p>");
    StringBuilder big = new StringBuilder("<p>Intro v2</p>");
    for (int i = 0; i < 2_000; i++)
      big.append("<p>Entry ").append(i).append(" ").append("x".repeat(100)).append("</p>");
    PageCollector.Collected second =
        twice(page(small.toString()), page(big.toString()), null, List.of());
    PageSnapshot snapshot = second.snapshot();
    assertTrue(snapshot.chars() <= PageSnapshot.MAX_CHARS);
    assertTrue(snapshot.blocks().size() <= PageSnapshot.MAX_BLOCKS);
    List<Item> items = second.result().items();
    assertEquals("Before: Intro v1\nNow: Intro v2", items.get(0).summary());
    // what was added within the bound counts; what lies past it is not watched
    int within = snapshot.blocks().size() - 51;
    assertEquals(1 + within, items.size());
    // and the next collection of the same big page finds nothing new
    serve(page(big.toString()));
    PageCollector.Collected third = collect(null, List.of(), snapshot);
    assertEquals(List.of(), third.result().items());
  }

  @Test
  public void aBlockLongerThanItsBoundIsCut() {
    serve(page("<p>" + "y".repeat(PageSnapshot.MAX_BLOCK_CHARS * 2) + "</p>"));
    PageSnapshot snapshot = collect(null, List.of(), null).snapshot();
    assertEquals(PageSnapshot.MAX_BLOCK_CHARS, snapshot.blocks().get(0).text().length());
  }

  @Test
  public void theValidatorsMakeTheNextRequestConditional() throws Exception {
    server.enqueue(
        new MockResponse()
            .setHeader("Content-Type", "text/html")
            .setHeader("ETag", "\"v1\"")
            .setHeader("Last-Modified", "Tue, 02 Jan 2024 10:00:00 GMT")
            .setBody(page("<p>Stable</p>")));
    PageSnapshot first = collect(null, List.of(), null).snapshot();
    assertEquals("\"v1\"", first.etag());
    server.enqueue(new MockResponse().setResponseCode(304));
    PageCollector.Collected second = collect(null, List.of(), first);
    assertTrue(second.result().succeeded());
    assertEquals(List.of(), second.result().items());
    assertSame(first, second.snapshot());
    server.takeRequest(1, TimeUnit.SECONDS);
    RecordedRequest conditional = server.takeRequest(1, TimeUnit.SECONDS);
    assertEquals("\"v1\"", conditional.getHeader("If-None-Match"));
    assertEquals("Tue, 02 Jan 2024 10:00:00 GMT", conditional.getHeader("If-Modified-Since"));
  }

  @Test
  public void notHtmlIsNotAPage() {
    server.enqueue(new MockResponse().setHeader("Content-Type", "application/pdf").setBody("%PDF"));
    assertEquals("not-a-page", collect(null, List.of(), null).result().error().kind());
  }

  @Test
  public void aFailedFetchKeepsWhatWasSeen() {
    server.enqueue(new MockResponse().setResponseCode(503));
    PageCollector.Collected failed = collect(null, List.of(), null);
    assertEquals("http", failed.result().error().kind());
    assertNull(failed.snapshot());
  }

  @Test
  public void theGuardRefusesPrivateAddressesForPagesToo() {
    PageCollector guarded =
        new PageCollector(
            new SafeHttp(false), new CollectionBudget(CollectionLimits.DEFAULTS), Optional.empty());
    PageCollector.Collected refused =
        guarded.collect(url(), null, List.of(), null, null).toCompletableFuture().join();
    assertEquals("refused", refused.result().error().kind());
  }

  @Test
  public void aCheckReadsTheBlocksAtTheSelector() {
    serve(page("<div id='plans'><p>Basic $10</p><p>Pro $20</p></div><p>Other</p>"));
    PageCollector.Reading reading =
        collector.read(url(), "#plans", List.of()).toCompletableFuture().join();
    assertEquals("Acme changelog", reading.title());
    assertEquals("Basic $10\nPro $20\n", PageText.asText(reading.blocks()));
    assertFalse(reading.rendered());
    assertNotNull(reading.blocks().get(0).anchor());
  }

  @Test
  public void selectorsAreParsedBeforeUse() {
    assertTrue(PageText.selectorProblem("div > p.price").isEmpty());
    assertTrue(PageText.selectorProblem("div >> [").isPresent());
  }
}
