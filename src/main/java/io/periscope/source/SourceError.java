package io.periscope.source;

import io.periscope.entity.JsonSerializable;

/**
 * Why one source yielded nothing in a run. {@code kind}: {@code refused} (the SSRF guard), {@code
 * unreachable} (DNS, connection, timeout), {@code http} (a non-2xx answer, {@code httpStatus} set),
 * {@code not-a-feed}, {@code too-large}, {@code provider} (the search provider failed), {@code
 * not-configured} (no usable search key).
 */
public record SourceError(String source, String kind, String message, Integer httpStatus)
    implements JsonSerializable {}
