package io.periscope.run;

import io.periscope.llm.Verdict;
import io.periscope.source.Item;
import io.periscope.trust.TrustTier;
import io.periscope.watch.RunRecord;
import io.periscope.watch.Watch;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Whether a judged run alerts: the watch's thresholds, then the evidence and trust the verdict
 * cites. Pure, so a live run and a backtest of past runs decide alike.
 */
public final class AlertRule {
  private AlertRule() {}

  /** The outcome of a judged run, and the rule that decided it, as the run record says it. */
  public record Decision(String outcome, String rule) {}

  /**
   * The alert rule (docs/model-protocol.md, "Evidence and trust"): thresholds first; then a
   * confirmed alert needs at least one cited item among this run's judged items, and, when the
   * strongest cited trust is {@code community} or {@code unverified}, citations from two different
   * domains. A confirmed alert that misses either is at most a weak one (none without a
   * weakThreshold).
   */
  public static Decision decide(Watch watch, Verdict verdict, String tier) {
    String outcome = outcomeOf(watch, verdict.met(), verdict.confidence());
    if (outcome.equals(RunRecord.NO_MATCH))
      return new Decision(outcome, "not met at or above a threshold");
    if (outcome.equals(RunRecord.WEAK_ALERT))
      return new Decision(outcome, "met at or above weakThreshold, below threshold");
    String missing = null;
    if (verdict.evidence().isEmpty()) {
      missing = "no cited item among this run's judged items";
    } else if (TrustTier.fromWire(tier)
        .filter(t -> t.compareTo(TrustTier.ESTABLISHED) > 0)
        .isPresent()) {
      long domains =
          verdict.evidence().stream()
              .map(e -> domainOf(e.url()))
              .filter(Objects::nonNull)
              .distinct()
              .count();
      if (domains < 2)
        missing = "the strongest cited trust is " + tier + " and only one domain is cited";
    }
    if (missing == null) {
      return new Decision(
          RunRecord.ALERT,
          "confirmed: met at or above threshold, "
              + verdict.evidence().size()
              + " cited item(s)"
              + (tier == null ? "" : ", strongest trust " + tier));
    }
    return watch.weakThreshold() != null
        ? new Decision(RunRecord.WEAK_ALERT, "weak, not confirmed: " + missing)
        : new Decision(RunRecord.NO_MATCH, "no alert, not confirmed: " + missing);
  }

  private static String domainOf(String url) {
    try {
      String host = java.net.URI.create(url).getHost();
      return host == null ? null : host.toLowerCase(java.util.Locale.ROOT);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** alert, weak-alert or no-match by the watch's thresholds. */
  static String outcomeOf(Watch watch, boolean met, double confidence) {
    if (met && confidence >= watch.threshold()) return RunRecord.ALERT;
    if (met && watch.weakThreshold() != null && confidence >= watch.weakThreshold())
      return RunRecord.WEAK_ALERT;
    return RunRecord.NO_MATCH;
  }

  /**
   * The strongest trust among the cited items (their rules' or their sources'); null when none is
   * known.
   */
  static String corroboratingTier(List<Verdict.Evidence> evidence, List<Item> items) {
    Map<String, String> trustByUrl = new LinkedHashMap<>();
    items.forEach(
        i -> {
          if (i.url() != null && i.trust() != null) trustByUrl.putIfAbsent(i.url(), i.trust());
        });
    return corroboratingTier(evidence, trustByUrl);
  }

  /**
   * The strongest trust tier among the cited URLs, by {@code trustByUrl}; null when none has one.
   */
  public static String corroboratingTier(
      List<Verdict.Evidence> evidence, Map<String, String> trustByUrl) {
    return evidence.stream()
        .map(e -> trustByUrl.get(e.url()))
        .filter(Objects::nonNull)
        .map(TrustTier::fromWire)
        .flatMap(Optional::stream)
        .min(Comparator.naturalOrder())
        .map(TrustTier::wire)
        .orElse(null);
  }
}
