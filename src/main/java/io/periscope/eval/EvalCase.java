package io.periscope.eval;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.json.Json;
import io.periscope.llm.VerdictPrompt;
import io.periscope.trust.TrustTier;
import java.io.BufferedReader;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One labelled case of an evaluation: a condition, the items a run would put before the model, and
 * what a right verdict says: whether the condition is met, and which items show it ({@code cited},
 * by key; none when it is not met). {@code category} groups cases in the report. docs/evaluation.md
 * describes the file format, one case a line.
 */
public record EvalCase(
    String id,
    String category,
    String condition,
    List<Item> items,
    boolean expectedMet,
    List<String> expectedCited) {

  /** An item as a feed gave it; any field but {@code key} and {@code url} may be null. */
  public record Item(
      String key,
      String title,
      String url,
      String source,
      String trust,
      String published,
      String text) {}

  /** A case file that cannot be read: the problems, each with its line. */
  public static final class Unreadable extends Exception {
    /** Enough to fix a file; the rest are counted. */
    static final int MAX_LISTED = 20;

    Unreadable(String name, List<String> problems) {
      super(
          name
              + ": "
              + String.join("; ", problems.subList(0, Math.min(MAX_LISTED, problems.size())))
              + (problems.size() > MAX_LISTED
                  ? "; and " + (problems.size() - MAX_LISTED) + " more"
                  : ""),
          null,
          false,
          false);
    }
  }

  /** The labelled set Periscope ships (docs/evaluation.md counts its cases). */
  public static BufferedReader shipped() {
    return new BufferedReader(
        new java.io.InputStreamReader(
            EvalCase.class.getResourceAsStream("cases.jsonl"), StandardCharsets.UTF_8));
  }

  /** The items as a run offers them to the model, in order (the source is not part of a prompt). */
  public List<VerdictPrompt.Candidate> candidates() {
    return items.stream()
        .map(
            i ->
                new VerdictPrompt.Candidate(i.url(), i.title(), i.published(), i.trust(), i.text()))
        .toList();
  }

  /** The keys of the items whose URLs a verdict cites, in its order. */
  public List<String> keysOf(List<String> citedUrls) {
    Map<String, String> keyByUrl = new HashMap<>();
    for (Item i : items) keyByUrl.put(i.url(), i.key());
    return citedUrls.stream().map(keyByUrl::get).filter(k -> k != null).distinct().toList();
  }

  /**
   * The cases of a JSON Lines file ({@code name} names it in problems); blank lines are skipped.
   *
   * @throws Unreadable naming every problem by line, when any case is not a valid case
   */
  public static List<EvalCase> read(BufferedReader lines, String name)
      throws IOException, Unreadable {
    List<EvalCase> cases = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    String line;
    int number = 0;
    while ((line = lines.readLine()) != null) {
      number++;
      if (line.isBlank()) continue;
      List<String> found = new ArrayList<>();
      EvalCase c = parse(line, found);
      if (c != null && !ids.add(c.id())) found.add("id '" + c.id() + "' is used twice");
      for (String problem : found) problems.add("line " + number + ": " + problem);
      if (found.isEmpty()) cases.add(c);
    }
    if (cases.isEmpty() && problems.isEmpty()) problems.add("no case in it");
    if (!problems.isEmpty()) throw new Unreadable(name, problems);
    return cases;
  }

  /** The case on one line, or null with {@code problems} saying why. */
  static EvalCase parse(String line, List<String> problems) {
    JsonNode node;
    try {
      node = Json.parse(line.getBytes(StandardCharsets.UTF_8));
    } catch (JsonProcessingException e) {
      problems.add("not JSON");
      return null;
    }
    if (!node.isObject()) {
      problems.add("not a JSON object");
      return null;
    }
    String id = required(node, "id", problems);
    String category = required(node, "category", problems);
    String condition = required(node, "condition", problems);
    List<Item> items = items(node.get("items"), problems);
    JsonNode expected = node.path("expected");
    JsonNode met = expected.path("met");
    if (!met.isBoolean()) problems.add("expected.met must be true or false");
    List<String> cited = new ArrayList<>();
    JsonNode citedNode = expected.path("cited");
    if (!citedNode.isArray()) problems.add("expected.cited must be an array of item keys");
    else
      for (JsonNode key : citedNode) {
        if (!key.isTextual()) problems.add("expected.cited must hold item keys (strings)");
        else cited.add(key.asText());
      }
    if (!problems.isEmpty()) return null;
    Set<String> keys = new HashSet<>(items.stream().map(Item::key).toList());
    for (String key : cited)
      if (!keys.contains(key)) problems.add("expected.cited names '" + key + "', no item's key");
    if (new LinkedHashSet<>(cited).size() != cited.size())
      problems.add("expected.cited names an item twice");
    if (met.asBoolean() && cited.isEmpty())
      problems.add("a case that is met cites the items that show it (expected.cited)");
    if (!met.asBoolean() && !cited.isEmpty())
      problems.add("a case that is not met cites nothing (expected.cited must be empty)");
    return problems.isEmpty()
        ? new EvalCase(id, category, condition, items, met.asBoolean(), List.copyOf(cited))
        : null;
  }

  private static List<Item> items(JsonNode node, List<String> problems) {
    if (node == null || !node.isArray() || node.isEmpty()) {
      problems.add("items must be a non-empty array");
      return List.of();
    }
    // more would be left out of the prompt, and the case would judge what the model never saw
    if (node.size() > VerdictPrompt.MAX_ITEMS) {
      problems.add("items: at most " + VerdictPrompt.MAX_ITEMS + ", the items a run judges");
      return List.of();
    }
    List<Item> items = new ArrayList<>();
    Set<String> keys = new HashSet<>();
    Set<String> urls = new HashSet<>();
    for (int i = 0; i < node.size(); i++) {
      JsonNode n = node.get(i);
      String at = "items[" + i + "].";
      if (!n.isObject()) {
        problems.add("items[" + i + "] must be an object");
        continue;
      }
      String key = required(n, "key", at, problems);
      String url = required(n, "url", at, problems);
      if (url != null && !isHttpUrl(url)) problems.add(at + "url must be an http(s) URL");
      if (key != null && !keys.add(key)) problems.add(at + "key '" + key + "' is used twice");
      // a verdict cites an item by its URL: two items with one URL could not be told apart
      if (url != null && !urls.add(url)) problems.add(at + "url is another item's too");
      String trust = optional(n, "trust", at, problems);
      if (trust != null && TrustTier.fromWire(trust).isEmpty())
        problems.add(at + "trust must be one of " + String.join(", ", TrustTier.names()));
      items.add(
          new Item(
              key,
              optional(n, "title", at, problems),
              url,
              optional(n, "source", at, problems),
              trust,
              optional(n, "published", at, problems),
              optional(n, "text", at, problems)));
    }
    return items;
  }

  private static String required(JsonNode node, String field, List<String> problems) {
    return required(node, field, "", problems);
  }

  private static String required(JsonNode node, String field, String at, List<String> problems) {
    JsonNode value = node.get(field);
    if (value == null || !value.isTextual() || value.asText().isBlank()) {
      problems.add(at + field + " must be a non-empty string");
      return null;
    }
    return value.asText();
  }

  private static String optional(JsonNode node, String field, String at, List<String> problems) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) return null;
    if (!value.isTextual()) {
      problems.add(at + field + " must be a string");
      return null;
    }
    return value.asText();
  }

  private static boolean isHttpUrl(String url) {
    try {
      URI uri = new URI(url);
      return ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
          && uri.getHost() != null;
    } catch (java.net.URISyntaxException e) {
      return false;
    }
  }
}
