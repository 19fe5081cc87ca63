package io.periscope.assist;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.json.Issue;
import io.periscope.json.Json;
import io.periscope.json.ValidationException;
import io.periscope.watch.Watch;
import io.periscope.watch.WatchValidator;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * The assistance routes' bodies, validated before any model, search or network call: a body that
 * fails answers 400 with every issue, and nothing is asked upstream.
 */
public final class AssistRequests {
  public static final int MAX_DESCRIPTION = 4_000;
  public static final int MAX_INSTRUCTION = 2_000;
  public static final int MAX_DOMAINS = 50;

  /**
   * Any text of a previous draft sent back for refining; the sources it may hold are bounded like a
   * watch's.
   */
  static final int MAX_DRAFT_TEXT = 4_000;

  static final int MAX_DRAFT_SOURCES = 20;

  private AssistRequests() {}

  /**
   * POST /watches/draft: a description, or (with {@code previousDraft} and {@code instruction} from
   * {@code refine}) the next step of a draft. {@code previousDraft} keeps only a draft's fields, as
   * the client sent them.
   */
  public record DraftRequest(String description, ObjectNode previousDraft, String instruction) {
    public boolean refining() {
      return previousDraft != null;
    }
  }

  /** POST /watches/:id/revise: {@code base} is null when the stored watch is the base. */
  public record RevisionRequest(String instruction, Watch base) {}

  /** POST /watches/draft/preview. */
  public record PreviewRequest(String value, Integer recencyDays) {}

  /** POST /watches/draft/check-domains, the domains as sent. */
  public record DomainsRequest(List<String> domains) {}

  public static DraftRequest draft(JsonNode body) {
    List<Issue> issues = new ArrayList<>();
    requireObject(body, "{description, refine?: {previousDraft, instruction}}");
    JsonNode refine = body.get("refine");
    if (refine == null || refine.isNull()) {
      String description =
          text(body.get("description"), true, MAX_DESCRIPTION, issues, "description");
      return valid(issues, new DraftRequest(description, null, null));
    }
    // With refine the description is sent empty; one that is not is kept as context.
    String description =
        text(body.get("description"), false, MAX_DESCRIPTION, issues, "description");
    if (!refine.isObject()) {
      issues.add(Issue.at("must be an object {previousDraft, instruction}", "refine"));
      return valid(issues, null);
    }
    ObjectNode previous = previousDraft(refine.get("previousDraft"), issues);
    String instruction =
        text(refine.get("instruction"), true, MAX_INSTRUCTION, issues, "refine", "instruction");
    return valid(
        issues, new DraftRequest(description == null ? "" : description, previous, instruction));
  }

  /**
   * {@code base} counts unless it names another id than the path's (docs/http-interface.md, AI
   * assistance, "Revisions": only a base whose id differs is ignored, so one without an id is the
   * diff base too); then it must be a valid watch, like a PUT body, in {@code scheduleZone} when it
   * names no time zone (SCHEDULE_TIME_ZONE).
   */
  public static RevisionRequest revision(
      JsonNode body, String pathId, String accountId, ZoneId scheduleZone) {
    List<Issue> issues = new ArrayList<>();
    requireObject(body, "{instruction, base?}");
    String instruction =
        text(body.get("instruction"), true, MAX_INSTRUCTION, issues, "instruction");
    JsonNode base = body.get("base");
    Watch baseWatch = null;
    if (base != null && !base.isNull() && !base.isObject()) {
      issues.add(Issue.at("must be the watch as the client holds it, an object", "base"));
    } else if (base != null
        && !base.isNull()
        && (base.path("id").isMissingNode()
            || base.path("id").isNull()
            || base.path("id").asText().equals(pathId) && base.path("id").isTextual())) {
      try {
        baseWatch = WatchValidator.validate(base, pathId, accountId, scheduleZone);
      } catch (ValidationException invalid) {
        invalid
            .issues()
            .forEach(i -> issues.add(new Issue(prefixed(i.path(), "base"), i.message())));
      }
    }
    return valid(issues, new RevisionRequest(instruction, baseWatch));
  }

  public static PreviewRequest preview(JsonNode body) {
    List<Issue> issues = new ArrayList<>();
    requireObject(body, "{value, hints?: {recencyDays}}");
    String value = text(body.get("value"), true, WatchValidator.MAX_SOURCE_VALUE, issues, "value");
    JsonNode hints = body.get("hints");
    Integer recencyDays = null;
    if (hints != null && !hints.isNull()) {
      if (hints.isObject())
        recencyDays =
            WatchValidator.recencyDays(hints.get("recencyDays"), issues, "hints", "recencyDays");
      else issues.add(Issue.at("must be an object {recencyDays}", "hints"));
    }
    return valid(issues, new PreviewRequest(value, recencyDays));
  }

