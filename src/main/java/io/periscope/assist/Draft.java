package io.periscope.assist;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.json.Json;
import io.periscope.json.ValidationException;
import io.periscope.llm.InvalidModelOutput;
import io.periscope.watch.Watch;
import io.periscope.watch.WatchSource;
import io.periscope.watch.WatchValidator;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * A proposed watch, the answer of POST /watches/draft. Valid by construction: its name, condition,
 * sources, schedule and threshold pass the watch schema, so a client can create a watch from it as
 * it is. {@code notes} and every source's {@code rationale} are display-only: a watch created from
 * the draft ignores them.
 */
public record Draft(
    String name,
    String condition,
    List<DraftSource> sources,
    String schedule,
    String timeZone,
    double threshold,
    String notes) {
  static final int MAX_NOTES = 2_000;
  static final int MAX_RATIONALE = 500;

  /** The fields a draft shares with a watch, checked by the watch's own rules. */
  static final List<String> WATCH_FIELDS =
      List.of("name", "condition", "sources", "schedule", "threshold");

  /**
   * A source with the reason it was chosen; {@code trust} and {@code recencyDays} may be null
   * (never on search).
   */
  public record DraftSource(
      String type, String value, String trust, Integer recencyDays, String rationale) {}

  public Draft {
    sources = List.copyOf(sources);
  }

  /**
   * The model's answer as a draft. The watch's rules ({@link WatchValidator}: source types, rss
   * URLs, five-field cron, threshold range, recencyDays) and the draft's own: a search source says
   * how many days back it looks, every source has a rationale, notes is text. Properties the schema
   * does not name are ignored.
   *
   * @param zone the time zone the model was told its schedule is read in, which the draft carries
   * @throws InvalidModelOutput naming every problem
   */
  static Draft check(JsonNode answer, ZoneId zone) {
    List<String> problems = new ArrayList<>();
    ObjectNode watchFields = Json.MAPPER.createObjectNode();
    WATCH_FIELDS.forEach(
        f -> {
          if (answer.has(f)) watchFields.set(f, answer.get(f));
        });
    Watch watch = null;
    try {
      // "draft" stands in for the id and owner a draft does not have; the time zone is the one
      // the model was told, never the model's to choose.
      watch = WatchValidator.validate(watchFields, "draft", "draft", zone);
    } catch (ValidationException invalid) {
      problems.addAll(Problems.of(invalid));
    }
    List<String> rationales = new ArrayList<>();
    JsonNode sources = answer.path("sources");
    for (int i = 0; sources.isArray() && i < sources.size(); i++) {
      JsonNode source = sources.get(i);
      String at = "sources[" + i + "]";
      rationales.add(
          text(source.path("rationale"), at + ".rationale", false, MAX_RATIONALE, problems));
      JsonNode recency = source.path("recencyDays");
      if (WatchSource.SEARCH.equals(source.path("type").asText())
          && (recency.isMissingNode() || recency.isNull())) {
        problems.add(at + ".recencyDays: a search source must say how many days back it looks");
      }
    }
    String notes = text(answer.path("notes"), "notes", true, MAX_NOTES, problems);
    if (!problems.isEmpty()) throw new InvalidModelOutput(problems);
    List<DraftSource> drafted = new ArrayList<>();
    for (int i = 0; i < watch.sources().size(); i++) {
      WatchSource s = watch.sources().get(i);
      drafted.add(
          new DraftSource(s.type(), s.value(), s.trust(), s.recencyDays(), rationales.get(i)));
    }
    return new Draft(
        watch.name(),
        watch.condition(),
        drafted,
        watch.schedule(),
        watch.timeZone(),
        watch.threshold(),
        notes);
  }

  private static String text(
      JsonNode node, String field, boolean mayBeEmpty, int max, List<String> problems) {
    if (!node.isTextual() || (!mayBeEmpty && node.asText().isBlank())) {
      problems.add(field + (mayBeEmpty ? ": must be a string" : ": must be a non-empty string"));
      return null;
    }
    String text = node.asText().strip();
    if (text.length() > max) problems.add(field + ": must be at most " + max + " characters");
    return text;
  }
}
