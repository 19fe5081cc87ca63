package io.periscope.watch;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import java.time.Instant;
import java.time.ZoneId;
import org.junit.Test;

/** Cron expressions read in a time zone, across daylight-saving changes. */
public class CronExpressionsTest {
  private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

  private static Instant next(String expression, ZoneId zone, String after) {
    Instant at = Instant.parse(after);
    return CronExpressions.nextFireAfter(expression, zone, at, at);
  }

  @Test
  public void nineInTheMorningFollowsTheZonesOffsetThroughTheYear() {
    assertEquals(
        Instant.parse("2026-01-15T08:00:00Z"), next("0 9 * * *", BERLIN, "2026-01-15T00:00:00Z"));
    assertEquals(
        Instant.parse("2026-07-15T07:00:00Z"), next("0 9 * * *", BERLIN, "2026-07-15T00:00:00Z"));
  }

  @Test
  public void aTimeTheSpringChangeSkipsDoesNotFireThatDay() {
    // 2026-03-29 in Berlin: 02:00 CET becomes 03:00 CEST, so 02:30 does not exist that day
    assertEquals(
        Instant.parse("2026-03-28T01:30:00Z"), next("30 2 * * *", BERLIN, "2026-03-28T00:00:00Z"));
    assertEquals(
        Instant.parse("2026-03-30T00:30:00Z"), next("30 2 * * *", BERLIN, "2026-03-28T02:00:00Z"));
  }

  @Test
  public void aTimeTheAutumnChangeRepeatsFiresOnceAtItsFirstOccurrence() {
    // 2026-10-25 in Berlin: 03:00 CEST becomes 02:00 CET, so 02:30 happens twice
    assertEquals(
        Instant.parse("2026-10-25T00:30:00Z"), next("30 2 * * *", BERLIN, "2026-10-24T23:00:00Z"));
    assertEquals(
        Instant.parse("2026-10-26T01:30:00Z"), next("30 2 * * *", BERLIN, "2026-10-25T00:30:00Z"));
  }

  @Test
  public void onlyIanaNamesAreZones() {
    assertEquals(BERLIN, CronExpressions.zone("Europe/Berlin"));
    assertEquals(ZoneId.of("UTC"), CronExpressions.zone("UTC"));
    for (String notAName : new String[] {"CEST", "+02:00", "europe/berlin", "Mars/Olympus", ""})
      assertThrows(notAName, IllegalArgumentException.class, () -> CronExpressions.zone(notAName));
  }

  @Test
  public void aWrongPartIsNamedInAPersonsWordsNotTheParsers() {
    assertEquals(
        "its minute is 61, which must be from 0 to 59",
        assertThrows(IllegalArgumentException.class, () -> CronExpressions.check("61 * * * *"))
            .getMessage());
    assertEquals(
        "its hour is 24, which must be from 0 to 23",
        assertThrows(IllegalArgumentException.class, () -> CronExpressions.check("0 24 * * *"))
            .getMessage());
    assertEquals(
        "its weekday is funday, which must be from 0 to 7 or a day's name",
        assertThrows(IllegalArgumentException.class, () -> CronExpressions.check("0 7 * * funday"))
            .getMessage());
    assertEquals(
        "it has 3 parts; it needs five (minute hour day month weekday)",
        assertThrows(IllegalArgumentException.class, () -> CronExpressions.check("0 7 *"))
            .getMessage());
  }
}
