package io.periscope.watch;

import io.periscope.entity.JsonSerializable;
import io.periscope.quiet.Digest;
import io.periscope.quiet.QuietHours;
import io.periscope.quiet.Release;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;

/**
 * A watch definition as stored and as answered by the interface. {@code weakThreshold} is null when
 * absent; {@code owner} always comes from the caller's token; {@code timeZone} is the IANA name its
 * schedule is read in, {@code UTC} for a watch stored before watches had one (they ran in UTC).
 * {@code quietHours} and {@code digest} ({@code hourly} or {@code daily}) hold its alerts; null
 * (and so in watches stored before them) sends each alert as it is decided.
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
    String timeZone,
    QuietHours quietHours,
    String digest)
    implements JsonSerializable {

  /** A watch that holds none of its alerts. */
  public Watch(
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
      String timeZone) {
    this(
        id,
        owner,
        name,
        sources,
        schedule,
        condition,
        channels,
        threshold,
        weakThreshold,
        enabled,
        timeZone,
        null,
        null);
  }

  public Watch {
    sources = List.copyOf(sources);
    channels = List.copyOf(channels);
    timeZone = timeZone == null ? "UTC" : timeZone;
  }

  /** This watch with other channels. */
  public Watch withChannels(List<String> channels) {
    return new Watch(
        id,
        owner,
        name,
        sources,
        schedule,
        condition,
        channels,
        threshold,
        weakThreshold,
        enabled,
        timeZone,
        quietHours,
        digest);
  }

  /** The zone its schedule is read in. */
  /** The keys of its page sources ({@link WatchSource#key()}). */
  public java.util.Set<String> pageSourceKeys() {
    return sources.stream()
        .filter(s -> WatchSource.PAGE.equals(s.type()))
        .map(WatchSource::key)
        .collect(java.util.stream.Collectors.toSet());
  }

  public ZoneId scheduleZone() {
    return ZoneId.of(timeZone);
  }

  /** When an alert decided at {@code decided} goes out; empty: at once. */
  public Optional<Instant> alertsHeldUntil(Instant decided) {
    return Release.heldUntil(
        quietHours, Digest.fromWire(digest).orElse(Digest.NONE), scheduleZone(), decided);
  }
}
