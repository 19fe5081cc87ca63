package io.periscope.watch;

import io.periscope.entity.JsonSerializable;
import java.time.ZoneId;
import java.util.List;

/**
 * A watch definition as stored and as answered by the interface. {@code weakThreshold} is null when
 * absent; {@code owner} always comes from the caller's token; {@code timeZone} is the IANA name its
 * schedule is read in, {@code UTC} for a watch stored before watches had one (they ran in UTC).
 */
public record Watch(
    String id,
    String owner,
    String name,
    List<WatchSource> sources,
    String schedule,
    String condition,
    List<String> channels,
    double threshold,
    Double weakThreshold,
    boolean enabled,
    String timeZone)
    implements JsonSerializable {

  public Watch {
    sources = List.copyOf(sources);
    channels = List.copyOf(channels);
    timeZone = timeZone == null ? "UTC" : timeZone;
  }

  /** The zone its schedule is read in. */
  public ZoneId scheduleZone() {
    return ZoneId.of(timeZone);
  }
}
