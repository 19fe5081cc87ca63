package io.periscope.feedback;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/** Counts per window, precision and recall, and the threshold below which neither is given. */
public class QualityTest {
  static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");

  static Feedback on(
      int daysAgo, String outcome, String kind, List<Feedback.ItemLabel> items, boolean missed) {
    Instant ran = NOW.minus(Duration.ofDays(daysAgo));
    return new Feedback(
        "r" + daysAgo + kind + items.size(),
        kind,
        null,
        ran.plusSeconds(60),
        new Feedback.RunSummary(ran, outcome, "s", 0.5),
        items,
        missed ? new Feedback.MissedItem(null, "https://e.org/missed", null) : null);
  }

  static Feedback on(int daysAgo, String outcome, String kind) {
    return on(daysAgo, outcome, kind, List.of(), false);
  }

  static Feedback.ItemLabel relevant(String key, boolean alerted) {
    return new Feedback.ItemLabel(key, Feedback.RELEVANT, key, null, alerted);
  }

  @Test
  public void feedbackIsCountedPerKindInTheWindowItsRunStartedIn() {
    List<Feedback> given =
        List.of(
            on(1, "alert", Feedback.USEFUL),
            on(20, "alert", Feedback.WRONG),
            on(45, "no-match", Feedback.MISSED),
            on(89, "weak-alert", Feedback.USEFUL),
            on(120, "alert", Feedback.USEFUL));
    List<Quality> windows = Quality.windows(given, NOW);
    assertEquals(List.of(30, 90), windows.stream().map(Quality::days).toList());
    assertEquals(NOW.minus(Duration.ofDays(30)), windows.get(0).from());
    assertEquals(Map.of("useful", 1, "wrong", 1, "missed", 0), windows.get(0).feedback());
    assertEquals(Map.of("useful", 2, "wrong", 1, "missed", 1), windows.get(1).feedback());
  }

  @Test
  public void precisionIsTheShareOfRatedAlertsMarkedUsefulFromFiveOn() {
    List<Feedback> given = new ArrayList<>();
    for (int i = 1; i <= 3; i++) given.add(on(i, "alert", Feedback.USEFUL));
    given.add(on(4, "weak-alert", Feedback.WRONG));
    // neither a missed on an alert nor feedback on a run that did not alert rates an alert
    given.add(on(5, "alert", Feedback.MISSED));
    given.add(on(6, "no-match", Feedback.USEFUL));
    Quality four = Quality.of(given, NOW, 30);
    assertEquals(4, four.precision().labels());
    assertEquals(3, four.precision().hits());
    assertNull("four rated alerts are too few", four.precision().value());

    given.add(on(7, "alert", Feedback.USEFUL));
    Quality five = Quality.of(given, NOW, 30);
    assertEquals(5, five.precision().labels());
    assertEquals(0.8, five.precision().value(), 1e-9);
  }

  @Test
  public void recallIsTheShareOfRelevantItemsThatAlertedCountingMissedOnes() {
    List<Feedback> given =
        List.of(
            on(
                1,
                "alert",
                Feedback.USEFUL,
                List.of(
                    relevant("a", true),
                    relevant("b", false),
                    new Feedback.ItemLabel("c", Feedback.IRRELEVANT, "c", null, false)),
                false),
            on(2, "no-match", Feedback.MISSED, List.of(relevant("d", false)), true),
            on(3, "alert", Feedback.USEFUL, List.of(relevant("e", true)), false));
    Quality q = Quality.of(given, NOW, 30);
    assertEquals(Map.of("relevant", 4, "irrelevant", 1), q.items());
    assertEquals("four marked relevant and one missed", 5, q.recall().labels());
    assertEquals(2, q.recall().hits());
    assertEquals(0.4, q.recall().value(), 1e-9);

    Quality older = Quality.of(given.subList(0, 2), NOW, 30);
    assertEquals(4, older.recall().labels());
    assertNull(older.recall().value());
  }

  @Test
  public void aMissedItemAlsoMarkedRelevantCountsOnce() {
    Feedback f =
        new Feedback(
            "r1",
            Feedback.MISSED,
            null,
            NOW,
            new Feedback.RunSummary(NOW.minusSeconds(60), "no-match", null, null),
            List.of(relevant("k", false)),
            new Feedback.MissedItem("k", "https://e.org/k", "K"));
    assertEquals(1, Quality.of(List.of(f), NOW, 30).recall().labels());
  }

  @Test
  public void noFeedbackGivesZerosAndNoShares() {
    Quality q = Quality.of(List.of(), NOW, 90);
    assertEquals(Map.of("useful", 0, "wrong", 0, "missed", 0), q.feedback());
    assertEquals(0, q.precision().labels());
    assertNull(q.precision().value());
    assertNull(q.recall().value());
  }
}
