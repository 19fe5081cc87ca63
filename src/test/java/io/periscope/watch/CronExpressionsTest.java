package io.periscope.watch;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotSame;
import static org.junit.Assert.assertSame;
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
  public void watchesDueAtOneTimeShareOneComputedNextTime() {
    // equal but distinct due times, as each watch's state holds its own
    Instant dueAt = Instant.parse("2026-05-04T10:07:00Z");
    Instant first = CronExpressions.nextFireAfter("* * * * *", BERLIN, dueAt, dueAt);
    for (int watch = 0; watch < 1000; watch++) {
      Instant same = Instant.parse("2026-05-04T10:07:00Z");
      assertSame(first, CronExpressions.nextFireAfter("* * * * *", BERLIN, same, same));
    }
    assertEquals(Instant.parse("2026-05-04T10:08:00Z"), first);
    // another zone or expression is another answer
    assertEquals(
        Instant.parse("2026-05-04T11:00:00Z"),
        CronExpressions.nextFireAfter("0 * * * *", ZoneId.of("UTC"), dueAt, dueAt));
  }

  @Test
  public void theRememberedNextTimesAreBounded() {
    Instant dueAt = Instant.parse("2026-05-04T10:07:00Z");
    Instant first = CronExpressions.nextFireAfter("*/5 * * * *", BERLIN, dueAt, dueAt);
    // ten thousand distinct due times are more than is kept: the first is computed again
    for (int minute = 1; minute <= 10_000; minute++) {
      Instant other = dueAt.plusSeconds(60L * minute);
      CronExpressions.nextFireAfter("*/5 * * * *", BERLIN, other, other);
    }
    Instant again = CronExpressions.nextFireAfter("*/5 * * * *", BERLIN, dueAt, dueAt);
    assertNotSame(first, again);
    assertEquals(first, again);
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
