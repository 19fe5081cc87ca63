package io.periscope.notify;

import com.typesafe.config.Config;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The operator's alerts throttled per account and per instance, on top of the per-watch throttle
 * ({@link RepeatedAlerts}), so one account's failing watches cannot bury the operator's channel:
 *
 * <ul>
 *   <li>an account's alerts are gathered while they keep coming ({@code gather} after the latest,
 *       {@link #MAX_GATHER} after the first), then go as one: the alert itself when it was one,
 *       else "bob: 25 watches failing" with the kinds and the latest detail;
 *   <li>at most {@code perAccountPerHour} such alerts an account and {@code perInstancePerHour} in
 *       all (the service's own alerts included) go out each hour; past either, alerts are held;
 *   <li>each hour, one summary names what was held, per account.
 * </ul>
 *
 * It lives in memory on each serving node, like the per-watch throttle (a restart starts afresh).
 * The command line sends each alert at once: it may exit before a gathered one would go.
 */
public final class AlertBudget implements AutoCloseable {
  /** The longest an account's alerts are gathered, however they keep coming. */
  static final Duration MAX_GATHER = Duration.ofMinutes(1);

  /** How often what was held is summed up, and the hour's counts start again. */
  static final Duration SUMMARY_EVERY = Duration.ofHours(1);

  /** The summary's name for the service's own alerts (no account's). */
  static final String SERVICE = "the service";

  /** {@code periscope.notify.admin-alerts} (ADMIN_ALERTS_*); a limit of 0 is none. */
  public record Settings(Duration gather, int perAccountPerHour, int perInstancePerHour) {
    public static Settings from(Config config) {
      Config c = config.getConfig("periscope.notify.admin-alerts");
      return new Settings(
          c.getDuration("gather"),
          Math.max(0, c.getInt("per-account-per-hour")),
          Math.max(0, c.getInt("per-hour")));
    }
  }

  /** Where an admitted alert goes: {@link AdminAlerts}' own sending. */
  @FunctionalInterface
  interface Out {
    void send(AdminAlerts.Kind kind, Optional<String> subject, String detail);
  }

  /** One account's alerts while they are gathered. */
  private static final class Gathering {
    final long first;
    long latest;
    int alerts;
    final Set<String> watches = new LinkedHashSet<>();
    final Map<AdminAlerts.Kind, Integer> kinds = new LinkedHashMap<>();
    AdminAlerts.Kind lastKind;
    String lastWatch;
    String lastDetail;

    Gathering(long first) {
      this.first = first;
    }

    void add(AdminAlerts.Kind kind, String watchId, String detail, long at) {
      latest = at;
      alerts++;
      watches.add(watchId);
      kinds.merge(kind, 1, Integer::sum);
      lastKind = kind;
      lastWatch = watchId;
      lastDetail = detail;
    }
  }

  /** What an account (or the service) had held this hour. */
  private static final class Held {
    int alerts;
    final Set<String> watches = new LinkedHashSet<>();
  }

  private final Settings settings;
  private final Out out;
  private final ScheduledExecutorService timer;

  private final Map<String, Gathering> gathering = new HashMap<>();
  private final Map<String, Integer> sentThisHour = new HashMap<>();
  private int instanceSentThisHour;
  private final Map<String, Held> held = new TreeMap<>();

  AlertBudget(Settings settings, Out out) {
    this.settings = settings;
    this.out = out;
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "periscope-alert-budget");
              t.setDaemon(true);
              return t;
            });
    long hour = SUMMARY_EVERY.toMillis();
    timer.scheduleAtFixedRate(this::summarize, hour, hour, TimeUnit.MILLISECONDS);
  }

  /** An alert about one of {@code accountId}'s watches: gathered with the account's others. */
  void watchAlert(AdminAlerts.Kind kind, String accountId, String watchId, String detail) {
    long now = System.nanoTime(); // the operator's time, whatever clock the service runs on
    boolean opened;
    synchronized (this) {
      Gathering g = gathering.get(accountId);
      opened = g == null;
      if (opened) {
        g = new Gathering(now);
        gathering.put(accountId, g);
      }
      g.add(kind, watchId, detail, now);
    }
    if (opened) later(() -> flush(accountId), settings.gather());
  }

  /** An alert about the service itself: sent at once within the hour's budget, else held. */
  void serviceAlert(AdminAlerts.Kind kind, String detail) {
    boolean admitted;
    synchronized (this) {
      admitted = admit(null);
      if (!admitted) hold(SERVICE, 1, Set.of());
    }
    if (admitted) out.send(kind, Optional.empty(), detail);
  }

  /** Sends the account's gathered alerts once they stop coming (or have waited long enough). */
  private void flush(String accountId) {
    long now = System.nanoTime();
    Gathering g;
    boolean admitted;
    synchronized (this) {
      g = gathering.get(accountId);
      if (g == null) return;
      long wait =
          Math.min(
              g.latest + settings.gather().toNanos() - now, g.first + MAX_GATHER.toNanos() - now);
      if (wait > 0) {
        later(() -> flush(accountId), Duration.ofNanos(wait));
        return;
      }
      gathering.remove(accountId);
      admitted = admit(accountId);
      if (!admitted) hold(accountId, g.alerts, g.watches);
    }
    if (!admitted) return;
    if (g.alerts == 1) {
      out.send(g.lastKind, Optional.of(accountId + "/" + g.lastWatch), g.lastDetail);
      return;
    }
    List<String> kinds = new ArrayList<>();
    g.kinds.forEach((kind, n) -> kinds.add(kind.label() + " " + n));
    out.send(
        AdminAlerts.Kind.WATCHES_FAILING,
        Optional.empty(),
        accountId
            + ": "
            + g.watches.size()
            + (g.watches.size() == 1 ? " watch" : " watches")
            + " failing ("
            + g.alerts
            + " alerts: "
            + String.join(", ", kinds)
            + "); the latest, "
            + accountId
            + "/"
            + g.lastWatch
            + ": "
            + g.lastDetail);
  }

  /**
   * Whether one more alert of {@code accountId} (null: the service's) fits this hour; counts it.
   */
  private boolean admit(String accountId) {
    int limit = settings.perInstancePerHour();
    if (limit > 0 && instanceSentThisHour >= limit) return false;
    if (accountId != null) {
      int perAccount = settings.perAccountPerHour();
      if (perAccount > 0 && sentThisHour.getOrDefault(accountId, 0) >= perAccount) return false;
      sentThisHour.merge(accountId, 1, Integer::sum);
    }
    instanceSentThisHour++;
    return true;
  }

  private void hold(String accountId, int alerts, Set<String> watches) {
    Held h = held.computeIfAbsent(accountId, k -> new Held());
    h.alerts += alerts;
    h.watches.addAll(watches);
  }

  /** The hour is over: what was held goes in one alert, and the counts start again. */
  void summarize() {
    Map<String, Held> summed;
    synchronized (this) {
      summed = new TreeMap<>(held);
      held.clear();
      sentThisHour.clear();
      instanceSentThisHour = 0;
    }
    if (summed.isEmpty()) return;
    int total = summed.values().stream().mapToInt(h -> h.alerts).sum();
    List<String> each = new ArrayList<>();
    summed.forEach(
        (accountId, h) ->
            each.add(
                accountId
                    + " "
                    + h.alerts
                    + (h.watches.isEmpty()
                        ? ""
                        : " ("
                            + h.watches.size()
                            + (h.watches.size() == 1 ? " watch)" : " watches)"))));
    out.send(
        AdminAlerts.Kind.ALERTS_HELD,
        Optional.empty(),
        total
            + " alert(s) held in the last hour past the operator's alert budget: "
            + String.join(", ", each));
  }

  /** Stops the timer: alerts still gathered or held are dropped (the node is stopping). */
  @Override
  public void close() {
    timer.shutdownNow();
  }

  private void later(Runnable task, Duration delay) {
    timer.schedule(task, Math.max(0, delay.toMillis()), TimeUnit.MILLISECONDS);
  }
}
