package io.periscope.source;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertNull;

import org.junit.Test;

public class NormalizedUrlsTest {
  @Test
  public void oneArticleLinkedInDifferentWaysHasOneIdentity() {
    String plain = NormalizedUrls.forIdentity("https://news.example/a/b?id=3");
    for (String variant :
        new String[] {
          "HTTPS://News.Example:443/a/b?id=3",
          "https://news.example/a/b?utm_source=rss&id=3&utm_medium=feed",
          "https://news.example/a/b?id=3&fbclid=IwAR0x&gclid=Cj0&mc_cid=1&mc_eid=2&ref_src=twsrc",
          "https://news.example/a/b?id=3#xtor=RSS-3208",
          "https://news.example/a/b?id=3#utm_source=feed&utm_campaign=x",
          "https://news.example/a/b?id=3#:~:text=launch%20date",
          "https://news.example/a/b?id=3#",
          "  https://news.example/a/b?id=3  ",
        }) {
      assertEquals(variant, plain, NormalizedUrls.forIdentity(variant));
    }
    assertEquals(
        "http://news.example/a", NormalizedUrls.forIdentity("http://NEWS.example:80/a?utm_x=1"));
  }

  @Test
  public void whatTellsPagesOrPartsApartIsKept() {
    String[][] apart = {
      // a day's page with one anchor per post (scripting.com), a comment feed's anchors
      {
        "http://scripting.com/2017/06/26.html#a080605",
        "http://scripting.com/2017/06/26.html#a030658"
      },
      // parameters a site reads for content, the path's case, a port that is not the default
      {"https://github.com/o/r/blob/x?ref=main", "https://github.com/o/r/blob/x?ref=dev"},
      {"https://e.example/A", "https://e.example/a"},
      {"https://e.example:8443/a", "https://e.example/a"},
    };
    for (String[] pair : apart)
      assertNotEquals(
          pair[0], NormalizedUrls.forIdentity(pair[0]), NormalizedUrls.forIdentity(pair[1]));
    assertEquals(
        "https://e.example/a?page=2&utm=3",
        NormalizedUrls.forIdentity("https://e.example/a?page=2&utm=3&utm_term=x"));
  }

  @Test
  public void aLinkIsShownAsWrittenUnlessTrackingWasDropped() {
    assertEquals(
        "http://www.詹姆斯.com/a.html", NormalizedUrls.forDisplay("http://www.詹姆斯.com/a.html"));
    assertEquals("HTTP://E.example", NormalizedUrls.forDisplay("HTTP://E.example"));
    assertEquals(
        "https://e.example/a?id=3",
        NormalizedUrls.forDisplay("https://e.example/a?utm_source=rss&id=3#xtor=RSS-1"));
    assertEquals("https://e.example/a", NormalizedUrls.forDisplay("https://e.example/a?fbclid=x"));
  }

  @Test
  public void whatIsNoHttpUrlIsItself() {
    assertEquals("tag:example.com,2024:1", NormalizedUrls.forIdentity(" tag:example.com,2024:1 "));
    assertEquals("/relative?utm_source=x", NormalizedUrls.forDisplay("/relative?utm_source=x"));
    assertNull(NormalizedUrls.forIdentity(null));
    assertNull(NormalizedUrls.forDisplay(null));
  }
}
