package io.periscope.watch;

import io.periscope.entity.JsonSerializable;

/**
 * Where a watch collects items. {@code trust} and {@code recencyDays} are optional (null when
 * absent); {@code recencyDays} narrows a search source to that many days.
 */
public record WatchSource(String type, String value, String trust, Integer recencyDays)
    implements JsonSerializable {
  public static final String SEARCH = "search";
  public static final String RSS = "rss";
}
