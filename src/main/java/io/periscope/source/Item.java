package io.periscope.source;

import io.periscope.entity.JsonSerializable;
import java.time.Instant;
import java.util.List;

/**
 * One collected item (a feed entry or a search result). {@code identity} is what "seen" is keyed on
 * ({@link ItemIdentity}); {@code aliases} are the other identities an earlier run may have recorded
 * it by (its guid, its link and title, the identity earlier versions gave it: guid, else link, else
 * title and link), which a run accepts only where they name one item of the source. {@code
 * published}, {@code summary} and {@code trust} may be null.
 */
public record Item(
    String identity,
    String title,
    String url,
    String summary,
    Instant published,
    String sourceType,
    String sourceValue,
    String trust,
    List<String> aliases)
    implements JsonSerializable {
  public Item {
    aliases = aliases == null ? List.of() : List.copyOf(aliases);
  }

  /** This item without its URL (its page is not fetched for text). */
  public Item withoutUrl() {
    return new Item(
        identity, title, null, summary, published, sourceType, sourceValue, trust, aliases);
  }

  public Item withTrust(String tier) {
    return new Item(
        identity, title, url, summary, published, sourceType, sourceValue, tier, aliases);
  }
}
