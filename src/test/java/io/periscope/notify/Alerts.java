package io.periscope.notify;

import java.time.Instant;
import java.util.List;

/** Alerts for the tests. */
final class Alerts {
  static final Instant AT = Instant.parse("2025-05-01T12:00:00Z");
  static final String RUN = "3b1f7a52-8c1e-4d7a-9f40-2c5e7d1a9b63";

  private Alerts() {}

  static Alert confirmed() {
    return ofRun(RUN);
  }

  /** The confirmed alert of run {@code runId}: its id is another for each run. */
  static Alert ofRun(String runId) {
    return new Alert(
        "alice",
        "acme-launch",
        "Acme launch",
        Alert.Strength.CONFIRMED,
        0.92,
        "Acme set the launch date for <May 3> & said so.",
        List.of(
            new Alert.Evidence(
                "Acme sets launch date", "https://news.example.com/acme?id=1&ref=feed")),
        "Acme announces a launch date",
        AT,
        runId);
  }

  static Alert weak() {
    return new Alert(
        "alice",
        "acme-launch",
        "Acme launch",
        Alert.Strength.WEAK,
        0.61,
        "Acme hints at a date.",
        List.of(new Alert.Evidence("Acme hints at a date", "https://news.example.com/hint")),
        "Acme announces a launch date",
        AT,
        RUN);
  }

  static Alert withEvidence(int count) {
    List<Alert.Evidence> evidence = new java.util.ArrayList<>();
    for (int i = 0; i < count; i++) {
      evidence.add(
          new Alert.Evidence(
              "Item number " + i + " about the Acme launch, with a longish title <" + i + ">",
              "https://news.example.com/articles/" + i + "?a=1&b=2"));
    }
    return new Alert(
        "alice",
        "acme-launch",
        "Acme launch",
        Alert.Strength.CONFIRMED,
        0.9,
        "Many items.",
        evidence,
        "Acme announces a launch date",
        AT,
        RUN);
  }
}
