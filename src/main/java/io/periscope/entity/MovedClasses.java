package io.periscope.entity;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import org.apache.pekko.serialization.jackson.JacksonMigration;

/**
 * Reads messages and events that name a class by where it used to be. Jackson's manifest is the
 * class name, so a serialized class that moves must still be found under its old name: the journal
 * holds its events and snapshots, and a node of the previous version may send it during a rolling
 * upgrade. Each old name is bound to this migration under {@code
 * pekko.serialization.jackson.migrations} in conf/periscope.conf; the JSON itself is unchanged.
 */
public final class MovedClasses extends JacksonMigration {
  /** Old class name to new; written without a version, read as version 1. */
  static final Map<String, String> NEW_NAMES =
      Map.ofEntries(
          Map.entry("io.periscope.run.RunRecord", "io.periscope.watch.RunRecord"),
          Map.entry(
              "io.periscope.model.ModelConfigEntity$State",
              "io.periscope.llm.ModelConfigEntity$State"),
          Map.entry(
              "io.periscope.model.ModelConfigEntity$Get", "io.periscope.llm.ModelConfigEntity$Get"),
          Map.entry(
              "io.periscope.model.ModelConfigEntity$Change",
              "io.periscope.llm.ModelConfigEntity$Change"),
          Map.entry(
              "io.periscope.model.ModelConfigEntity$Reset",
              "io.periscope.llm.ModelConfigEntity$Reset"),
          Map.entry(
              "io.periscope.model.ModelConfigEntity$Changed",
              "io.periscope.llm.ModelConfigEntity$Changed"),
          Map.entry(
              "io.periscope.model.ModelConfigEntity$WasReset",
              "io.periscope.llm.ModelConfigEntity$WasReset"),
          Map.entry("io.periscope.model.ModelConfiguration", "io.periscope.llm.ModelConfiguration"),
          Map.entry("io.periscope.model.ModelChoice", "io.periscope.llm.ModelChoice"),
          Map.entry("io.periscope.model.Verdict", "io.periscope.llm.Verdict"),
          Map.entry("io.periscope.model.Verdict$Evidence", "io.periscope.llm.Verdict$Evidence"));

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
