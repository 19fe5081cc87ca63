package io.periscope.assist;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.json.Json;
import io.periscope.trust.TrustTier;
import io.periscope.watch.WatchSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The pieces of the assistance schemas. Every object is strict-mode shaped (all properties
 * required, no others); an optional value is a nullable type, and no schema carries numeric bounds,
 * which some OpenAI-compatible servers refuse: the answers are checked against the watch's rules
 * instead.
 */
final class Schemas {
  private Schemas() {}

  static ObjectNode string(String description) {
    return typed("string", description);
  }

  static ObjectNode number(String description) {
    return typed("number", description);
  }

  static ObjectNode bool(String description) {
    return typed("boolean", description);
  }

  static ObjectNode oneOf(List<String> values, String description) {
    ObjectNode schema = typed("string", description);
    values.forEach(schema.putArray("enum")::add);
    return schema;
  }

  /** {@code schema} that may also be null (its enum, if any, then lists null too). */
  static ObjectNode nullable(ObjectNode schema) {
    String type = schema.get("type").asText();
    schema.putArray("type").add(type).add("null");
    if (schema.has("enum")) ((ArrayNode) schema.get("enum")).addNull();
    return schema;
  }

  static ObjectNode array(ObjectNode items, String description) {
    ObjectNode schema = typed("array", description);
    schema.set("items", items);
    return schema;
  }

  /** A strict object of these properties, in this order (models write them in order). */
  @SafeVarargs
  static ObjectNode object(Map.Entry<String, ObjectNode>... properties) {
    return object(List.of(properties));
  }

  static ObjectNode object(List<Map.Entry<String, ObjectNode>> properties) {
    ObjectNode schema = Json.MAPPER.createObjectNode().put("type", "object");
    ObjectNode props = schema.putObject("properties");
    ArrayNode required = schema.putArray("required");
    for (Map.Entry<String, ObjectNode> p : properties) {
      props.set(p.getKey(), p.getValue());
      required.add(p.getKey());
    }
    schema.put("additionalProperties", false);
    return schema;
  }

  /**
   * A watch's source as drafts and revisions propose it: the watch's own fields, optionally with
   * more.
   */
  @SafeVarargs
  static ObjectNode source(Map.Entry<String, ObjectNode>... more) {
    List<Map.Entry<String, ObjectNode>> fields =
        new ArrayList<>(
            List.of(
                Map.entry(
                    "type",
                    oneOf(
                        List.of(WatchSource.SEARCH, WatchSource.RSS, WatchSource.PAGE),
                        "search: a web search query; rss: an RSS or Atom feed; page: a web page"
                            + " watched for changes.")),
                Map.entry(
                    "value",
                    string(
                        "For search, the query text; for rss, the feed's http(s) URL; for page,"
                            + " the page's http(s) URL.")),
                Map.entry(
                    "trust",
                    nullable(
                        oneOf(
                            TrustTier.names(),
                            "How far the source is believed, strongest first; null when"
                                + " unknown."))),
                Map.entry(
                    "recencyDays",
                    nullable(
                        typed(
                            "integer",
                            "For search, how many days back to look (1 to 3650); null for"
                                + " rss and page.")))));
    fields.addAll(List.of(more));
    return object(fields);
  }

  // The watch's own fields, described the same way wherever a schema proposes them.

  static Map.Entry<String, ObjectNode> name() {
    return Map.entry("name", string("A short display name, at most 200 characters."));
  }

  static Map.Entry<String, ObjectNode> condition() {
    return Map.entry(
        "condition", string("What must happen for the person to be alerted, in plain English."));
  }

  static Map.Entry<String, ObjectNode> schedule() {
    return Map.entry(
        "schedule",
        string("When to check: a five-field cron expression in the watch's time zone."));
  }

  static Map.Entry<String, ObjectNode> threshold() {
    return Map.entry(
        "threshold", number("Confidence from 0 to 1 the judging model needs before it alerts."));
  }

  private static ObjectNode typed(String type, String description) {
    return Json.MAPPER.createObjectNode().put("type", type).put("description", description);
  }
}
