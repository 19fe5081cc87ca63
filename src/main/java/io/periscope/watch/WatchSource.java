package io.periscope.watch;

import io.periscope.entity.JsonSerializable;
import java.util.List;

/**
 * Where a watch collects items. {@code trust} and {@code recencyDays} are optional (null when
 * absent); {@code recencyDays} narrows a search source to that many days. A {@code page} source may
 * name the elements it watches ({@code selector}, CSS) and those that never count ({@code ignore});
 * both are null when absent, and on every other type.
 */
public record WatchSource(
    String type,
    String value,
    String trust,
    Integer recencyDays,
    String selector,
    List<String> ignore)
    implements JsonSerializable {
  public static final String SEARCH = "search";
  public static final String RSS = "rss";
  public static final String PAGE = "page";

  public WatchSource {
    ignore = ignore == null || ignore.isEmpty() ? null : List.copyOf(ignore);
  }

  public WatchSource(String type, String value, String trust, Integer recencyDays) {
    this(type, value, trust, recencyDays, null, null);
  }

  /** The key the watch keeps this source's baseline and page snapshot by: {@code type:value}. */
  public String key() {
    return type + ":" + value;
  }

  /** The ignore selectors, none when absent. */
  public List<String> ignoreSelectors() {
    return ignore == null ? List.of() : ignore;
  }
}
