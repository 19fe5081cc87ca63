package io.periscope.source;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The dates real feeds write: RFC 822 and its variants (day name or not, two-digit years, no
 * seconds, {@code 8:19 pm}, zone names such as {@code CEST}), W3C/ISO 8601 with any number of
 * sub-second digits, a space for the {@code T} and offsets with or without a colon, and bare days.
 * Hand-written: {@code DateTimeFormatter} patterns each take one form and reject the rest, and
 * Rome's parser dropped sub-second digits past three into the minutes. A missing zone is UTC.
 */
public final class FeedDates {
  private static final Pattern ISO =
      Pattern.compile(
          "(\\d{4})(?:-?(\\d{2})(?:-?(\\d{2})"
              + "(?:(?:T|\\s+)(\\d{1,2}):?(\\d{2})(?::?(\\d{1,2})(?:[.,](\\d+))?)?)?)?)?"
              + "\\s*(Z|[+-]\\d{2}(?::?\\d{2})?|[A-Za-z]{1,5})?");
  private static final Pattern RFC822 =
      Pattern.compile(
          "(?:[A-Za-z]+\\.?,?\\s*)?(\\d{1,2})[\\s-]+([A-Za-z]{3,9})\\.?,?[\\s-]+(\\d{2,4})"
              + "(?:[\\sT,]+(\\d{1,2}):(\\d{2})(?::(\\d{2})(?:[.,]\\d+)?)?"
              + "\\s*([AaPp]\\.?[Mm]\\.?)?)?"
              + "\\s*(?:(?:GMT|UTC)?([+-]\\d{1,2}(?::?\\d{2})?)|\\(?([A-Za-z]{1,5})\\)?)?");

  /** {@code Apr 20, 2014 8:19 PM} and {@code Sunday, April 20, 2014}. */
  private static final Pattern MONTH_FIRST =
      Pattern.compile(
          "(?:[A-Za-z]+,?\\s+)?([A-Za-z]{3,9})\\.?\\s+(\\d{1,2}),?\\s+(\\d{4})"
              + "(?:[\\s,]+(\\d{1,2}):(\\d{2})(?::(\\d{2}))?\\s*([AaPp][Mm])?)?"
              + "\\s*(?:([+-]\\d{2}:?\\d{2})|([A-Za-z]{1,5}))?");

  private static final Pattern SPACES = Pattern.compile("\\s+");

  private static final Pattern SLASHED_DAY = Pattern.compile("(\\d{4})/(\\d{1,2})/(\\d{1,2})");

  private static final Map<String, Integer> MONTHS =
      Map.ofEntries(
          Map.entry("jan", 1),
          Map.entry("feb", 2),
          Map.entry("mar", 3),
          Map.entry("apr", 4),
          Map.entry("may", 5),
          Map.entry("jun", 6),
          Map.entry("jul", 7),
          Map.entry("aug", 8),
          Map.entry("sep", 9),
          Map.entry("oct", 10),
          Map.entry("nov", 11),
          Map.entry("dec", 12));

  /** Zone names feeds use, in minutes east of UTC (the military letters as RFC 822 defines). */
  private static final Map<String, Integer> ZONES =
      Map.ofEntries(
          Map.entry("Z", 0),
          Map.entry("UT", 0),
          Map.entry("UTC", 0),
          Map.entry("GMT", 0),
          Map.entry("WET", 0),
          Map.entry("WEST", 60),
          Map.entry("BST", 60),
          Map.entry("CET", 60),
          Map.entry("MET", 60),
          Map.entry("CEST", 120),
          Map.entry("MEST", 120),
          Map.entry("EET", 120),
          Map.entry("EEST", 180),
          Map.entry("MSK", 180),
          Map.entry("IST", 330),
          Map.entry("JST", 540),
          Map.entry("KST", 540),
          Map.entry("AWST", 480),
          Map.entry("ACST", 570),
          Map.entry("AEST", 600),
          Map.entry("AEDT", 660),
          Map.entry("NZST", 720),
          Map.entry("NZDT", 780),
          Map.entry("EST", -300),
          Map.entry("EDT", -240),
          Map.entry("CST", -360),
          Map.entry("CDT", -300),
          Map.entry("MST", -420),
          Map.entry("MDT", -360),
          Map.entry("PST", -480),
          Map.entry("PDT", -420),
          Map.entry("AKST", -540),
          Map.entry("AKDT", -480),
          Map.entry("HST", -600),
          Map.entry("A", -60),
          Map.entry("M", -720),
          Map.entry("N", 60),
          Map.entry("Y", 720));

  private FeedDates() {}

