package io.periscope.source;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.Test;

/**
 * Feeds written for each fault a reader must survive and each rule it follows, read without the
 * network.
 */
public class FeedReaderTest {
  private static final String URL = "https://feeds.example/news/feed.xml";

  private static FeedReader.Read read(String body) throws Exception {
    return read(body.getBytes(StandardCharsets.UTF_8), null);
  }

  private static FeedReader.Read read(byte[] body, String contentType) throws Exception {
    return FeedReader.read(body, contentType, URL, 200, 50_000);
  }

  private static List<String> titles(FeedReader.Read read) {
    return read.entries().stream().map(FeedReader.Entry::title).toList();
  }

  private static final String TWO_ITEMS =
      "<rss version=\"2.0\"><channel><title>c</title>"
          + "<item><title>One</title><link>https://e.example/1</link></item>"
          + "<item><title>Two</title><link>https://e.example/2</link></item>";

  @Test
  public void aWellFormedFeedNeedsNoRecovery() throws Exception {
    FeedReader.Read read = read(TWO_ITEMS + "</channel></rss>");
    assertEquals(List.of("One", "Two"), titles(read));
    assertEquals(List.of(), read.recoveries());
  }

  @Test
  public void anUnclosedDocumentKeepsEveryItemItHolds() throws Exception {
    FeedReader.Read read = read(TWO_ITEMS + "<item><title>Three</title>");
    assertEquals(List.of("One", "Two", "Three"), titles(read));
    assertTrue(read.recoveries().contains("unclosed"));
  }

  @Test
  public void anUndeclaredPrefixIsReadAndCounted() throws Exception {
    FeedReader.Read read =
        read(
            "<rss version=\"2.0\"><channel><item><title>Episode</title>"
                + "<content:encoded><![CDATA[<p>Show <b>notes</b></p>]]></content:encoded>"
                + "</item></channel></rss>");
    assertEquals("Show notes", read.entries().get(0).summary());
    assertEquals(List.of("undeclared-prefix"), read.recoveries());
  }

  @Test
  public void controlCharactersAreDroppedAndCounted() throws Exception {
    FeedReader.Read read =
        read(
            "<rss><channel><item><title>Bad\u0001 \u000Bbyte</title>"
                + "<link>https://e.example/1</link></item></channel></rss>");
    assertEquals("Bad byte", read.entries().get(0).title());
    assertEquals(List.of("control-characters"), read.recoveries());
  }

  @Test
  public void badEntitiesStayAsTextAndHtmlOnesAreKnown() throws Exception {
    FeedReader.Read read =
        read(
            "<rss><channel><item><title>Caf&eacute; &bogus; &amp; more</title>"
                + "</item></channel></rss>");
    assertEquals("Café &bogus; & more", read.entries().get(0).title());
    assertEquals(List.of("markup"), read.recoveries());
  }

  @Test
  public void aNetscapeDoctypeIsTolerated() throws Exception {
    FeedReader.Read read =
        read(
            "<?xml version=\"1.0\"?>\n<!DOCTYPE rss PUBLIC \"-//Netscape Communications//DTD RSS"
                + " 0.91//EN\" \"http://my.netscape.com/publish/formats/rss-0.91.dtd\">\n"
                + "<rss version=\"0.91\"><channel><item><title>Old</title>"
                + "<link>https://e.example/old</link></item></channel></rss>");
    assertEquals(List.of("Old"), titles(read));
    assertEquals(List.of(), read.recoveries());
  }

  @Test
  public void utf16WithAByteOrderMarkWinsOverItsDeclaration() throws Exception {
    String feed =
        "<?xml version=\"1.0\" encoding=\"UTF-16\"?><rss><channel><item><title>Grüße</title>"
            + "</item></channel></rss>";
    byte[] text = feed.getBytes(StandardCharsets.UTF_16LE);
    byte[] body = new byte[text.length + 2];
    body[0] = (byte) 0xFF;
    body[1] = (byte) 0xFE;
    System.arraycopy(text, 0, body, 2, text.length);
    assertEquals(List.of("Grüße"), titles(read(body, "application/rss+xml")));
  }