  public static DomainsRequest domains(JsonNode body) {
    List<Issue> issues = new ArrayList<>();
    requireObject(body, "{domains: [string]}");
    JsonNode domains = body.get("domains");
    if (domains == null || !domains.isArray()) {
      return valid(List.of(Issue.at("must be an array of domain names", "domains")), null);
    }
    if (domains.size() > MAX_DOMAINS) {
      return valid(
          List.of(Issue.at("must hold at most " + MAX_DOMAINS + " domains", "domains")), null);
    }
    List<String> names = new ArrayList<>();
    for (int i = 0; i < domains.size(); i++) {
      if (domains.get(i).isTextual()) names.add(domains.get(i).asText());
      else issues.add(Issue.at("must be a string", "domains", i));
    }
    return valid(issues, new DomainsRequest(names));
  }

  /**
   * The draft fields of a previous draft, each checked for its type; anything else it holds is
   * dropped.
   */
  private static ObjectNode previousDraft(JsonNode draft, List<Issue> issues) {
    Object[] at = {"refine", "previousDraft"};
    if (draft == null || !draft.isObject()) {
      issues.add(Issue.at("must be the previous draft, an object", at));
      return null;
    }
    ObjectNode kept = Json.MAPPER.createObjectNode();
    for (String field : List.of("name", "condition", "schedule", "notes")) {
      keep(draft, field, JsonNode::isTextual, "must be a string", kept, issues, at);
    }
    keep(draft, "threshold", JsonNode::isNumber, "must be a number", kept, issues, at);
    JsonNode sources = draft.get("sources");
    if (sources != null && !sources.isNull()) {
      if (!sources.isArray() || sources.size() > MAX_DRAFT_SOURCES) {
        issues.add(
            Issue.at(
                "must be an array of at most " + MAX_DRAFT_SOURCES + " sources",
                path(at, "sources")));
        return kept;
      }
      var keptSources = kept.putArray("sources");
      for (int i = 0; i < sources.size(); i++) {
        Object[] sourceAt = path(at, "sources", i);
        if (!sources.get(i).isObject()) {
          issues.add(Issue.at("must be an object", sourceAt));
          continue;
        }
        ObjectNode source = keptSources.addObject();
        for (String field : List.of("type", "value", "trust", "rationale")) {
          keep(
              sources.get(i),
              field,
              JsonNode::isTextual,
              "must be a string",
              source,
              issues,
              sourceAt);
        }
        keep(
            sources.get(i),
            "recencyDays",
            JsonNode::canConvertToExactIntegral,
            "must be a whole number",
            source,
            issues,
            sourceAt);
      }
    }
    return kept;
  }

  /** Copies {@code field} when present and not null: when it has the right type, else an issue. */
  private static void keep(
      JsonNode from,
      String field,
      Predicate<JsonNode> typed,
      String rule,
      ObjectNode to,
      List<Issue> issues,
      Object[] at) {
    JsonNode value = from.get(field);
    if (value == null || value.isNull()) return;
    if (!typed.test(value)) issues.add(Issue.at(rule, path(at, field)));
    else if (value.isTextual() && value.asText().length() > MAX_DRAFT_TEXT) {
      issues.add(Issue.at("must be at most " + MAX_DRAFT_TEXT + " characters", path(at, field)));
    } else to.set(field, value);
  }

  /**
   * The text of {@code node}; {@code required} means present and not blank. Null (with an issue)
   * when invalid.
   */
  private static String text(
      JsonNode node, boolean required, int max, List<Issue> issues, Object... at) {
    if (node == null || node.isNull()) {
      if (required) issues.add(Issue.at("is required", at));
      return null;
    }
    if (!node.isTextual() || (required && node.asText().isBlank())) {
      issues.add(Issue.at(required ? "must be a non-empty string" : "must be a string", at));
      return null;
    }
    String text = node.asText().strip();
    if (text.length() > max) issues.add(Issue.at("must be at most " + max + " characters", at));
    return text;
  }

  private static void requireObject(JsonNode body, String shape) {
    if (body == null || !body.isObject()) {
      throw new ValidationException(List.of(Issue.at("the body must be an object " + shape)));
    }
  }

  private static <T> T valid(List<Issue> issues, T request) {
    if (!issues.isEmpty()) throw new ValidationException(issues);
    return request;
  }

  private static Object[] path(Object[] prefix, Object... more) {
    return Stream.concat(Stream.of(prefix), Stream.of(more)).toArray();
  }

  private static List<Object> prefixed(List<Object> path, Object first) {
    List<Object> all = new ArrayList<>(path.size() + 1);
    all.add(first);
    all.addAll(path);
    return all;
  }
}
