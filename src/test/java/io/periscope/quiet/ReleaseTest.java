package io.periscope.quiet;

import static org.junit.Assert.assertEquals;

import java.time.Instant;
import java.time.ZoneId;
import java.util.Optional;
import org.junit.Test;

/** When an alert goes out: at once, at the end of the quiet window, or at the next digest time. */
public class ReleaseTest {
  static final ZoneId UTC = ZoneId.of("UTC");
  static final QuietHours NIGHT = new QuietHours("22:00", "07:00", null);

  static Optional<Instant> held(QuietHours quiet, Digest digest, String decided) {
    return Release.heldUntil(quiet, digest, UTC, Instant.parse(decided));
  }

  static Optional<Instant> at(String instant) {
    return Optional.of(Instant.parse(instant));
  }

  @Test
  public void aWindowCrossingMidnightHoldsUntilItsEndAndLetsTheDayThrough() {
    assertEquals(at("2026-01-11T07:00:00Z"), held(NIGHT, null, "2026-01-10T22:00:00Z"));
    assertEquals(at("2026-01-11T07:00:00Z"), held(NIGHT, null, "2026-01-10T23:59:59Z"));
    assertEquals(at("2026-01-11T07:00:00Z"), held(NIGHT, null, "2026-01-11T03:00:00Z"));
    assertEquals(Optional.empty(), held(NIGHT, null, "2026-01-11T07:00:00Z"));
    assertEquals(Optional.empty(), held(NIGHT, null, "2026-01-10T21:59:59Z"));
    assertEquals(Optional.empty(), held(NIGHT, Digest.NONE, "2026-01-10T12:00:00Z"));
  }

  @Test
  public void aWindowWithinOneDayHoldsOnlyInsideIt() {
    QuietHours lunch = new QuietHours("12:00", "13:30", null);
    assertEquals(at("2026-01-10T13:30:00Z"), held(lunch, null, "2026-01-10T12:10:00Z"));
    assertEquals(Optional.empty(), held(lunch, null, "2026-01-10T13:30:00Z"));
    assertEquals(Optional.empty(), held(lunch, null, "2026-01-10T02:00:00Z"));
  }

  @Test
  public void theWindowIsReadInItsOwnZoneElseTheSchedules() {
    // 22:30 UTC is 23:30 in Berlin (winter): inside; its end is 07:00 Berlin, 06:00 UTC
    QuietHours berlin = new QuietHours("23:00", "07:00", "Europe/Berlin");
    assertEquals(at("2026-01-11T06:00:00Z"), held(berlin, null, "2026-01-10T22:30:00Z"));
    QuietHours scheduleZone = new QuietHours("23:00", "07:00", null);
    assertEquals(
        at("2026-01-11T06:00:00Z"),
        Release.heldUntil(
            scheduleZone, null, ZoneId.of("Europe/Berlin"), Instant.parse("2026-01-10T22:30:00Z")));
    assertEquals(Optional.empty(), held(scheduleZone, null, "2026-01-10T22:30:00Z"));
  }

  @Test
  public void digestsGoOutOnTheHourOrDailyAtEightAndWaitForTheWindowsEnd() {
    assertEquals(at("2026-01-10T11:00:00Z"), held(null, Digest.HOURLY, "2026-01-10T10:00:00Z"));
    assertEquals(at("2026-01-10T11:00:00Z"), held(null, Digest.HOURLY, "2026-01-10T10:59:59Z"));
    assertEquals(at("2026-01-10T08:00:00Z"), held(null, Digest.DAILY, "2026-01-10T07:59:00Z"));
    assertEquals(at("2026-01-11T08:00:00Z"), held(null, Digest.DAILY, "2026-01-10T08:00:00Z"));
    // an hourly digest due at 23:00 inside 22:00–07:00 waits for 07:00
    assertEquals(at("2026-01-11T07:00:00Z"), held(NIGHT, Digest.HOURLY, "2026-01-10T22:10:00Z"));
    // a daily one at 08:00 is outside that window
    assertEquals(at("2026-01-11T08:00:00Z"), held(NIGHT, Digest.DAILY, "2026-01-10T23:00:00Z"));
  }
}
