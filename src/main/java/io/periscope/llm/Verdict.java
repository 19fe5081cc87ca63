package io.periscope.llm;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.entity.JsonSerializable;
import io.periscope.source.ItemBounds;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The model's judgement of a watch's condition over a run's fresh items. {@code confidence} is how
 * sure the model is that the condition is met, in [0, 1]; {@code evidence} cites only items that
 * were in the prompt.
 */
public record Verdict(
    boolean met, double confidence, String summary, List<Evidence> evidence, String reasoning)
    implements JsonSerializable {

  /**
   * Bounds on what a verdict carries into the run record and the alert, whatever the model wrote.
   */
  static final int MAX_SUMMARY_CHARS = 1_000;

  static final int MAX_REASONING_CHARS = 4_000;
  static final int MAX_QUOTE_CHARS = 500;

  /**
   * A cited item: its URL as listed, its title from the list (null when it had none), the model's
   * quote or null.
   */
  public record Evidence(String url, String title, String quote) implements JsonSerializable {}

  public Verdict {
    evidence = List.copyOf(evidence);
  }

  /**
   * Reads the model's answer to {@link VerdictPrompt#schema()}, checking what strict decoding may
   * not have: every field present with its type, confidence in [0, 1]. Evidence citing a URL that
   * is not one of {@code items} is dropped (a model inventing a link is not worth a retry), as is a
   * second citation of the same item. Properties the schema does not name are ignored.
   *
   * @throws InvalidModelOutput naming every problem found
   */
  public static Verdict parse(JsonNode answer, List<VerdictPrompt.Candidate> items) {
    List<String> problems = new ArrayList<>();
    if (!answer.isObject()) throw new InvalidModelOutput("the verdict is not a JSON object");
    JsonNode met = answer.path("met");
    if (!met.isBoolean()) problems.add("met must be a boolean");
    JsonNode confidence = answer.path("confidence");
    if (!confidence.isNumber()) problems.add("confidence must be a number");
    else if (!(confidence.asDouble() >= 0 && confidence.asDouble() <= 1)) {
      problems.add("confidence must be between 0 and 1");
    }
    JsonNode summary = answer.path("summary");
    if (!summary.isTextual()) problems.add("summary must be a string");
    JsonNode reasoning = answer.path("reasoning");
    if (!reasoning.isTextual()) problems.add("reasoning must be a string");
    JsonNode cited = answer.path("evidence");
    if (!cited.isArray()) problems.add("evidence must be an array");
    else {
      for (int i = 0; i < cited.size(); i++) {
        JsonNode e = cited.get(i);
        if (!e.path("url").isTextual() || !e.path("quote").isTextual()) {
          problems.add(
              "evidence[" + i + "] must be an object with a string url and a string quote");
        }
      }
    }
    if (!problems.isEmpty()) throw new InvalidModelOutput(problems);

    Map<String, VerdictPrompt.Candidate> byUrl = new LinkedHashMap<>();
    for (VerdictPrompt.Candidate item : items) {
      if (ItemBounds.webLink(item.url()) != null) byUrl.putIfAbsent(item.url(), item);
    }
    Map<String, Evidence> evidence = new LinkedHashMap<>();
    for (JsonNode e : cited) {
      VerdictPrompt.Candidate item = byUrl.get(e.get("url").asText().strip());
      if (item == null || evidence.containsKey(item.url())) continue;
      String quote = bounded(e.get("quote").asText().strip(), MAX_QUOTE_CHARS);
      evidence.put(
          item.url(), new Evidence(item.url(), item.title(), quote.isEmpty() ? null : quote));
    }
    return new Verdict(
        met.asBoolean(),
        confidence.asDouble(),
        bounded(summary.asText().strip(), MAX_SUMMARY_CHARS),
        List.copyOf(evidence.values()),
        bounded(reasoning.asText().strip(), MAX_REASONING_CHARS));
  }

  /**
   * {@code text} cut to at most {@code max} chars, never between the halves of a surrogate pair,
   * marked with "…".
   */
  static String bounded(String text, int max) {
    if (text.length() <= max) return text;
    int end = max - 1;
    if (Character.isHighSurrogate(text.charAt(end - 1))) end--;
    return text.substring(0, end) + "…";
  }
}
