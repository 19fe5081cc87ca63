package io.periscope.source;

import io.periscope.entity.JsonSerializable;
import java.time.Instant;

/**
 * One collected item (a feed entry or a search result). {@code identity} is what "seen" is keyed
 * on: the guid, else the link, else a hash of title and link. {@code published}, {@code summary}
 * and {@code trust} may be null.
 */
public record Item(
    String identity,
    String title,
    String url,
    String summary,
    Instant published,
    String sourceType,
    String sourceValue,
    String trust)
    implements JsonSerializable {}
