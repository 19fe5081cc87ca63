package io.periscope.run;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import io.periscope.llm.Verdict;
import io.periscope.source.Item;
import io.periscope.testing.TestWatches;
import io.periscope.watch.RunRecord;
import io.periscope.watch.Watch;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/** The alert rule alone: thresholds, then cited evidence, then corroboration of weak trust. */
public class AlertRuleTest {
  private static final Watch CONFIRMED_ONLY = TestWatches.acme("acme", null);
  private static final Watch WITH_WEAK = TestWatches.acme("acme", 0.5);

  private static Verdict verdict(boolean met, double confidence, String... citedUrls) {
    return new Verdict(
        met,
        confidence,
        "summary",
        List.of(citedUrls).stream().map(u -> new Verdict.Evidence(u, "title", "quote")).toList(),
        "reasoning");
  }

  @Test
  public void belowEveryThresholdOrNotMetIsNoMatch() {
    assertEquals(
        RunRecord.NO_MATCH,
        AlertRule.decide(CONFIRMED_ONLY, verdict(true, 0.79, "https://a.example/1"), "official")
            .outcome());
    assertEquals(
        RunRecord.NO_MATCH,
        AlertRule.decide(WITH_WEAK, verdict(false, 0.99, "https://a.example/1"), "official")
            .outcome());
    assertEquals(
        "met at or above weakThreshold, below threshold",
        AlertRule.decide(WITH_WEAK, verdict(true, 0.6, "https://a.example/1"), "official").rule());
  }

  @Test
  public void aConfirmedAlertNeedsACitedItem() {
    AlertRule.Decision uncited = AlertRule.decide(WITH_WEAK, verdict(true, 0.9), "official");
    assertEquals(RunRecord.WEAK_ALERT, uncited.outcome());
    assertEquals(
        "weak, not confirmed: no cited item among this run's judged items", uncited.rule());
    assertEquals(
        RunRecord.NO_MATCH, AlertRule.decide(CONFIRMED_ONLY, verdict(true, 0.9), null).outcome());

    AlertRule.Decision cited =
        AlertRule.decide(CONFIRMED_ONLY, verdict(true, 0.9, "https://a.example/1"), "official");
    assertEquals(RunRecord.ALERT, cited.outcome());
    assertEquals(
        "confirmed: met at or above threshold, 1 cited item(s), strongest trust official",
        cited.rule());
  }

  @Test
  public void weakTrustNeedsTwoDomains() {
    Verdict oneDomain = verdict(true, 0.9, "https://a.example/1", "https://A.example/2");
    assertEquals(
        RunRecord.NO_MATCH, AlertRule.decide(CONFIRMED_ONLY, oneDomain, "community").outcome());
    assertTrue(
        AlertRule.decide(WITH_WEAK, oneDomain, "unverified")
            .rule()
            .endsWith("the strongest cited trust is unverified and only one domain is cited"));
    Verdict twoDomains = verdict(true, 0.9, "https://a.example/1", "https://b.example/2");
    assertEquals(
        RunRecord.ALERT, AlertRule.decide(CONFIRMED_ONLY, twoDomains, "community").outcome());
    assertEquals(
        RunRecord.ALERT, AlertRule.decide(CONFIRMED_ONLY, oneDomain, "established").outcome());
  }

  @Test
  public void theStrongestCitedTrustWins() {
    List<Verdict.Evidence> cited =
        verdict(true, 1, "https://a.example/1", "https://b.example/2").evidence();
    assertEquals(
        "established",
        AlertRule.corroboratingTier(
            cited,
            Map.of(
                "https://a.example/1", "unverified",
                "https://b.example/2", "established",
                "https://c.example/3", "official")));
    assertNull(AlertRule.corroboratingTier(cited, Map.of("https://c.example/3", "official")));
    assertEquals(
        "community",
        AlertRule.corroboratingTier(
            cited, List.of(item("https://a.example/1", "community"), item("https://z/", null))));
  }

  private static Item item(String url, String trust) {
    return new Item(
        url, "title", url, "", null, "rss", "https://example.org/feed", trust, List.of());
  }
}
