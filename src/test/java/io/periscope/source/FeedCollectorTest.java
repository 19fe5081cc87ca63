package io.periscope.source;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import io.periscope.net.SafeHttp;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import okio.Buffer;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

public class FeedCollectorTest {
  private static final String RSS =
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <rss version="2.0"><channel><title>News</title><link>https://example.com/</link>\
      <description>d</description>
        <item>
          <title>With guid</title><link>https://example.com/a</link><guid \
      isPermaLink="false">tag:example.com,1</guid>
          <description><![CDATA[<p>A <strong>bold</strong> &amp; brave</p>
             <script>alert(1)</script>]]></description>
          <pubDate>Tue, 02 Jan 2024 10:00:00 GMT</pubDate>
        </item>
        <item><title>Only a link</title><link>https://example.com/b</link></item>
        <item><title>Only a title</title></item>
      </channel></rss>
      """;

  private static final String ATOM =
      """
      <?xml version="1.0" encoding="utf-8"?>
      <feed xmlns="http://www.w3.org/2005/Atom"><title>Atom</title><id>urn:feed</id>
        <updated>2024-03-04T05:06:07Z</updated>
        <entry><id>urn:entry:1</id><title>Atom entry</title><link rel="alternate" href="/posts/1"/>
          <updated>2024-03-04T05:06:07Z</updated><summary type="html">&lt;em&gt;Short&lt;/em&gt; \
      summary</summary>
        </entry>
      </feed>
      """;

  private MockWebServer server;
  private FeedCollector collector;

  @Before
  public void start() throws Exception {
    server = new MockWebServer();
    server.start();
    collector = new FeedCollector(new SafeHttp(true));
  }

  @After
  public void stop() throws Exception {
    server.shutdown();
  }

  private static FeedCollector collectorWith(long feedMaxBytes, long feedCacheBytes) {
    CollectionLimits d = CollectionLimits.DEFAULTS;
    return new FeedCollector(
        new SafeHttp(true),
        new CollectionBudget(
            new CollectionLimits(
                feedMaxBytes,
                d.pageMaxBytes(),
                d.parseMaxElements(),
                d.fetchesPerNode(),
                d.parsesPerNode(),
                feedCacheBytes)));
  }

  private SourceResult collect(String url, String trust) throws Exception {
    return collector.collect(url, trust).toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  public void onlyHttpAndHttpsLinksAreKeptAsItemUrls() throws Exception {
    String feed =
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0"><channel><title>Hostile</title><link>https://example.com/</link>
          <item><title>Script</title><link>javascript:alert(document.cookie)</link></item>
          <item><title>Shouting</title><link>JavaScript:alert(1)</link></item>
          <item><title>Data</title><link>data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;</link></item>
          <item><title>Web</title><link>https://example.com/fine</link></item>
        </channel></rss>
        """;
    server.enqueue(
        new MockResponse().setBody(feed).addHeader("Content-Type", "application/rss+xml"));
    SourceResult result = collect(server.url("/hostile.xml").toString(), null);
    assertEquals(4, result.items().size());
    assertEquals(
        Arrays.asList(null, null, null, "https://example.com/fine"),
        result.items().stream().map(Item::url).toList());
  }

  @Test
  public void mapsRssEntriesToItems() throws Exception {
    server.enqueue(
        new MockResponse().setBody(RSS).addHeader("Content-Type", "application/rss+xml"));
    String url = server.url("/feed.xml").toString();
    SourceResult result = collect(url, "official");

    assertTrue(result.succeeded());
    List<Item> items = result.items();
    assertEquals(3, items.size());
    Item first = items.get(0);
    assertEquals("tag:example.com,1", first.identity());
    assertEquals("With guid", first.title());
    assertEquals("https://example.com/a", first.url());
    assertEquals("A bold & brave", first.summary());
    assertEquals(Instant.parse("2024-01-02T10:00:00Z"), first.published());
    assertEquals("rss", first.sourceType());
    assertEquals(url, first.sourceValue());
    assertEquals("official", first.trust());

    // without a guid: link and title; the link is the identity earlier versions gave
    assertEquals(
        ItemIdentity.linkAndTitle("Only a link", "https://example.com/b"), items.get(1).identity());
    assertTrue(items.get(1).aliases().contains("https://example.com/b"));
    assertNull(items.get(1).summary());
    assertEquals(ItemIdentity.linkAndTitle("Only a title", null), items.get(2).identity());
    assertEquals(64, items.get(2).identity().length());
  }

  @Test
  public void mapsAtomEntriesAndResolvesRelativeLinks() throws Exception {
    server.enqueue(
        new MockResponse().setBody(ATOM).addHeader("Content-Type", "application/atom+xml"));
    SourceResult result = collect(server.url("/blog/atom").toString(), null);
    Item item = result.items().get(0);
    assertEquals("urn:entry:1", item.identity());
    assertEquals(server.url("/posts/1").toString(), item.url());
    assertEquals("Short summary", item.summary());
    assertEquals(Instant.parse("2024-03-04T05:06:07Z"), item.published());
    assertNull(item.trust());
  }

  @Test
  public void decodesTheDeclaredEncodingAndSkipsAByteOrderMark() throws Exception {
    String latin =
        "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><rss"
            + " version=\"2.0\"><channel><title>t</title>"
            + "<link>https://example.com/</link><description>d</description>"
            + "<item><title>Caf\u00e9</title><link>https://example.com/c</link></item></channel><"
            + "/rss>";
    server.enqueue(
        new MockResponse()
            .setBody(new Buffer().write(latin.getBytes(StandardCharsets.ISO_8859_1))));
    assertEquals(
        "Caf\u00e9", collect(server.url("/latin").toString(), null).items().get(0).title());

    byte[] utf8 = latin.replace("ISO-8859-1", "UTF-8").getBytes(StandardCharsets.UTF_8);
    byte[] withBom = new byte[utf8.length + 3];
    withBom[0] = (byte) 0xEF;
    withBom[1] = (byte) 0xBB;
    withBom[2] = (byte) 0xBF;
    System.arraycopy(utf8, 0, withBom, 3, utf8.length);
    server.enqueue(
        new MockResponse()
            .setBody(new Buffer().write(withBom))
            .addHeader("Content-Type", "text/xml"));
    assertEquals("Caf\u00e9", collect(server.url("/bom").toString(), null).items().get(0).title());
  }

  @Test
  public void sendsValidatorsAndAnswersANotModifiedWithTheRememberedItems() throws Exception {
    server.enqueue(
        new MockResponse()
            .setBody(RSS)
            .addHeader("ETag", "\"v1\"")
            .addHeader("Last-Modified", "Tue, 02 Jan 2024 10:00:00 GMT"));
    server.enqueue(new MockResponse().setResponseCode(304));
    String url = server.url("/feed").toString();

    SourceResult first = collect(url, "community");
    SourceResult second = collect(url, "official");

    RecordedRequest initial = server.takeRequest();
    assertNull(initial.getHeader("If-None-Match"));
    RecordedRequest conditional = server.takeRequest();
    assertEquals("\"v1\"", conditional.getHeader("If-None-Match"));
    assertEquals("Tue, 02 Jan 2024 10:00:00 GMT", conditional.getHeader("If-Modified-Since"));
    assertTrue(second.succeeded());
    assertEquals(
        first.items().stream().map(Item::identity).toList(),
        second.items().stream().map(Item::identity).toList());
    assertEquals(
        "official",
        second.items().get(0).trust()); // the trust of this run's source, not the cached one
  }

  @Test
  public void aFeedAnsweredWithTheSameBytesIsNotParsedAgain() throws Exception {
    String url = server.url("/unchanged").toString();
    String changed = RSS.replace("Only a title", "A new title");
    for (String body : List.of(RSS, RSS, RSS, changed, changed))
      server.enqueue(new MockResponse().setBody(body).addHeader("Content-Type", "text/xml"));

    SourceResult first = collect(url, "community");
    SourceResult again = collect(url, "official");
    collect(url, "official");
    assertEquals("one parse for three answers of the same bytes", 1, collector.parses());
    assertEquals(first.items().stream().map(i -> i.withTrust("official")).toList(), again.items());
    SourceResult changedNow = collect(url, null);
    assertEquals("new bytes are read", 2, collector.parses());
    assertEquals("A new title", changedNow.items().get(2).title());
    collect(url, null);
    assertEquals(2, collector.parses());
    // a feed without validators is fetched in full each time: nothing was sent to compare
    for (int i = 0; i < 5; i++) assertNull(server.takeRequest().getHeader("If-None-Match"));
  }

  /**
   * A node of 1,000 watches on feeds that never change, each polled every minute: under the default
   * FEED_CACHE_BYTES every feed stays remembered, so a second round parses none of them.
   */
  @Test
  public void aThousandUnchangedFeedsAreNotParsedAgainUnderTheDefaultBound() throws Exception {
    server.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) {
            String name = request.getPath().substring(1);
            return new MockResponse()
                .addHeader("Content-Type", "application/rss+xml")
                .setBody(
                    "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>F</title>"
                        + "<link>https://example.org/</link><description>d</description><item>"
                        + "<title>Always</title><link>https://example.org/page/"
                        + name
                        + "</link><guid>"
                        + name
                        + "</guid><pubDate>Tue, 02 Jan 2024 10:00:00 GMT</pubDate>"
                        + "<description>The same item</description></item></channel></rss>");
          }
        });
    int feeds = 1000;
    for (int round = 0; round < 2; round++) { // a round at once, as a minute's runs come
      List<CompletableFuture<SourceResult>> all = new ArrayList<>();
      for (int i = 0; i < feeds; i++)
        all.add(collector.collect(server.url("/feed-" + i).toString(), null).toCompletableFuture());
      for (CompletableFuture<SourceResult> one : all)
        assertTrue(one.get(60, TimeUnit.SECONDS).succeeded());
    }
    assertEquals("each feed parsed once, in the first round", feeds, collector.parses());
    assertTrue(
        "1,000 such feeds take a small share of the bound",
        collector.rememberedBytes() * 10 < CollectionLimits.DEFAULTS.feedCacheBytes());
  }

  @Test
  public void theSameBytesAtAnotherTypeOrAddressAreReadAgain() throws Exception {
    server.enqueue(new MockResponse().setBody(RSS).addHeader("Content-Type", "text/xml"));
    server.enqueue(
        new MockResponse().setBody(RSS).addHeader("Content-Type", "text/xml; charset=iso-8859-1"));
    String url = server.url("/typed").toString();
    collect(url, null);
    collect(url, null);
    assertEquals("the charset a type names changes the reading", 2, collector.parses());
    server.enqueue(new MockResponse().setBody(RSS).addHeader("Content-Type", "text/xml"));
    collect(server.url("/elsewhere").toString(), null);
    assertEquals("another feed's bytes are its own", 3, collector.parses());
  }

  @Test
  public void remembersFeedsUpToTheByteBound() throws Exception {
    server.enqueue(new MockResponse().setBody(RSS).addHeader("ETag", "\"e\""));
    collect(server.url("/c").toString(), null); // as long a URL as /a
    server.takeRequest();
    long oneFeed = collector.rememberedBytes();
    assertTrue(oneFeed > 0);
    collector = collectorWith(CollectionLimits.DEFAULTS.feedMaxBytes(), oneFeed * 3 / 2);
    for (int i = 0; i < 3; i++)
      server.enqueue(new MockResponse().setBody(RSS).addHeader("ETag", "\"e" + i + "\""));
    collect(server.url("/a").toString(), null);
    collect(server.url("/b").toString(), null); // forgets /a
    collect(server.url("/a").toString(), null);
    server.takeRequest();
    server.takeRequest();
    assertNull(server.takeRequest().getHeader("If-None-Match"));
    assertEquals(oneFeed, collector.rememberedBytes());
  }

  @Test
  public void aChangedFeedReusesTheEntriesItReadAndCountsThem() throws Exception {
    server.enqueue(new MockResponse().setBody(RSS));
    String gained = RSS.replaceFirst("<item>", "<item><title>New</title></item><item>");
    server.enqueue(new MockResponse().setBody(gained));
    String url = server.url("/gains").toString();
    SourceResult first = collect(url, null);
    long items = FeedCollector.sizeOf(first.items(), EntryMemo.NONE);
    assertTrue("the entries remembered count", collector.rememberedBytes() > items + 3 * 200);
    SourceResult second = collect(url, null);
    assertEquals(2, collector.parses());
    assertEquals(4, second.items().size());
    assertEquals(first.items(), second.items().subList(1, 4));
  }

  @Test
  public void aChangedFeedsKnownEntriesAreTheItemsAFreshReadMakes() throws Exception {
    String gained = RSS.replaceFirst("<item>", "<item><title>New</title></item><item>");
    // a new entry that repeats a guid: the guids name no item now, so each known entry is renamed
    String repeated =
        RSS.replaceFirst(
            "<item>", "<item><title>Newer</title><guid>tag:example.com,1</guid></item><item>");
    String url = server.url("/renamed").toString();
    for (String body : List.of(RSS, gained, repeated, gained)) {
      server.enqueue(new MockResponse().setBody(body));
      SourceResult read = collect(url, "official");
      server.enqueue(new MockResponse().setBody(body));
      FeedCollector fresh = new FeedCollector(new SafeHttp(true));
      assertEquals(
          fresh.collect(url, "official").toCompletableFuture().get(10, TimeUnit.SECONDS), read);
    }
    assertEquals(4, collector.parses());
  }

  @Test
  public void anHtmlPageIsNotAFeed() throws Exception {
    server.enqueue(
        new MockResponse()
            .setBody("<html><head><title>x</title></head><body><p>hi</p></body></html>")
            .addHeader("Content-Type", "text/html"));
    String url = server.url("/page").toString();
    SourceError error = collect(url, null).error();
    assertEquals(new SourceError(url, "not-a-feed", "not an RSS, Atom or JSON feed", null), error);
  }

  private static MockResponse page(String feedHref) {
    return new MockResponse()
        .setBody(
            "<html><head><link rel=\"alternate\" type=\"application/atom+xml\" href=\""
                + feedHref
                + "\"></head><body>A site</body></html>")
        .addHeader("Content-Type", "text/html; charset=utf-8");
  }

  @Test
  public void aSitesPageHasTheFirstFeedItNamesCollectedAsTheSource() throws Exception {
    server.enqueue(page("/atom.xml"));
    server.enqueue(
        new MockResponse().setBody(ATOM).addHeader("Content-Type", "application/atom+xml"));
    String site = server.url("/blog/").toString();
    SourceResult result = collect(site, "official");

    assertTrue(result.succeeded());
    assertEquals(server.url("/atom.xml").toString(), result.feedFound());
    assertEquals(1, result.items().size());
    Item item = result.items().get(0);
    assertEquals("Atom entry", item.title());
    assertEquals("the items are the source's", site, item.sourceValue());
    assertEquals("official", item.trust());
    assertEquals("/blog/", server.takeRequest().getPath());
    assertEquals("/atom.xml", server.takeRequest().getPath());
  }

  @Test
  public void aFeedAPageNamesIsFollowedOnceAndItsFailureNamesIt() throws Exception {
    // the named "feed" is another page naming a feed: not followed again
    server.enqueue(page("/other/"));
    server.enqueue(page("/atom.xml"));
    String site = server.url("/blog/").toString();
    SourceResult looped = collect(site, null);
    assertEquals("not-a-feed", looped.error().kind());
    assertEquals(site, looped.error().source());
    assertTrue(looped.error().message().contains(server.url("/other/").toString()));
    assertEquals(server.url("/other/").toString(), looped.feedFound());
    assertEquals(2, server.getRequestCount());

    server.enqueue(page("/gone.xml"));
    server.enqueue(new MockResponse().setResponseCode(404));
    SourceResult gone = collect(site, null);
    assertEquals("http", gone.error().kind());
    assertEquals(Integer.valueOf(404), gone.error().httpStatus());
    assertTrue(gone.error().message().contains("/gone.xml"));
  }

  @Test
  public void aDoctypeIsToleratedAndItsEntitiesNeverExpanded() throws Exception {
    String withDoctype =
        "<?xml version=\"1.0\"?><!DOCTYPE rss [<!ENTITY x SYSTEM \"file:///etc/passwd\">"
            + "<!ENTITY y \"expanded\">]><rss version=\"2.0\"><channel><title>t</title>"
            + "<item><title>a &x; b &y;</title><link>https://e.com/1</link></item></channel></rss>";
    server.enqueue(new MockResponse().setBody(withDoctype));
    SourceResult result = collect(server.url("/xxe").toString(), null);
    assertTrue(result.succeeded());
    assertEquals("a &x; b &y;", result.items().get(0).title());
    assertEquals(List.of("markup"), result.recoveries()); // the unknown references were repaired
  }

  @Test
  public void httpAndGuardFailuresBecomeSourceErrors() throws Exception {
    server.enqueue(new MockResponse().setResponseCode(404));
    String url = server.url("/missing").toString();
    SourceError notFound = collect(url, null).error();
    assertEquals("http", notFound.kind());
    assertEquals(Integer.valueOf(404), notFound.httpStatus());
    assertEquals(url, notFound.source());

    FeedCollector guarded = new FeedCollector(new SafeHttp(false));
    SourceError refused =
        guarded.collect(url, null).toCompletableFuture().get(10, TimeUnit.SECONDS).error();
    assertEquals("refused", refused.kind());
    assertEquals(1, server.getRequestCount());
  }

  /**
   * The collector's property: whatever bytes a feed URL answers with, the collector yields items or
   * a {@code not-a-feed} source error, never an exception. Random bytes, and real feeds (RSS, Atom,
   * JSON) cut short, with bytes flipped, inserted or repeated, from a fixed seed so a failure
   * repeats.
   */
  @Test
  public void anyBytesYieldItemsOrNotAFeedNeverAnException() throws Exception {
    Random random = new Random(25);
    String json =
        "{\"version\":\"https://jsonfeed.org/version/1.1\",\"items\":[{\"id\":\"1\","
            + "\"title\":\"T\",\"date_published\":\"2024-01-02T03:04:05Z\"}]}";
    List<byte[]> seeds =
        List.of(
            RSS.getBytes(StandardCharsets.UTF_8),
            ATOM.getBytes(StandardCharsets.UTF_8),
            json.getBytes(StandardCharsets.UTF_8),
            RSS.getBytes(StandardCharsets.UTF_16));
    String[] types = {null, "application/rss+xml", "application/json", "text/html; charset=bogus"};
    int items = 0;
    for (int i = 0; i < 300; i++) {
      byte[] body = i % 5 == 0 ? randomBytes(random) : mutated(seeds.get(i % seeds.size()), random);
      MockResponse response = new MockResponse().setBody(new Buffer().write(body));
      String type = types[random.nextInt(types.length)];
      if (type != null) response.addHeader("Content-Type", type);
      server.enqueue(response);
      SourceResult result = collect(server.url("/p" + i).toString(), null);
      if (result.succeeded()) items += result.items().size();
      else assertEquals("case " + i, "not-a-feed", result.error().kind());
    }
    assertTrue("mutated feeds still yield items", items > 100);
  }

  private static byte[] randomBytes(Random random) {
    byte[] bytes = new byte[random.nextInt(2_000)];
    random.nextBytes(bytes);
    return bytes;
  }

  private static byte[] mutated(byte[] seed, Random random) {
    byte[] bytes = Arrays.copyOf(seed, seed.length);
    switch (random.nextInt(4)) {
      case 0 -> bytes = Arrays.copyOf(bytes, random.nextInt(bytes.length + 1)); // cut short
      case 1 -> {
        for (int k = 0; k < 1 + random.nextInt(20); k++)
          bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
      }
      case 2 -> {
        int at = random.nextInt(bytes.length);
        byte[] noise = randomBytes(random);
        byte[] joined = new byte[bytes.length + noise.length];
        System.arraycopy(bytes, 0, joined, 0, at);
        System.arraycopy(noise, 0, joined, at, noise.length);
        System.arraycopy(bytes, at, joined, at + noise.length, bytes.length - at);
        bytes = joined;
      }
      default -> {
        int from = random.nextInt(bytes.length);
        int to = Math.min(bytes.length, from + random.nextInt(200));
        byte[] twice = new byte[bytes.length + (to - from)];
        System.arraycopy(bytes, 0, twice, 0, to);
        System.arraycopy(bytes, from, twice, to, bytes.length - from);
        bytes = twice;
      }
    }
    return bytes;
  }

  @Test
  public void aFeedPastTheByteLimitIsTooLargeAndItemsAreBounded() throws Exception {
    collector = collectorWith(64 * 1024, CollectionLimits.DEFAULTS.feedCacheBytes());
    server.enqueue(
        new MockResponse().setBody("<rss>" + "<item><title>x</title></item>".repeat(5000)));
    assertEquals("too-large", collect(server.url("/big").toString(), null).error().kind());

    String longTitle = "T".repeat(10_000);
    String longGuid = "g".repeat(5_000);
    server.enqueue(
        new MockResponse()
            .setBody(
                "<rss><channel><item><guid>"
                    + longGuid
                    + "</guid><title>"
                    + longTitle
                    + "</title><link>https://e.example/"
                    + "p".repeat(3_000)
                    + "</link><description>"
                    + "d ".repeat(5_000)
                    + "</description></item></channel></rss>"));
    Item item = collect(server.url("/long").toString(), null).items().get(0);
    assertEquals(ItemBounds.MAX_TITLE_CHARS, item.title().length());
    assertNull(item.url()); // a cut URL would point elsewhere
    assertTrue(item.summary().length() <= ItemBounds.MAX_SUMMARY_CHARS);
    assertEquals(ItemBounds.digest(longGuid), item.identity());
  }
}
