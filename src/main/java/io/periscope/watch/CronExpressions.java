package io.periscope.watch;

import com.cronutils.model.Cron;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Five-field UNIX cron expressions, evaluated in a watch's time zone as cron-utils evaluates them:
 * on the day of a daylight-saving change, a time the change skips does not fire that day, and a
 * time that happens twice fires once, at its first occurrence.
 */
public final class CronExpressions {
  private static final CronParser PARSER =
      new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));

  // Parsing is most of the cost of a create and of every scheduled run's next fire time, and
  // watches share a few expressions; a parsed expression is immutable, so one is kept per
  // expression (emptied past the bound).
  private static final int KEPT = 4096;
  private static final Map<String, ExecutionTime> DUE_TIMES = new ConcurrentHashMap<>();

  // Watches due at one minute mostly share an expression and a zone, so each of them would compute
  // the same next due time from the same due time; the answer is kept per (expression, zone,
  // after) for the others (emptied past the bound, which a minute's distinct schedules stay under).
  private record After(String expression, ZoneId zone, Instant after) {}

  private static final Map<After, Instant> NEXT = new ConcurrentHashMap<>();

  private CronExpressions() {}

  /** Checks an expression: throws with a message saying why it is not a usable five-field cron. */
  public static void check(String expression) {
    dueTimes(expression);
  }

  /**
   * The time zone of an IANA name (such as {@code Europe/Berlin} or {@code UTC}); throws with a
   * message saying what is expected. Offsets and abbreviations are not names: a fixed offset would
   * not follow its region's daylight-saving changes.
   */
  public static ZoneId zone(String name) {
    if (name == null || !ZoneId.getAvailableZoneIds().contains(name)) {
      throw new IllegalArgumentException(
          "must be an IANA time zone name, such as Europe/Berlin, America/New_York or UTC");
    }
    return ZoneId.of(name);
  }

  /**
   * The next fire time after a due time (or a change) at {@code after}, the expression read in
   * {@code zone}: the first due time after it, unless that is already past at {@code now} — slots
   * missed while nothing ran are not made up one by one — then the first due time after {@code
   * now}.
   */
  public static Instant nextFireAfter(String expression, ZoneId zone, Instant after, Instant now) {
    Instant next = nextAfter(expression, zone, after);
    return next.isAfter(now) ? next : nextAfter(expression, zone, now);
  }

  private static Instant nextAfter(String expression, ZoneId zone, Instant after) {
    After key = new After(expression, zone, after);
    Instant known = NEXT.get(key);
    if (known != null) return known;
    Instant next = dueTimes(expression).nextExecution(after.atZone(zone)).orElseThrow().toInstant();
    if (NEXT.size() >= KEPT) NEXT.clear();
    NEXT.put(key, next);
    return next;
  }

  /**
   * The shortest time between two due times of a valid expression: over a year of them from a fixed
   * start (the pattern repeats within one), or its first thousand, which is enough for any
   * expression that fires often.
   */
  public static java.time.Duration shortestInterval(String expression) {
    ExecutionTime times = dueTimes(expression);
    ZonedDateTime at = ZonedDateTime.of(2001, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);
    ZonedDateTime end = at.plusYears(1).plusDays(7);
    java.time.Duration shortest = null;
    ZonedDateTime previous = times.nextExecution(at).orElseThrow();
    for (int i = 0; i < 1000 && previous.isBefore(end); i++) {
      java.util.Optional<ZonedDateTime> next = times.nextExecution(previous);
      if (next.isEmpty()) break;
      java.time.Duration gap = java.time.Duration.between(previous, next.get());
      if (shortest == null || gap.compareTo(shortest) < 0) shortest = gap;
      previous = next.get();
    }
    return shortest == null ? java.time.Duration.ofDays(366) : shortest;
  }

  private static ExecutionTime dueTimes(String expression) {
    ExecutionTime known = DUE_TIMES.get(expression);
    if (known != null) return known;
    ExecutionTime parsed = ExecutionTime.forCron(parse(expression));
    if (DUE_TIMES.size() >= KEPT) DUE_TIMES.clear();
    DUE_TIMES.put(expression, parsed);
    return parsed;
  }

  private static final String[] FIELDS = {"minute", "hour", "day of the month", "month", "weekday"};
  private static final String[] RANGES = {
    "from 0 to 59",
    "from 0 to 23",
    "from 1 to 31",
    "from 1 to 12 or a month's name",
    "from 0 to 7 or a day's name"
  };

  private static Cron parse(String expression) {
    String trimmed = expression.trim();
    String[] fields = trimmed.isEmpty() ? new String[0] : trimmed.split("\\s+");
    if (fields.length != 5) {
      throw new IllegalArgumentException(
          "it has " + fields.length + " parts; it needs five (minute hour day month weekday)");
    }
    Cron cron;
    try {
      cron = PARSER.parse(trimmed).validate();
    } catch (IllegalArgumentException e) {
      // the parser's own text ("Failed to parse cron expression. Value 61 not in range [0, 59]")
      // is no sentence for a person: say which part is wrong and what it takes
      throw new IllegalArgumentException(wrongPart(fields));
    }
    ZonedDateTime probe = ZonedDateTime.of(2000, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);
    if (ExecutionTime.forCron(cron).nextExecution(probe).isEmpty()) {
      throw new IllegalArgumentException("it never comes due");
    }
    return cron;
  }

  /** The first part the parser refuses when every other part is "*", said for a person. */
  private static String wrongPart(String[] fields) {
    for (int i = 0; i < fields.length; i++) {
      String[] alone = {"*", "*", "*", "*", "*"};
      alone[i] = fields[i];
      try {
        PARSER.parse(String.join(" ", alone)).validate();
      } catch (IllegalArgumentException e) {
        return "its " + FIELDS[i] + " is " + fields[i] + ", which must be " + RANGES[i];
      }
    }
    return "its parts do not make a schedule together (minute hour day month weekday)";
  }
}
