package io.periscope.quiet;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Optional;

/**
 * When an alert decided at some instant goes out: at once, unless the watch has a digest (the next
 * digest time) or the time falls inside its quiet window (the window's end). A digest time inside
 * the window waits for the window's end too.
 */
public final class Release {
  private Release() {}

  /**
   * @param quiet the watch's quiet hours, null for none
   * @param digest the watch's digest, null for none
   * @param scheduleZone the watch's schedule zone, for quiet hours that name none
   * @return when to send the alert decided at {@code decided}; empty to send it now
   */
  public static Optional<Instant> heldUntil(
      QuietHours quiet, Digest digest, ZoneId scheduleZone, Instant decided) {
    ZoneId zone = quiet == null ? scheduleZone : quiet.zone(scheduleZone);
    ZonedDateTime at = (digest == null ? Digest.NONE : digest).nextAfter(decided.atZone(zone));
    if (quiet != null && quiet.contains(at)) at = quiet.endAfter(at);
    return at.toInstant().equals(decided) ? Optional.empty() : Optional.of(at.toInstant());
  }
}
