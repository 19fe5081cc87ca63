package io.periscope.source;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import io.periscope.net.SafeHttp;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
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

  private SourceResult collect(String url, String trust) throws Exception {
    return collector.collect(url, trust).toCompletableFuture().get(10, TimeUnit.SECONDS);
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

    assertEquals("https://example.com/b", items.get(1).identity());
    assertNull(items.get(1).summary());
    assertEquals(FeedCollector.titleAndLinkHash("Only a title", null), items.get(2).identity());
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
  public void remembersABoundedNumberOfFeeds() throws Exception {
    collector = new FeedCollector(new SafeHttp(true), 1);
    for (int i = 0; i < 3; i++)
      server.enqueue(new MockResponse().setBody(RSS).addHeader("ETag", "\"e" + i + "\""));
    collect(server.url("/a").toString(), null);
    collect(server.url("/b").toString(), null); // forgets /a
    collect(server.url("/a").toString(), null);
    server.takeRequest();
    server.takeRequest();
    assertNull(server.takeRequest().getHeader("If-None-Match"));
  }

  @Test
  public void anHtmlPageIsNotAFeed() throws Exception {
    server.enqueue(
        new MockResponse()
            .setBody("<html><head><title>x</title></head><body><p>hi</p></body></html>")
            .addHeader("Content-Type", "text/html"));
    String url = server.url("/page").toString();
    SourceError error = collect(url, null).error();
    assertEquals(new SourceError(url, "not-a-feed", "not an RSS or Atom document", null), error);
  }

  @Test
  public void aDoctypeIsRefusedAsNotAFeed() throws Exception {
    String withDoctype =
        "<?xml version=\"1.0\"?><!DOCTYPE rss [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><rss"
            + " version=\"2.0\"><channel><title>&x;</title><link>https://e.com/</link><descriptio"
            + "n>d</description>"
            + "</channel></rss>";
    server.enqueue(new MockResponse().setBody(withDoctype));
    assertEquals("not-a-feed", collect(server.url("/xxe").toString(), null).error().kind());
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
}
