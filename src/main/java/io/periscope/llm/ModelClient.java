package io.periscope.llm;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.CompletionStage;

/**
 * A language model behind one provider protocol, asked for answers that are instances of a JSON
 * schema.
 *
 * <p>Failures arrive as {@link io.periscope.provider.ProviderFailure} (classified for the key pool)
 * or as {@link InvalidModelOutput} (the model answered, but not with a JSON object; worth one more
 * try).
 */
public interface ModelClient {
  /**
   * Completes with the model's answer, a JSON object; its fit to the schema is the caller's to
   * check.
   */
  CompletionStage<JsonNode> complete(StructuredPrompt prompt, String apiKey);

  /**
   * As {@link #complete}, with the tokens the provider says the call took ({@link Usage#UNKNOWN}
   * when it does not say).
   */
  default CompletionStage<Completion> completion(StructuredPrompt prompt, String apiKey) {
    return complete(prompt, apiKey).thenApply(answer -> new Completion(answer, Usage.UNKNOWN));
  }

  /**
   * Tokens of one call as the provider counted them: {@code in} read (the whole prompt, cached
   * tokens included), {@code out} written (the answer), and {@code cachedIn}, the part of {@code
   * in} the provider read from its prompt cache (0 where it reports none).
   */
  record Usage(long in, long out, long cachedIn) {
    public static final Usage UNKNOWN = new Usage(0, 0, 0);
  }

  /** The answer and what it cost. */
  record Completion(JsonNode answer, Usage usage) {}

  /**
   * Checks that the provider accepts the key, by listing its models: completes normally or with a
   * failure.
   */
  CompletionStage<Void> probe(String apiKey);

  /** {@code openai} or {@code anthropic}: the protocol spoken. */
  String provider();

  /** The model asked, as recorded among a run's models consulted. */
  String model();

  /** What an administrator set this model's tokens to cost; null when no price is set. */
  default ModelPrice price() {
    return null;
  }
}
