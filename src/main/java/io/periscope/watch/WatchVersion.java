package io.periscope.watch;

import io.periscope.entity.JsonSerializable;
import java.time.Instant;
import java.util.List;

/**
 * One version of a watch's definition: number {@code version} (1 for the first create, one more for
 * each change), written at {@code at} by {@code actor} (null in events written before actors were
 * recorded). {@code change} is one of {@link WatchVersions#CREATED}, {@code replaced}, {@code
 * enabled}, {@code disabled}, {@code deleted}, {@code restored}; {@code changed} names the
 * definition's fields that differ from the version before; {@code watch} is the definition (its
 * channels sealed as stored), null for a delete; {@code restoredFrom} the version a restore made
 * current again.
 */
public record WatchVersion(
    int version,
    Instant at,
    Actor actor,
    String change,
    List<String> changed,
    Watch watch,
    Integer restoredFrom)
    implements JsonSerializable {
  public WatchVersion {
    changed = changed == null ? List.of() : List.copyOf(changed);
  }
}
