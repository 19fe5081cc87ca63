package io.periscope.feedback;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.json.Issue;
import io.periscope.json.ValidationException;
import java.util.ArrayList;
import java.util.List;

/** Checks the body of {@code PUT /watches/:id/runs/:runId/feedback}: {@code {kind, note?}}. */
public final class FeedbackValidator {
  public static final int MAX_NOTE = 1000;

  private FeedbackValidator() {}

  /** What the owner said; {@code note} is null when absent, null or blank. */
  public record Judgement(String kind, String note) {}

  /**
   * @throws ValidationException listing every problem
   */
  public static Judgement validate(JsonNode body) {
    if (!body.isObject()) {
      throw new ValidationException(
          List.of(Issue.at("the body must be a JSON object {kind, note?}")));
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
    if (!issues.isEmpty()) throw new ValidationException(issues);
    return new Judgement(kind.asText(), note);
  }
}
