package io.periscope.assist;

import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.json.Json;
import io.periscope.json.ValidationException;
import io.periscope.llm.InvalidModelOutput;
import io.periscope.watch.Watch;
import io.periscope.watch.WatchValidator;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What POST /watches/:id/revise proposes (docs/http-interface.md, AI assistance, "Revisions"): only
 * the watch fields whose value changes (a field left out stays as it is; {@code null} removes an
 * optional field), plus {@code reasons}, one {@code {field, why}} per changed field. The service
 * computes it, so it never lists a field that stays the same.
 *
 * @param changes each changed field's proposed value, in {@link #FIELDS} order; a JSON null removes
 *     the field
 */
public record Revision(Map<String, JsonNode> changes, List<Reason> reasons) {
  /**
   * The fields a revision may change. Never id or owner, and never channels: their targets stay out
   * of prompts (see {@link WatchText#fields}), so the model cannot propose them.
   */
  public static final List<String> FIELDS =
      List.of("name", "condition", "sources", "schedule", "threshold", "weakThreshold", "enabled");

  /** The why of a changed field the model gave no reason for. */
  static final String NO_REASON_GIVEN =
      "Changed to follow the instruction (the model gave no reason).";

  public record Reason(String field, String why) {}

  public Revision {
    changes = Collections.unmodifiableMap(new LinkedHashMap<>(changes));
    reasons = List.copyOf(reasons);
  }

  /**
   * The model's proposal against {@code base}: the proposed fields replace the base's and the
   * result must be a valid watch, exactly as a PUT body would be checked. Reasons for unchanged or
   * unknown fields are dropped, the first reason per field is kept, and a changed field without one
   * gets {@link #NO_REASON_GIVEN}.
   *
   * @throws InvalidModelOutput naming the problems of a proposal that is not a valid watch
   */
  static Revision read(JsonNode answer, Watch base) {
    ObjectNode merged = Json.MAPPER.valueToTree(base);
    FIELDS.forEach(
        f -> {
          if (answer.has(f)) merged.set(f, answer.get(f));
        });
    Watch proposed;
    try {
      proposed = WatchValidator.validate(merged, base.id(), base.owner(), base.scheduleZone());
    } catch (ValidationException invalid) {
      throw new InvalidModelOutput(Problems.of(invalid));
    }
    Map<String, JsonNode> changes = between(base, proposed);
    Map<String, String> whys = new LinkedHashMap<>();
    for (JsonNode reason : answer.path("reasons")) {
      String field = reason.path("field").asText("");
      String why = reason.path("why").asText("").strip();
      if (changes.containsKey(field) && !why.isEmpty()) whys.putIfAbsent(field, why);
    }
    List<Reason> reasons = new ArrayList<>();
    changes
        .keySet()
        .forEach(f -> reasons.add(new Reason(f, whys.getOrDefault(f, NO_REASON_GIVEN))));
    return new Revision(changes, reasons);
  }

  /**
   * Each of {@link #FIELDS} whose value differs, with its value in {@code after} (JSON null when it
   * has none).
   */
  static Map<String, JsonNode> between(Watch before, Watch after) {
    JsonNode was = Json.MAPPER.valueToTree(before);
    JsonNode is = Json.MAPPER.valueToTree(after);
    Map<String, JsonNode> changes = new LinkedHashMap<>();
    for (String field : FIELDS) {
      if (!Objects.equals(was.get(field), is.get(field))) {
        changes.put(field, is.has(field) ? is.get(field) : NullNode.getInstance());
      }
    }
    return changes;
  }

  /** The interface's shape: the changed fields (nulls written), then {@code reasons}. */
  @JsonValue
  public ObjectNode json() {
    ObjectNode json = Json.MAPPER.createObjectNode();
    changes.forEach(json::set);
    json.set("reasons", Json.MAPPER.valueToTree(reasons));
    return json;
  }
}
