package io.periscope.llm;

import com.fasterxml.jackson.databind.JsonNode;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.periscope.entity.Failures;
import io.periscope.keys.KeyPoolEntity;
import io.periscope.keys.KeyPools;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A model reached through the model key pool, so every caller (verdicts, assistance) gets the same
 * retries, cooldowns and dead keys. Which model is asked is looked up as each question starts
 * ({@link Choice}), so a configuration change applies to the next question; both tries of one
 * question ask the same model. An answer the caller cannot use is asked for once more, naming its
 * problems.
 */
public final class PooledModel {
  /** The model to ask now. */
  @FunctionalInterface
  public interface Choice {
    CompletionStage<ModelClient> client();
  }

  /**
   * A usable answer and the model that gave it, {@code provider:model}, as a run records the models
   * consulted.
   */
  public record Answer<T>(T value, String model) {}

  private final Choice choice;
  private final KeyPools keyPools;
  private final ModelMeters meters;

  /**
   * @param meters where each call to the model is counted
   */
  public PooledModel(Choice choice, KeyPools keyPools, ModelMeters meters) {
    this.choice = choice;
    this.keyPools = keyPools;
    this.meters = meters;
  }

  /** Measured into a registry of its own, which no scrape reads (tests of what is asked). */
  public PooledModel(Choice choice, KeyPools keyPools) {
    this(choice, keyPools, new ModelMeters(new SimpleMeterRegistry()));
  }

  /**
   * The model's answer to {@code prompt} as read by {@code read}, which throws {@link
   * InvalidModelOutput} naming the problems of an answer it cannot use. Such an answer is asked for
   * once more with {@link StructuredPrompt#retrying}; a second one fails the stage with its {@link
   * InvalidModelOutput}. Provider failures arrive as {@link io.periscope.provider.ProviderFailure},
   * an empty pool as {@link KeyPools.NoUsableKey}.
   */
  public <T> CompletionStage<Answer<T>> ask(StructuredPrompt prompt, Function<JsonNode, T> read) {
    return ask(prompt, read, model -> {});
  }

  /**
   * As {@link #ask(StructuredPrompt, Function)}, telling {@code consulting} the model ({@code
   * provider:model}) before it is asked: a run records the models it consulted also when the answer
   * fails.
   */
  public <T> CompletionStage<Answer<T>> ask(
      StructuredPrompt prompt, Function<JsonNode, T> read, Consumer<String> consulting) {
    return choice
        .client()
        .thenCompose(
            client -> {
              consulting.accept(client.provider() + ":" + client.model());
              return once(client, prompt, read)
                  .exceptionallyCompose(
                      e ->
                          Failures.unwrap(e) instanceof InvalidModelOutput invalid
                              ? once(client, prompt.retrying(invalid.problems()), read)
                              : CompletableFuture.failedFuture(Failures.unwrap(e)))
                  .thenApply(
                      value -> new Answer<>(value, client.provider() + ":" + client.model()));
            });
  }

  private <T> CompletionStage<T> once(
      ModelClient client, StructuredPrompt prompt, Function<JsonNode, T> read) {
    String model = client.provider() + ":" + client.model();
    return keyPools
        .withKey(KeyPoolEntity.MODEL, key -> meters.measured(model, client.completion(prompt, key)))
        .whenComplete(
            (answer, failure) -> {
              if (failure != null && Failures.unwrap(failure) instanceof KeyPools.NoUsableKey)
                meters.noKey(model);
            })
        .thenApply(completion -> read.apply(completion.answer()));
  }
}
