package io.periscope.source;

import static org.junit.Assert.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.Test;

/** The feeds pages made for each case name, as a site's address is read. */
public class FeedDiscoveryTest {
  private static List<FeedDiscovery.Found> in(String html, String base) {
    return FeedDiscovery.in(
        html.getBytes(StandardCharsets.UTF_8), "text/html; charset=utf-8", base, 10_000);
  }

  @Test
  public void aBlogsHeadNamesItsFeedsInOrderResolvedAgainstThePage() {
    String page =
        """
        <!doctype html><html><head><title>Blog</title>
        <link rel="stylesheet" href="/style.css">
        <link rel="alternate" type="application/rss+xml" title="Posts" href="/feed.xml">
        <link rel="alternate" type="application/atom+xml" href="atom.xml">
        <link rel="alternate" type="application/feed+json; charset=utf-8" href="https://cdn.example/f.json">
        </head><body><p>Hello</p></body></html>
        """;
    assertEquals(
        List.of(
            new FeedDiscovery.Found("https://blog.example/feed.xml", "Posts", "rss"),
            new FeedDiscovery.Found("https://blog.example/posts/atom.xml", null, "atom"),
            new FeedDiscovery.Found("https://cdn.example/f.json", null, "json")),
        in(page, "https://blog.example/posts/"));
  }

  @Test
  public void aBaseElementRelTokensAndCaseAreHonoured() {
    String page =
        "<html><head><base href=\"https://other.example/x/\"><LINK REL=\"Feed Alternate\""
            + " TYPE=\"Application/RSS+XML\" HREF=\"rss\"></head></html>";
    assertEquals(
        List.of(new FeedDiscovery.Found("https://other.example/x/rss", null, "rss")),
        in(page, "https://blog.example/"));
  }

  @Test
  public void linksThatAreNoFeedsOrNoUsableAddressesAreLeftOut() {
    String page =
        """
        <html><head>
        <link rel="alternate" type="application/json" href="/wp-json/wp/v2/pages/1">
        <link rel="alternate" hreflang="de" href="/de/">
        <link rel="canonical" type="application/rss+xml" href="/not-alternate.xml">
        <link rel="alternate" type="application/rss+xml" href="javascript:alert(1)">
        <link rel="alternate" type="application/rss+xml" href="ftp://files.example/feed">
        <link rel="alternate" type="application/rss+xml" href="/feed">
        <link rel="alternate" type="application/rss+xml" href="/feed">
        </head></html>
        """;
    assertEquals(
        List.of(new FeedDiscovery.Found("https://blog.example/feed", null, "rss")),
        in(page, "https://blog.example/"));
  }

  @Test
  public void aPageNamingNoFeedAndTextThatIsNoPageNameNone() {
    assertEquals(List.of(), in("<html><body><h1>Pricing</h1></body></html>", "https://a.example/"));
    assertEquals(List.of(), in("{\"not\": \"html\"}", "https://a.example/"));
  }

  @Test
  public void aPageNamingThousandsOfFeedsYieldsAtMostTheBound() {
    StringBuilder page = new StringBuilder("<html><head>");
    for (int i = 0; i < 1_000; i++)
      page.append("<link rel=alternate type=application/rss+xml href=/f").append(i).append('>');
    List<FeedDiscovery.Found> found = in(page + "</head></html>", "https://a.example/");
    assertEquals(FeedDiscovery.MAX_FOUND, found.size());
    assertEquals("https://a.example/f0", found.get(0).url());
  }
}