  /** The instant {@code text} names, or empty when it is no date this reads. */
  public static Optional<Instant> parse(String text) {
    if (text == null) return Optional.empty();
    String t = SPACES.matcher(text.strip()).replaceAll(" ");
    if (t.isEmpty()) return Optional.empty();
    Matcher slashed = SLASHED_DAY.matcher(t);
    if (slashed.lookingAt()) { // 2020/1/10 14:33:00, as ISO
      t =
          String.format(
                  Locale.ROOT,
                  "%s-%02d-%02d",
                  slashed.group(1),
                  Integer.parseInt(slashed.group(2)),
                  Integer.parseInt(slashed.group(3)))
              + t.substring(slashed.end());
    }
    try {
      Matcher m = ISO.matcher(t);
      if (m.matches()) return iso(m);
      m = RFC822.matcher(t);
      if (m.matches()) {
        return civil(
            year(m.group(3)), month(m.group(2)), Integer.parseInt(m.group(1)), m, 4, 7, 8, 9);
      }
      m = MONTH_FIRST.matcher(t);
      if (m.matches()) {
        return civil(
            Integer.parseInt(m.group(3)),
            month(m.group(1)),
            Integer.parseInt(m.group(2)),
            m,
            4,
            7,
            8,
            9);
      }
    } catch (DateTimeException | NumberFormatException e) {
      return Optional.empty(); // 31 February, month 13, a zone past ±18 hours
    }
    return Optional.empty();
  }

  private static Optional<Instant> iso(Matcher m) {
    int year = Integer.parseInt(m.group(1));
    int month = m.group(2) == null ? 1 : Integer.parseInt(m.group(2));
    int day = m.group(3) == null ? 1 : Integer.parseInt(m.group(3));
    LocalDate date = LocalDate.of(year, month, day);
    if (m.group(4) == null) return Optional.of(date.atStartOfDay().toInstant(ZoneOffset.UTC));
    int nanos = 0;
    if (m.group(7) != null) {
      String digits = (m.group(7) + "000000000").substring(0, 9);
      nanos = Integer.parseInt(digits);
    }
    LocalDateTime time =
        date.atTime(
            Integer.parseInt(m.group(4)),
            Integer.parseInt(m.group(5)),
            m.group(6) == null ? 0 : Integer.parseInt(m.group(6)),
            nanos);
    Optional<Integer> offset = offsetMinutes(m.group(8), null);
    return offset.map(minutes -> time.toInstant(ZoneOffset.ofTotalSeconds(minutes * 60)));
  }

  /**
   * A day with an optional time (groups from {@code hour}: hour, minute, second, then am/pm at
   * {@code meridiem}, a numeric offset at {@code numeric}, a zone name after it).
   */
  private static Optional<Instant> civil(
      int year, int month, int day, Matcher m, int hour, int meridiem, int numeric, int name) {
    if (month == 0) return Optional.empty();
    LocalDate date = LocalDate.of(year, month, day);
    LocalDateTime time = date.atStartOfDay();
    if (m.group(hour) != null) {
      int h = Integer.parseInt(m.group(hour));
      String half = m.group(meridiem);
      if (half != null) {
        boolean pm = Character.toLowerCase(half.charAt(0)) == 'p';
        h = h % 12 + (pm ? 12 : 0);
      }
      time =
          date.atTime(
              h,
              Integer.parseInt(m.group(hour + 1)),
              m.group(hour + 2) == null ? 0 : Integer.parseInt(m.group(hour + 2)));
    }
    LocalDateTime at = time;
    return offsetMinutes(m.group(numeric), m.group(name))
        .map(minutes -> at.toInstant(ZoneOffset.ofTotalSeconds(minutes * 60)));
  }

  /** Minutes east of UTC; no zone and a zone name not known here are UTC (the day still orders). */
  private static Optional<Integer> offsetMinutes(String numericOrName, String name) {
    String zone = numericOrName != null ? numericOrName : name;
    if (zone == null) return Optional.of(0);
    if (zone.startsWith("+") || zone.startsWith("-")) {
      String digits = zone.substring(1).replace(":", "");
      int hours;
      int minutes = 0;
      if (digits.length() <= 2) hours = Integer.parseInt(digits);
      else {
        hours = Integer.parseInt(digits.substring(0, digits.length() - 2));
        minutes = Integer.parseInt(digits.substring(digits.length() - 2));
      }
      int total = hours * 60 + minutes;
      return Optional.of(zone.startsWith("-") ? -total : total);
    }
    Integer known = ZONES.get(zone.toUpperCase(Locale.ROOT));
    return known == null ? Optional.of(0) : Optional.of(known);
  }

  private static int year(String digits) {
    int year = Integer.parseInt(digits);
    if (digits.length() == 2) return year < 70 ? 2000 + year : 1900 + year;
    return year;
  }

  private static int month(String name) {
    if (name.length() < 3) return 0;
    return MONTHS.getOrDefault(name.substring(0, 3).toLowerCase(Locale.ROOT), 0);
  }
}
