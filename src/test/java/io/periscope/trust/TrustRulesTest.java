package io.periscope.trust;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

import io.periscope.source.Item;
import java.util.List;
import java.util.Optional;
import org.junit.Test;

/** The pattern language and which rule a URL gets. */
public class TrustRulesTest {

  private static DomainPattern pattern(String text) {
    return DomainPattern.parse(text)
        .orElseThrow(() -> new AssertionError("not a pattern: " + text));
  }

  @Test
  public void aDomainMatchesItselfAndItsSubdomainsOnly() {
    DomainPattern p = pattern("example.org");
    assertTrue(p.matches("example.org"));
    assertTrue(p.matches("news.example.org"));
    assertTrue(p.matches("a.b.example.org"));
    assertTrue("a fully qualified host", p.matches("example.org."));
    assertFalse("a label boundary, not a suffix", p.matches("badexample.org"));
    assertFalse(p.matches("example.org.evil.net"));
    assertFalse(p.matches("org"));
  }

  @Test
  public void aWildcardMatchesSubdomainsOnly() {
    DomainPattern p = pattern("*.gov");
    assertTrue(p.matches("usa.gov"));
    assertTrue(p.matches("www.usa.gov"));
    assertFalse(p.matches("gov"));
    assertEquals("*.gov", p.text());
  }

  @Test
  public void patternsAreNormalized() {
    assertEquals("example.org", pattern("Example.ORG").text());
    assertEquals("xn--bcher-kva.example", pattern("bücher.example").text());
    assertEquals("*.xn--bcher-kva.example", pattern("*.BÜCHER.example").text());
    assertEquals("localhost", pattern("localhost").text());
  }

  @Test
  public void whatIsNoPatternIsRefused() {
    for (String bad :
        List.of(
            "",
            "*",
            "*.",
            ".example.org",
            "example.org.",
            "example..org",
            "ex ample.org",
            "https://example.org",
            "example.org/path",
            "a.*.example.org",
            "**.example.org",
            "*example.org",
            "-example.org",
            "example-.org",
            "10.0.0.1",
            "192.168.1.1",
            "[::1]",
            "::1",
            "exa_mple.org",
            "example.org:443",
            "a".repeat(64) + ".org",
            ("abc.".repeat(64)) + "org",
            "(.*)\\.org")) {
      assertTrue("refused: " + bad, DomainPattern.parse(bad).isEmpty());
    }
  }

  @Test
  public void theMostSpecificMatchingRuleWins() {
    TrustRules rules =
        TrustRules.of(
            List.of(
                new TrustRule("gov", "established"),
                new TrustRule("*.example.org", "community"),
                new TrustRule("example.org", "unverified"),
                new TrustRule("news.example.org", "official")));
    assertEquals(Optional.of(TrustTier.OFFICIAL), rules.tierFor("https://news.example.org/a"));
    assertEquals(Optional.of(TrustTier.OFFICIAL), rules.tierFor("https://deep.news.example.org/a"));
    assertEquals(
        "the wildcard is more specific than the bare domain for subdomains",
        Optional.of(TrustTier.COMMUNITY),
        rules.tierFor("https://blog.example.org/a"));
    assertEquals(Optional.of(TrustTier.UNVERIFIED), rules.tierFor("http://EXAMPLE.org:8080/a?b"));
    assertEquals(Optional.of(TrustTier.ESTABLISHED), rules.tierFor("https://www.usa.gov/"));
    assertEquals(Optional.empty(), rules.tierFor("https://example.com/"));
    assertEquals(Optional.empty(), rules.tierFor("not a url"));
    assertEquals(Optional.empty(), rules.tierFor(null));
  }

  @Test
  public void aRuleOverridesTheSourcesTrustAndNoRuleKeepsIt() {
    TrustRules rules = TrustRules.of(List.of(new TrustRule("example.org", "unverified")));
    Item ruled = item("https://example.org/a", "official");
    assertEquals("unverified", rules.applyTo(ruled).trust());
    Item other = item("https://example.com/a", "official");
    assertSame(other, rules.applyTo(other));
    Item untrusted = item("https://sub.example.org/a", null);
    assertEquals("unverified", rules.applyTo(untrusted).trust());
  }

  private static Item item(String url, String trust) {
    return new Item(url, "t", url, null, null, "rss", "https://f", trust, List.of());
  }
}
