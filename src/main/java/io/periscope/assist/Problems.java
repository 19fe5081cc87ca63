package io.periscope.assist;

import io.periscope.json.Issue;
import io.periscope.json.ValidationException;
import java.util.List;

/**
 * Validation issues as the problems a second model call is told about: {@code sources[0].type: must
 * be …}.
 */
final class Problems {
  private Problems() {}

  static List<String> of(ValidationException invalid) {
    return invalid.issues().stream().map(Problems::describe).toList();
  }

  static String describe(Issue issue) {
    StringBuilder at = new StringBuilder();
    for (Object step : issue.path()) {
      if (step instanceof Integer index) at.append('[').append(index).append(']');
      else at.append(at.length() == 0 ? "" : ".").append(step);
    }
    return at.length() == 0 ? issue.message() : at + ": " + issue.message();
  }
}
