package io.periscope.notify;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The operational alerts about watches that fail run after run, throttled per watch and kind: the
 * first failure of a streak is alerted at once, the repeats are summed up in one alert at most
 * every {@code repeatEvery}, and the first good run after a streak sends a recovery alert. So a
 * model outage sends each failing watch's owner a handful of alerts, not one per watch per run;
 * likewise the deliveries that failed for good, per owner and channel ({@link #failedOn}). The
 * streaks live in memory on each node (a restart starts them afresh, with one alert more).
 */
public final class RepeatedAlerts {
  /** How often a streak's repeats are summed up. */
  public static final Duration REPEAT_EVERY = Duration.ofMinutes(60);

  /** Streaks kept at once; past it the oldest is forgotten (its next failure alerts again). */
  static final int MAX_STREAKS = 10_000;

  private final AdminAlerts alerts;
  private final Clock clock;
  private final Duration repeatEvery;

  /** One watch's failures of one kind since its last good run. */
  private static final class Streak {
    Instant lastSent;
    int unsent;
  }

  private final Map<String, Streak> streaks =
      new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Streak> eldest) {
          return size() > MAX_STREAKS;
        }
      };

  public RepeatedAlerts(AdminAlerts alerts, Clock clock, Duration repeatEvery) {
    this.alerts = alerts;
    this.clock = clock;
    this.repeatEvery = repeatEvery;
  }

  /** A run of the watch failed this way: alerted now, summed up later, or counted. */
  public void failed(AdminAlerts.Kind kind, String accountId, String watchId, String detail) {
    repeated(key(kind, accountId, watchId), kind, accountId, watchId, detail);
  }

  /**
   * A delivery of the watch to {@code channel} failed for good: throttled per owner and channel,
   * not per watch, so a dead channel that many watches of an owner use sends one alert and then a
   * summary at most every {@code repeatEvery}, naming the watch of the latest failure. Such a
   * streak ends only when it is forgotten (the channel may stay dead while the watches run well).
   */
  public void failedOn(
      AdminAlerts.Kind kind, String accountId, String watchId, String channel, String detail) {
    repeated(kind.label() + " " + accountId + " " + channel, kind, accountId, watchId, detail);
  }

  private void repeated(
      String key, AdminAlerts.Kind kind, String accountId, String watchId, String detail) {
    Instant now = clock.instant();
    String message;
    synchronized (streaks) {
      Streak streak = streaks.get(key);
      if (streak == null) {
        streak = new Streak();
        streak.lastSent = now;
        streaks.put(key, streak);
        message = detail;
      } else if (!now.isBefore(streak.lastSent.plus(repeatEvery))) {
        message =
            "again, "
                + (streak.unsent + 1)
                + " more time(s) since "
                + streak.lastSent
                + "; the latest: "
                + detail;
        streak.lastSent = now;
        streak.unsent = 0;
      } else {
        streak.unsent++;
        message = null;
      }
    }
    if (message != null) alerts.alert(kind, accountId, watchId, message);
  }

  /** A run of the watch went well: each streak it had ends with a recovery alert. */
  public void succeeded(String accountId, String watchId) {
    for (AdminAlerts.Kind kind : AdminAlerts.Kind.values()) {
      Streak ended;
      synchronized (streaks) {
        ended = streaks.remove(key(kind, accountId, watchId));
      }
      if (ended != null) {
        alerts.alert(
            kind,
            accountId,
            watchId,
            "recovered: the watch ran well again"
                + (ended.unsent > 0
                    ? " (" + ended.unsent + " more failure(s) since the last alert)"
                    : ""));
      }
    }
  }

  private static String key(AdminAlerts.Kind kind, String accountId, String watchId) {
    return kind.label() + " " + accountId + "/" + watchId;
  }
}
