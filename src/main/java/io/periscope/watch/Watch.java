package io.periscope.watch;

import io.periscope.entity.JsonSerializable;
import java.util.List;

/**
 * A watch definition as stored and as answered by the interface. {@code weakThreshold} is null when
 * absent; {@code owner} always comes from the caller's token.
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
    boolean enabled)
    implements JsonSerializable {

  public Watch {
    sources = List.copyOf(sources);
    channels = List.copyOf(channels);
  }
}
