package io.periscope.llm;

import java.util.List;

/**
 * The model answered, but not with what was asked: not JSON, not an object, or not an instance of
 * the schema. Not a {@link io.periscope.provider.ProviderFailure}: the key is fine, and one more
 * try (naming the problems) may succeed. The message names the problems only, never the answer
 * itself.
 */
public final class InvalidModelOutput extends RuntimeException {
  private final List<String> problems;

  public InvalidModelOutput(List<String> problems) {
    super("the model's answer is invalid: " + String.join("; ", problems), null, false, false);
    this.problems = List.copyOf(problems);
  }

  public InvalidModelOutput(String problem) {
    this(List.of(problem));
  }

  public List<String> problems() {
    return problems;
  }
}
