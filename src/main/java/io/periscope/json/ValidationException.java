package io.periscope.json;

import java.util.List;

/** A body that failed validation; the HTTP layer answers 400 with every issue listed. */
public final class ValidationException extends RuntimeException {
  private final List<Issue> issues;

  public ValidationException(List<Issue> issues) {
    super("the request body is invalid");
    this.issues = List.copyOf(issues);
  }

  public List<Issue> issues() {
    return issues;
  }
}
