package io.periscope.quiet;

import io.periscope.entity.JsonSerializable;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;

/**
 * A watch's quiet window, {@code start} to {@code end} ("HH:MM", 24-hour), read in {@code timeZone}
 * (an IANA name; null: the watch's schedule zone). The window includes its start and excludes its
 * end; a start after the end crosses midnight (22:00–07:00).
 */
public record QuietHours(String start, String end, String timeZone) implements JsonSerializable {

  /** "HH:MM" with two digits each: what the interface accepts and answers. */
  static final Pattern CLOCK_TIME = Pattern.compile("([01][0-9]|2[0-3]):[0-5][0-9]");

  private static final DateTimeFormatter HH_MM = DateTimeFormatter.ofPattern("HH:mm");

  /** The local time of an "HH:MM" string; throws for anything else. */
  static LocalTime clockTime(String text) {
    if (text == null || !CLOCK_TIME.matcher(text).matches())
      throw new DateTimeParseException("not HH:MM", String.valueOf(text), 0);
    return LocalTime.parse(text, HH_MM);
  }

  /** The zone the window is read in: its own, else {@code scheduleZone}. */
  public ZoneId zone(ZoneId scheduleZone) {
    return timeZone == null ? scheduleZone : ZoneId.of(timeZone);
  }

  /** Whether the local time of {@code at} falls inside the window. */
  boolean contains(ZonedDateTime at) {
    LocalTime t = at.toLocalTime();
    LocalTime from = clockTime(start);
    LocalTime to = clockTime(end);
    if (from.isBefore(to)) return !t.isBefore(from) && t.isBefore(to);
    return !t.isBefore(from) || t.isBefore(to); // crosses midnight
  }

  /** The first end of the window after {@code at}, in {@code at}'s zone. */
  ZonedDateTime endAfter(ZonedDateTime at) {
    ZonedDateTime end = at.toLocalDate().atTime(clockTime(this.end)).atZone(at.getZone());
    return end.isAfter(at) ? end : end.plusDays(1);
  }
}
