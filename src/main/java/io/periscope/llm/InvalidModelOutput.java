package io.periscope.llm;

import java.util.List;

/**
 * The model answered, but not with what was asked: not JSON, not an object, or not an instance of
 * the schema. Not a {@link io.periscope.provider.ProviderFailure}: the key is fine, and one more
 * try (naming the problems) may succeed. The message names the problems only, never the answer
 * itself. Thrown by a {@link ModelClient}, it carries what the call took: the tokens of an unusable
 * answer are spent all the same.
 */
public final class InvalidModelOutput extends RuntimeException {
  private final List<String> problems;
  private final ModelClient.Usage usage;

  public InvalidModelOutput(List<String> problems) {
    this(problems, ModelClient.Usage.UNKNOWN);
  }

  private InvalidModelOutput(List<String> problems, ModelClient.Usage usage) {
    super("the model's answer is invalid: " + String.join("; ", problems), null, false, false);
    this.problems = List.copyOf(problems);
    this.usage = usage;
  }

  public InvalidModelOutput(String problem) {
    this(List.of(problem));
  }

  public List<String> problems() {
    return problems;
  }

  /** The tokens of the call that answered this ({@link ModelClient.Usage#UNKNOWN} if not said). */
  public ModelClient.Usage usage() {
    return usage;
  }

  /** The same problems, in an answer whose call took {@code usage}. */
  InvalidModelOutput took(ModelClient.Usage usage) {
    return new InvalidModelOutput(problems, usage);
  }
}
