package io.periscope.entity;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The times something happened within a sliding span, oldest first: what an entity keeps to count a
 * budget (mails an hour, changes a day) across restarts and nodes.
 */
public final class RecentTimes {
  private RecentTimes() {}

  /** The times of {@code times} after {@code now - span}. */
  public static List<Instant> within(List<Instant> times, Instant now, Duration span) {
    Instant since = now.minus(span);
    return times.stream().filter(t -> t.isAfter(since)).toList();
  }

  /** {@link #within} with {@code at} added. */
  public static List<Instant> adding(List<Instant> times, Instant at, Duration span) {
    List<Instant> next = new ArrayList<>(within(times, at, span));
    next.add(at);
    return List.copyOf(next);
  }

  /** Whether one more fits under {@code limit} (0 or less: no limit). */
  public static boolean room(List<Instant> times, Instant now, Duration span, int limit) {
    return limit <= 0 || within(times, now, span).size() < limit;
  }
}