  @Test
  public void anUnknownEncodingNameFallsBack() throws Exception {
    String feed =
        "<?xml version=\"1.0\" encoding=\"x-no-such-charset\"?><rss><channel><item>"
            + "<title>Zürich</title></item></channel></rss>";
    assertEquals(List.of("Zürich"), titles(read(feed)));
  }

  @Test
  public void undeclaredBytesThatAreNotUtf8AreWindows1252() throws Exception {
    byte[] body =
        "<rss><channel><item><title>Caf\u00e9 \u2013 Men\u00fc</title></item></channel></rss>"
            .getBytes(Charset.forName("windows-1252"));
    assertEquals(List.of("Café – Menü"), titles(read(body, "application/rss+xml")));
  }

  @Test
  public void theHttpCharsetComesBeforeTheProlog() throws Exception {
    byte[] body =
        ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><rss><channel><item>"
                + "<title>\u00e9t\u00e9</title></item></channel></rss>")
            .getBytes(StandardCharsets.ISO_8859_1);
    assertEquals(List.of("été"), titles(read(body, "application/rss+xml; charset=ISO-8859-1")));
    assertEquals(List.of(), read(body, "application/rss+xml; charset=ISO-8859-1").recoveries());
    // Without it, the prolog says UTF-8, the bytes are not: read as windows-1252 and counted.
    FeedReader.Read prologOnly = read(body, "application/rss+xml");
    assertEquals(List.of("été"), titles(prologOnly));
    assertEquals(List.of("encoding"), prologOnly.recoveries());
  }

  @Test
  public void linksResolveAgainstXmlBaseOfTheEntryThenTheFeedThenTheFeedUrl() throws Exception {
    FeedReader.Read read =
        read(
            "<feed xmlns=\"http://www.w3.org/2005/Atom\" xml:base=\"https://blog.example/a/\">"
                + "<entry xml:base=\"posts/\"><title>1</title><link href=\"one.html\"/></entry>"
                + "<entry><title>2</title><link href=\"two.html\"/></entry>"
                + "</feed>");
    assertEquals("https://blog.example/a/posts/one.html", read.entries().get(0).link());
    assertEquals("https://blog.example/a/two.html", read.entries().get(1).link());
    FeedReader.Read noBase =
        read(
            "<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry><title>3</title>"
                + "<link href=\"/three\"/></entry></feed>");
    assertEquals("https://feeds.example/three", noBase.entries().get(0).link());
  }

  @Test
  public void aRelativeFeedBaseAppliesOnceToEveryLink() throws Exception {
    FeedReader.Read read =
        read(
            "<feed xmlns=\"http://www.w3.org/2005/Atom\""
                + " xml:base=\"sub/\"><entry><title>1</title><link href=\"one.html\"/><link"
                + " rel=\"enclosure\" href=\"one.mp3\"/></entry></feed>");
    assertEquals("https://feeds.example/news/sub/one.html", read.entries().get(0).link());
    assertEquals(
        List.of("https://feeds.example/news/sub/one.mp3"), read.entries().get(0).enclosures());
  }

  @Test
  public void theAlternateLinkIsPreferredAndEnclosuresAreNeverTheLink() throws Exception {
    FeedReader.Read read =
        read(
            "<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry><title>Ep</title><link"
                + " rel=\"enclosure\" type=\"audio/mpeg\""
                + " href=\"https://cdn.example/ep.mp3\"/><link rel=\"self\""
                + " href=\"https://e.example/self\"/><link rel=\"alternate\" type=\"text/html\""
                + " href=\"https://e.example/ep\"/></entry><entry><title>Only audio</title><link"
                + " rel=\"enclosure\" href=\"https://cdn.example/2.mp3\"/></entry></feed>");
    FeedReader.Entry first = read.entries().get(0);
    assertEquals("https://e.example/ep", first.link());
    assertEquals(List.of("https://cdn.example/ep.mp3"), first.enclosures());
    assertNull(read.entries().get(1).link());
    assertEquals(List.of("https://cdn.example/2.mp3"), read.entries().get(1).enclosures());
  }

  @Test
  public void anAtomLinkInRssIsTheItemsLinkAndAnRssEnclosureIsNot() throws Exception {
    FeedReader.Read read =
        read(
            "<rss version=\"2.0\""
                + " xmlns:atom=\"http://www.w3.org/2005/Atom\"><channel><item>"
                + "<title>A</title><enclosure"
                + " url=\"https://cdn.example/a.mp3\" type=\"audio/mpeg\"/><atom:link"
                + " rel=\"alternate\" href=\"https://e.example/a\"/></item></channel></rss>");
    assertEquals("https://e.example/a", read.entries().get(0).link());
    assertEquals(List.of("https://cdn.example/a.mp3"), read.entries().get(0).enclosures());
  }

  @Test
  public void titlesAndSummariesArePlainTextWhateverTheirType() throws Exception {
    FeedReader.Read read =
        read(
            "<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry><title type=\"xhtml\"><div"
                + " xmlns=\"http://www.w3.org/1999/xhtml\">An <em>XHTML</em>"
                + " title</div></title><summary type=\"html\">&lt;p&gt;Some"
                + " &lt;b&gt;bold&lt;/b&gt;&lt;/p&gt;</summary></entry><entry><title"
                + " type=\"html\">&lt;i&gt;Escaped&lt;/i&gt; &amp;amp;"
                + " more</title></entry></feed>");
    assertEquals("An XHTML title", read.entries().get(0).title());
    assertEquals("Some bold", read.entries().get(0).summary());
    assertEquals("Escaped & more", read.entries().get(1).title());
  }

  @Test
  public void aBase64Atom03TitleIsDecoded() throws Exception {
    FeedReader.Read read =
        read(
            "<feed version=\"0.3\" xmlns=\"http://purl.org/atom/ns#\"><entry>"
                + "<title mode=\"base64\">SGVsbG8gd29ybGQ=</title>"
                + "<link rel=\"alternate\" href=\"https://e.example/h\"/>"
                + "<issued>2004-01-02T03:04:05Z</issued></entry></feed>");
    assertEquals("Hello world", read.entries().get(0).title());
    assertEquals(Instant.parse("2004-01-02T03:04:05Z"), read.entries().get(0).published());
  }

  @Test
  public void anRssWithoutAChannelStillYieldsItsItems() throws Exception {
    FeedReader.Read read =
        read("<rss version=\"2.0\"><item><title>Loose</title><guid>g1</guid></item></rss>");
    assertEquals(List.of("Loose"), titles(read));
    assertEquals("g1", read.entries().get(0).id());
  }

  @Test
  public void aPermalinkGuidIsTheLinkWhenThereIsNone() throws Exception {
    FeedReader.Read read =
        read(
            "<rss><channel><item><guid>https://e.example/p/1</guid></item>"
                + "<item><guid isPermaLink=\"false\">https://e.example/p/2</guid></item>"
                + "</channel></rss>");
    assertEquals("https://e.example/p/1", read.entries().get(0).link());
    assertNull(read.entries().get(1).link());
  }

  @Test
  public void jsonFeedsOfBothVersionsAreRead() throws Exception {
    for (String version : List.of("1", "1.1")) {
      String body =
          "{\"version\":\"https://jsonfeed.org/version/"
              + version
              + "\",\"title\":\"J\",\"items\":[{\"id\":\"1\",\"url\":\"/posts/1\","
              + "\"title\":\"First\",\"content_html\":\"<p>Hello"
              + " <b>there</b></p>\",\"date_published\":\"2024-05-06T07:08:09.123456+02:00\","
              + "\"attachments\":[{\"url\":\"https://cdn.example/1.mp3\","
              + "\"mime_type\":\"audio/mpeg\"}]},{\"id\":2,\"content_text\":\"No"
              + " title\"}]}";
      FeedReader.Read read = read(body.getBytes(StandardCharsets.UTF_8), "application/feed+json");
      FeedReader.Entry first = read.entries().get(0);
      assertEquals("1", first.id());
      assertEquals("https://feeds.example/posts/1", first.link());
      assertEquals("Hello there", first.summary());
      assertEquals(Instant.parse("2024-05-06T05:08:09.123456Z"), first.published());
      assertEquals(List.of("https://cdn.example/1.mp3"), first.enclosures());
      assertEquals("2", read.entries().get(1).id());
      assertEquals("No title", read.entries().get(1).summary());
    }
  }

  @Test
  public void jsonThatIsNoFeedAndHtmlAreNotFeeds() {
    assertThrows(
        FeedReader.NotAFeed.class,
        () -> read("{\"items\":[]}".getBytes(StandardCharsets.UTF_8), "application/json"));
    assertThrows(FeedReader.NotAFeed.class, () -> read("<html><body><p>hello</p></body></html>"));
  }

  @Test
  public void theElementBudgetKeepsWhatWasReadBeforeIt() throws Exception {
    StringBuilder feed = new StringBuilder("<rss><channel>");
    for (int i = 0; i < 100; i++) feed.append("<item><title>t").append(i).append("</title></item>");
    feed.append("</channel></rss>");
    FeedReader.Read read =
        FeedReader.read(feed.toString().getBytes(StandardCharsets.UTF_8), null, URL, 200, 100);
    assertTrue(read.entries().size() < 100);
    assertFalse(read.entries().isEmpty());
    assertEquals("t0", read.entries().get(0).title());
    assertEquals(List.of("cut"), read.recoveries());
  }

  @Test
  public void deepNestingIsFlattenedNotAStackOverflow() throws Exception {
    String feed =
        "<rss><channel><item><title>deep</title></item>"
            + "<x>".repeat(200_000)
            + "</channel></rss>";
    FeedReader.Read read =
        FeedReader.read(feed.getBytes(StandardCharsets.UTF_8), null, URL, 200, 50_000);
    assertEquals(List.of("deep"), titles(read));
  }

  @Test
  public void anRssWithoutAVersionRomeKnowsIsReadAsRss2() throws Exception {
    FeedReader.Read read =
        read(
            "<rss><channel><item><title>No version</title><link>https://e.example/1</link>"
                + "</item></channel></rss>");
    assertEquals(List.of("No version"), titles(read));
    assertEquals("https://e.example/1", read.entries().get(0).link());
  }

  @Test
  public void rssNamesInAnyCaseAndADefaultNamespaceAreRss() throws Exception {
    FeedReader.Read read =
        read(
            "<rss version=\"2.0\" xmlns=\"http://backend.userland.com/rss2\"><channel>"
                + "<ITEM><TITLE>Shouted</TITLE><Link>https://e.example/1</Link>"
                + "<PUBDATE>Sun, 20 Apr 2014 20:19:00 GMT</PUBDATE></ITEM></channel></rss>");
    FeedReader.Entry e = read.entries().get(0);
    assertEquals("Shouted", e.title());
    assertEquals("https://e.example/1", e.link());
    assertEquals(Instant.parse("2014-04-20T20:19:00Z"), e.published());
  }

  @Test
  public void anAtomFeedWithoutItsNamespaceIsAtom() throws Exception {
    FeedReader.Read read =
        read(
            "<feed><entry><id>tag:e,1</id><title type=\"html\">A &lt;b&gt;bold&lt;/b&gt;"
                + " one</title><link rel=\"alternate\""
                + " href=\"/a/1\"/><updated>2024-01-02T03:04:05Z</updated></entry></feed>");
    FeedReader.Entry e = read.entries().get(0);
    assertEquals("tag:e,1", e.id());
    assertEquals("A bold one", e.title());
    assertEquals("https://feeds.example/a/1", e.link());
    assertEquals(Instant.parse("2024-01-02T03:04:05Z"), e.published());
  }

  @Test
  public void anRdfFeedWhoseItemsLostTheirNamespaceIsRss1() throws Exception {
    FeedReader.Read read =
        read(
            "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
                + "<channel><title>c</title></channel>"
                + "<item rdf:about=\"https://e.example/about/1\"><title>First</title>"
                + "<link>https://e.example/1</link><dc:date>2020-05-06T07:08:09+02:00</dc:date>"
                + "</item></rdf:RDF>");
    FeedReader.Entry e = read.entries().get(0);
    assertEquals("First", e.title());
    assertEquals("https://e.example/about/1", e.id());
    assertEquals(Instant.parse("2020-05-06T05:08:09Z"), e.published());
    assertTrue(read.recoveries().contains("undeclared-prefix"));
  }

  @Test
  public void itemsAMissingEndTagNestedAreStillTheFeeds() throws Exception {
    FeedReader.Read read =
        read(
            "<rss version=\"2.0\"><channel><title>c</title><image><url>https://e.example/i.png</url>"
                + "<item><title>One</title></item><item><title>Two</title></item></channel></rss>");
    assertEquals(List.of("One", "Two"), titles(read));
  }

  @Test
  public void datesRomeCannotReadAreReadByFeedDates() throws Exception {
    FeedReader.Read read =
        read(
            "<rss version=\"2.0\"><channel>"
                + "<item><title>pm</title><pubDate>Sun, 20 Apr 2014 8:19 pm CEST</pubDate></item>"
                + "<item><title>slashed</title><pubDate>2020/1/10 14:33:00</pubDate></item>"
                + "</channel></rss>");
    assertEquals(Instant.parse("2014-04-20T18:19:00Z"), read.entries().get(0).published());
    assertEquals(Instant.parse("2020-01-10T14:33:00Z"), read.entries().get(1).published());
  }

  @Test
  public void entriesPastTheLimitAreNotMapped() throws Exception {
    FeedReader.Read read =
        FeedReader.read(
            (TWO_ITEMS + "</channel></rss>").getBytes(StandardCharsets.UTF_8),
            null,
            URL,
            1,
            50_000);
    assertEquals(List.of("One"), titles(read));
  }

  @Test
  public void anAtomLinkWhoseAddressIsItsTextIsTheLink() throws Exception {
    FeedReader.Read read =
        read(
            "<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry>"
                + "<link rel=\"alternate\" type=\"text/html\">http://www.example.com/</link>"
                + "</entry></feed>");
    assertEquals("http://www.example.com/", read.entries().get(0).link());
  }

  @Test
  public void base64BrokenOverLinesIsDecoded() throws Exception {
    FeedReader.Read read =
        read(
            "<feed version=\"0.3\" xmlns=\"http://purl.org/atom/ns#\"><entry>"
                + "<title mode=\"base64\">\n    RXhhbXBsZSA8Yj5\n    BdG9tPC9iPg==\n  </title>"
                + "</entry></feed>");
    assertEquals("Example Atom", read.entries().get(0).title());
  }

  @Test
  public void aFaultRomeCannotConvertLosesNoEntry() throws Exception {
    FeedReader.Read read =
        read(
            "<rss version=\"2.0\"><channel><skipHours><hour>noon</hour></skipHours>"
                + "<item><title>One</title><link>https://e.example/1</link></item>"
                + "<item><title>Two</title><link>https://e.example/2</link></item>"
                + "</channel></rss>");
    assertEquals(List.of("One", "Two"), titles(read));
    assertTrue(read.recoveries().contains("unmappable"));
  }

  @Test
  public void aCdfItemsHrefIsItsLink() throws Exception {
    FeedReader.Read read =
        read("<CHANNEL><ITEM HREF=\"http://www.example.org/\"></ITEM></CHANNEL>");
    assertEquals("http://www.example.org/", read.entries().get(0).link());
  }

  @Test
  public void subSecondDigitsPastMillisecondsStayInTheSecond() throws Exception {
    FeedReader.Read read =
        read(
            "<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry><id>a</id>"
                + "<published>2024-01-02T03:04:05.123456Z</published></entry></feed>"
                + "");
    assertEquals(Instant.parse("2024-01-02T03:04:05.123456Z"), read.entries().get(0).published());
  }
}
