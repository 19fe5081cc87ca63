package io.periscope.feedback;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.json.Issue;
import io.periscope.json.ValidationException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Checks the body of {@code PUT /watches/:id/runs/:runId/feedback}: {@code {kind, note?, items?,
 * missed?}}. Whether the items it names are the run's is checked against the run ({@link
 * Feedbacks#give}).
 */
public final class FeedbackValidator {
  public static final int MAX_NOTE = 1000;

  /** Items one feedback may mark; a run judges fewer. */
  public static final int MAX_ITEMS = 200;

  public static final int MAX_URL = 2048;

  private FeedbackValidator() {}

  /**
   * What the owner said; {@code note} is null when absent, null or blank; {@code missed} is null
   * when absent.
   */
  public record Judgement(String kind, String note, List<Mark> items, Missed missed) {
    public Judgement {
      items = List.copyOf(items);
    }

    /** The item keys it names: the marked ones and the missed one's. */
    Set<String> keys() {
      Set<String> keys = new HashSet<>();
      items.forEach(m -> keys.add(m.key()));
      if (missed != null && missed.key() != null) keys.add(missed.key());
      return keys;
    }
  }

  /** A judged item of the run, by key, marked {@link Feedback#RELEVANT} or irrelevant. */
  public record Mark(String key, String label) {}

  /** What should have alerted: a judged item of the run by {@code key}, or a {@code url}. */
  public record Missed(String key, String url) {}

  /**
   * @throws ValidationException listing every problem
   */
  public static Judgement validate(JsonNode body) {
    if (!body.isObject()) {
      throw new ValidationException(
          List.of(Issue.at("the body must be a JSON object {kind, note?, items?, missed?}")));
    }
    List<Issue> issues = new ArrayList<>();
    JsonNode kind = body.get("kind");
    if (kind == null || kind.isNull()) {
      issues.add(Issue.at("is required", "kind"));
    } else if (!kind.isTextual() || !Feedback.KINDS.contains(kind.asText())) {
      issues.add(Issue.at("must be one of " + Feedback.KINDS, "kind"));
    }
    JsonNode noteNode = body.get("note");
    String note = null;
    if (noteNode != null && !noteNode.isNull()) {
      if (!noteNode.isTextual()) {
        issues.add(Issue.at("must be a string", "note"));
      } else if (noteNode.asText().strip().length() > MAX_NOTE) {
        issues.add(Issue.at("must be at most " + MAX_NOTE + " characters", "note"));
      } else if (!noteNode.asText().isBlank()) {
        note = noteNode.asText().strip();
      }
    }
    List<Mark> items = marks(body.get("items"), issues);
    Missed missed = missed(body.get("missed"), kind, issues);
    if (!issues.isEmpty()) throw new ValidationException(issues);
    return new Judgement(kind.asText(), note, items, missed);
  }

  private static List<Mark> marks(JsonNode node, List<Issue> issues) {
    if (node == null || node.isNull()) return List.of();
    if (!node.isArray()) {
      issues.add(Issue.at("must be an array of {key, label}", "items"));
      return List.of();
    }
    if (node.size() > MAX_ITEMS) {
      issues.add(Issue.at("must list at most " + MAX_ITEMS + " items", "items"));
      return List.of();
    }
    List<Mark> marks = new ArrayList<>();
    Set<String> keys = new HashSet<>();
    for (int i = 0; i < node.size(); i++) {
      JsonNode item = node.get(i);
      if (!item.isObject()) {
        issues.add(Issue.at("must be an object {key, label}", "items", i));
        continue;
      }
      String key = text(item.get("key"));
      JsonNode label = item.get("label");
      if (key == null) issues.add(Issue.at("must be a judged item's key", "items", i, "key"));
      else if (!keys.add(key)) issues.add(Issue.at("is marked twice", "items", i, "key"));
      if (label == null || !label.isTextual() || !Feedback.LABELS.contains(label.asText()))
        issues.add(Issue.at("must be one of " + Feedback.LABELS, "items", i, "label"));
      else if (key != null) marks.add(new Mark(key, label.asText()));
    }
    return marks;
  }

  private static Missed missed(JsonNode node, JsonNode kind, List<Issue> issues) {
    if (node == null || node.isNull()) return null;
    if (kind != null && kind.isTextual() && !Feedback.MISSED.equals(kind.asText())) {
      issues.add(Issue.at("is given only with kind \"missed\"", "missed"));
      return null;
    }
    if (!node.isObject()) {
      issues.add(Issue.at("must be an object {key} or {url}", "missed"));
      return null;
    }
    String key = text(node.get("key"));
    String url = text(node.get("url"));
    if ((key == null) == (url == null)) {
      issues.add(Issue.at("must give either key or url", "missed"));
      return null;
    }
    if (url != null && !webAddress(url)) {
      issues.add(Issue.at("must be an http(s) URL", "missed", "url"));
      return null;
    }
    return new Missed(key, url);
  }

  /** A non-blank string, stripped; null otherwise. */
  private static String text(JsonNode node) {
    return node != null && node.isTextual() && !node.asText().isBlank()
        ? node.asText().strip()
        : null;
  }

  private static boolean webAddress(String url) {
    if (url.length() > MAX_URL) return false;
    try {
      URI uri = new URI(url);
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      return (scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null;
    } catch (URISyntaxException e) {
      return false;
    }
  }
}
