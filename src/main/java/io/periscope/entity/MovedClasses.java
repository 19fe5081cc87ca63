package io.periscope.entity;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import org.apache.pekko.serialization.jackson.JacksonMigration;

/**
 * Reads messages that name a class by where it used to be. Jackson's manifest is the class name, so
 * a serialized class that moves must still be found under its old name: a node of the previous
 * version may send it during a rolling upgrade. Each old name is bound to this migration under
 * {@code pekko.serialization.jackson.migrations} in conf/periscope.conf; the JSON itself is
 * unchanged.
 */
public final class MovedClasses extends JacksonMigration {
  /** Old class name to new; written without a version, read as version 1. */
  static final Map<String, String> NEW_NAMES =
      Map.of("io.periscope.run.RunRecord", "io.periscope.watch.RunRecord");

  @Override
  public int currentVersion() {
    return 2;
  }

  @Override
  public String transformClassName(int fromVersion, String className) {
    return NEW_NAMES.getOrDefault(className, className);
  }

  @Override
  public JsonNode transform(int fromVersion, JsonNode json) {
    return json;
  }
}
