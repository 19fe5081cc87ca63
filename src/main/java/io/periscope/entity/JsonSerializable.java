package io.periscope.entity;

/**
 * Marker for every message, event and state that crosses the journal or the cluster. Bound to
 * Pekko's jackson-json serializer in conf/periscope.conf, so the journal stays readable JSON.
 */
public interface JsonSerializable {}
