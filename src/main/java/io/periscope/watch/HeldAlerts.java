package io.periscope.watch;

import io.periscope.notify.Alert;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Releasing a watch's held alerts: those due go out as one message per channel — the alert itself
 * when a channel has one, else one alert grouping them under a release id of its own — as
 * deliveries owed in the outbox, with their retries, stable id and signatures.
 */
final class HeldAlerts {
  /** Evidence a grouped alert cites at most. */
  static final int MAX_EVIDENCE = 20;

  /** Summaries a grouped alert lists at most (a daily digest of a busy watch), then a count. */
  static final int MAX_LISTED = 20;

  private HeldAlerts() {}

  /** What is released at {@code now}: the held alerts due by then; empty when none is. */
  static Optional<WatchEntity.HeldReleased> release(
      List<HeldAlert> held, Instant now, Duration retryFor) {
    List<HeldAlert> due = held.stream().filter(h -> !h.releaseAt().isAfter(now)).toList();
    if (due.isEmpty()) return Optional.empty();
    String releaseId = "held-" + due.get(0).runId();
    Map<String, List<HeldAlert>> byChannel = new LinkedHashMap<>();
    for (HeldAlert h : due)
      for (String channel : h.channels())
        byChannel.computeIfAbsent(channel, c -> new ArrayList<>()).add(h);
    List<WatchEntity.Pending> owed = new ArrayList<>();
    Instant until = now.plus(retryFor);
    byChannel.forEach(
        (channel, alerts) -> {
          if (alerts.size() == 1) {
            HeldAlert only = alerts.get(0);
            owed.add(new WatchEntity.Pending(only.runId(), channel, only.alert(), until, null));
          } else {
            Alert grouped = grouped(releaseId, alerts.stream().map(HeldAlert::alert).toList(), now);
            List<String> runs = alerts.stream().map(HeldAlert::runId).toList();
            owed.add(new WatchEntity.Pending(releaseId, channel, grouped, until, null, runs));
          }
        });
    return Optional.of(
        new WatchEntity.HeldReleased(due.stream().map(HeldAlert::runId).toList(), owed));
  }

  /**
   * One alert telling {@code alerts} (oldest first): confirmed when any of them is, at the highest
   * confidence, each summary in turn (the first {@link #MAX_LISTED}), their evidence without
   * repeats.
   */
  static Alert grouped(String releaseId, List<Alert> alerts, Instant at) {
    Alert last = alerts.get(alerts.size() - 1);
    boolean confirmed = alerts.stream().anyMatch(a -> a.strength() == Alert.Strength.CONFIRMED);
    StringBuilder summary = new StringBuilder(alerts.size() + " alerts held back:");
    for (int i = 0; i < Math.min(alerts.size(), MAX_LISTED); i++)
      summary.append('\n').append(i + 1).append(". ").append(alerts.get(i).summary().strip());
    if (alerts.size() > MAX_LISTED)
      summary.append("\n… and ").append(alerts.size() - MAX_LISTED).append(" more");
    Set<String> urls = new LinkedHashSet<>();
    List<Alert.Evidence> evidence = new ArrayList<>();
    for (Alert a : alerts)
      for (Alert.Evidence e : a.evidence())
        if (evidence.size() < MAX_EVIDENCE && urls.add(e.url())) evidence.add(e);
    return new Alert(
        last.owner(),
        last.watchId(),
        last.watchName(),
        confirmed ? Alert.Strength.CONFIRMED : Alert.Strength.WEAK,
        alerts.stream().mapToDouble(Alert::confidence).max().orElse(0),
        summary.toString(),
        evidence,
        last.condition(),
        at,
        releaseId);
  }
}
