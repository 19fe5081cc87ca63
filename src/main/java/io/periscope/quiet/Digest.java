package io.periscope.quiet;

import java.time.LocalTime;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * How often a watch's alerts go out grouped: {@code hourly} at the top of each hour, {@code daily}
 * at {@link #DAILY_AT} — both in the watch's zone (its quiet hours' zone, else its schedule's).
 * {@code none} sends each alert as it is decided.
 */
public enum Digest {
  NONE("none"),
  HOURLY("hourly"),
  DAILY("daily");

  /** The local time a daily digest goes out. */
  public static final LocalTime DAILY_AT = LocalTime.of(8, 0);

  private final String wire;

  Digest(String wire) {
    this.wire = wire;
  }

  public String wire() {
    return wire;
  }

  /** The digest named {@code wire}, null meaning none; empty for an unknown name. */
  public static Optional<Digest> fromWire(String wire) {
    if (wire == null) return Optional.of(NONE);
    return Arrays.stream(values()).filter(d -> d.wire.equals(wire)).findFirst();
  }

  public static List<String> names() {
    return Arrays.stream(values()).map(Digest::wire).toList();
  }

  /** The first digest time after {@code at}; {@code at} itself for none. */
  ZonedDateTime nextAfter(ZonedDateTime at) {
    return switch (this) {
      case NONE -> at;
      case HOURLY -> at.truncatedTo(ChronoUnit.HOURS).plusHours(1);
      case DAILY -> {
        ZonedDateTime today = at.toLocalDate().atTime(DAILY_AT).atZone(at.getZone());
        yield today.isAfter(at) ? today : today.plusDays(1);
      }
    };
  }
}
