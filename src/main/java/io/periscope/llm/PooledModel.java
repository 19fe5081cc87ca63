package io.periscope.llm;

import com.fasterxml.jackson.databind.JsonNode;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.periscope.entity.Failures;
import io.periscope.keys.KeyPoolEntity;
import io.periscope.keys.KeyPools;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A model reached through the model key pool, so every caller (verdicts, assistance) gets the same
 * retries, cooldowns and dead keys (the command line, where no pool runs, brings its own {@link
 * Keys}). Which model is asked is looked up as each question starts ({@link Choice}), so a
 * configuration change applies to the next question; both tries of one question ask the same model.
 * An answer the caller cannot use is asked for once more, naming its problems.
 */
public final class PooledModel {
  /** The model to ask now. */
  @FunctionalInterface
  public interface Choice {
    CompletionStage<ModelClient> client();
  }

  /** Where a call gets its key, and what happens to a call that fails on one. */
  public interface Keys {
    <T> CompletionStage<T> withKey(Function<String, CompletionStage<T>> call);

    /**
     * The model key pool: retries, cooldowns and dead keys, as the service asks every model
     * question.
     */
    static Keys pool(KeyPools keyPools) {
      return new Keys() {
        @Override
        public <T> CompletionStage<T> withKey(Function<String, CompletionStage<T>> call) {
          return keyPools.withKey(KeyPoolEntity.MODEL, call);
        }
      };
    }

    /**
     * Each call the next of {@code keys} in turn, once: where no key pool runs (the command line),
     * a failed call is that call's failure.
     */
    static Keys rotating(List<String> keys) {
      if (keys.isEmpty()) throw new IllegalArgumentException("no key to rotate");
      List<String> copy = List.copyOf(keys);
      AtomicInteger next = new AtomicInteger();
      return new Keys() {
        @Override
        public <T> CompletionStage<T> withKey(Function<String, CompletionStage<T>> call) {
          return call.apply(copy.get(Math.floorMod(next.getAndIncrement(), copy.size())));
        }
      };
    }
  }

  /**
   * A usable answer, the model that gave it ({@code provider:model}, as a run records the models
   * consulted), and what the question took: every call it made, a second try's included.
   */
  public record Answer<T>(T value, String model, ModelUsage usage) {}

  private final Choice choice;
  private final Keys keys;
  private final ModelMeters meters;

  /**
   * @param meters where each call to the model is counted
   */
  public PooledModel(Choice choice, Keys keys, ModelMeters meters) {
    this.choice = choice;
    this.keys = keys;
    this.meters = meters;
  }

  /**
   * @param meters where each call to the model is counted
   */
  public PooledModel(Choice choice, KeyPools keyPools, ModelMeters meters) {
    this(choice, Keys.pool(keyPools), meters);
  }

  /** Measured into a registry of its own, which no scrape reads (tests of what is asked). */
  public PooledModel(Choice choice, KeyPools keyPools) {
    this(choice, Keys.pool(keyPools), new ModelMeters(new SimpleMeterRegistry()));
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
    return ask(prompt, read, consulting, usage -> {});
  }

  /**
   * As {@link #ask(StructuredPrompt, Function, Consumer)}, telling {@code used} what each call took
   * as the provider answers it: the tokens of an answer that could not be used count too, also when
   * the question then fails.
   */
  public <T> CompletionStage<Answer<T>> ask(
      StructuredPrompt prompt,
      Function<JsonNode, T> read,
      Consumer<String> consulting,
      Consumer<ModelUsage> used) {
    return choice
        .client()
        .thenCompose(
            client -> {
              String model = client.provider() + ":" + client.model();
              consulting.accept(model);
              AtomicReference<ModelUsage> total = new AtomicReference<>(ModelUsage.NONE);
              Consumer<ModelUsage> counted =
                  usage -> {
                    total.accumulateAndGet(usage, ModelUsage::plus);
                    used.accept(usage);
                  };
              return once(client, prompt, read, counted)
                  .exceptionallyCompose(
                      e ->
                          Failures.unwrap(e) instanceof InvalidModelOutput invalid
                              ? once(client, prompt.retrying(invalid.problems()), read, counted)
                              : CompletableFuture.failedFuture(Failures.unwrap(e)))
                  .thenApply(value -> new Answer<>(value, model, total.get()));
            });
  }

  private <T> CompletionStage<T> once(
      ModelClient client,
      StructuredPrompt prompt,
      Function<JsonNode, T> read,
      Consumer<ModelUsage> used) {
    String model = client.provider() + ":" + client.model();
    return keys.withKey(key -> meters.measured(model, client.completion(prompt, key)))
        .whenComplete(
            (completion, failure) -> {
              Throwable cause = failure == null ? null : Failures.unwrap(failure);
              if (cause instanceof KeyPools.NoUsableKey) meters.noKey(model);
              // the provider answered either way, and counted its tokens
              if (completion != null)
                used.accept(ModelUsage.of(completion.usage(), client.price()));
              else if (cause instanceof InvalidModelOutput invalid)
                used.accept(ModelUsage.of(invalid.usage(), client.price()));
            })
        .thenApply(completion -> read.apply(completion.answer()));
  }
}
