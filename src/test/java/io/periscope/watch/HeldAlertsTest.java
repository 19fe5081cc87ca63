package io.periscope.watch;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.periscope.notify.Alert;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.Test;

/** What a release of held alerts owes: one delivery per channel, grouping what is due for it. */
public class HeldAlertsTest {
  static final Instant DUE = Instant.parse("2026-01-11T07:00:00Z");

  static Alert alert(int n, Alert.Strength strength, double confidence, String url) {
    return new Alert(
        "alice",
        "acme",
        "Acme",
        strength,
        confidence,
        "Summary " + n,
        List.of(new Alert.Evidence("item " + n, url)),
        "Acme sets a date",
        DUE.minusSeconds(3600 - n),
        "run-" + n);
  }

  static HeldAlert held(int n, List<String> channels, Instant releaseAt) {
    return new HeldAlert(
        "run-" + n, channels, alert(n, Alert.Strength.WEAK, 0.5, "https://e.org/" + n), releaseAt);
  }

  @Test
  public void eachChannelGetsOneDeliveryTheAloneAlertItselfTheOthersGrouped() {
    List<HeldAlert> held =
        List.of(
            held(1, List.of("telegram", "push"), DUE),
            held(2, List.of("telegram"), DUE),
            held(3, List.of("telegram"), DUE.plusSeconds(1))); // not due yet
    WatchEntity.HeldReleased released =
        HeldAlerts.release(held, DUE, Duration.ofHours(24)).orElseThrow();
    assertEquals(List.of("run-1", "run-2"), released.runIds());
    assertEquals(2, released.owed().size());
    WatchEntity.Pending grouped = released.owed().get(0);
    assertEquals("telegram", grouped.channel());
    assertEquals("held-run-1", grouped.runId());
    assertEquals(grouped.runId(), grouped.alert().runId());
    assertEquals(List.of("run-1", "run-2"), grouped.carries());
    assertEquals(DUE.plus(Duration.ofHours(24)), grouped.retryUntil());
    WatchEntity.Pending alone = released.owed().get(1);
    assertEquals("push", alone.channel());
    assertEquals("run-1", alone.runId());
    assertEquals(held.get(0).alert(), alone.alert());
    assertEquals(List.of(), alone.carries());
    assertTrue(HeldAlerts.release(held, DUE.minusMillis(1), Duration.ofHours(1)).isEmpty());
  }

  @Test
  public void aGroupedAlertIsConfirmedWhenAnyIsListsTheirSummariesAndBoundsItsLength() {
    List<Alert> alerts = new ArrayList<>();
    alerts.add(alert(1, Alert.Strength.WEAK, 0.5, "https://e.org/same"));
    alerts.add(alert(2, Alert.Strength.CONFIRMED, 0.9, "https://e.org/same"));
    for (int n = 3; n <= 25; n++)
      alerts.add(alert(n, Alert.Strength.WEAK, 0.6, "https://e.org/" + n));
    Alert grouped = HeldAlerts.grouped("held-x", alerts, DUE);
    assertEquals(Alert.Strength.CONFIRMED, grouped.strength());
    assertEquals(0.9, grouped.confidence(), 0);
    assertEquals(DUE, grouped.at());
    String summary = grouped.summary();
    assertTrue(summary, summary.startsWith("25 alerts held back:\n1. Summary 1\n2. Summary 2\n"));
    assertTrue(summary, summary.contains("\n20. Summary 20\n… and 5 more"));
    assertTrue(summary, !summary.contains("Summary 21"));
    assertEquals(
        "a repeated link once, at most 20", HeldAlerts.MAX_EVIDENCE, grouped.evidence().size());
    assertEquals("https://e.org/same", grouped.evidence().get(0).url());
    assertEquals("https://e.org/3", grouped.evidence().get(1).url());
  }
}
