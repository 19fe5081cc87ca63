package io.periscope.model;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.keys.KeyPoolEntity;
import io.periscope.keys.KeyPools;
import io.periscope.runtime.Failures;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * The configured model reached through the model key pool, so every caller (verdicts, assistance) gets the same
 * retries, cooldowns and dead keys. An answer the caller cannot use is asked for once more, naming its problems.
 */
public final class PooledModel {
  private final ModelClient client;
  private final KeyPools keyPools;

  public PooledModel(ModelClient client, KeyPools keyPools) {
    this.client = client;
    this.keyPools = keyPools;
  }

  /**
   * The model's answer to {@code prompt} as read by {@code read}, which throws {@link InvalidModelOutput} naming the
   * problems of an answer it cannot use. Such an answer is asked for once more with {@link
   * StructuredPrompt#retrying}; a second one fails the stage with its {@link InvalidModelOutput}. Provider failures
   * arrive as {@link io.periscope.keys.ProviderFailure}, an empty pool as {@link KeyPools.NoUsableKey}.
   */
  public <T> CompletionStage<T> ask(StructuredPrompt prompt, Function<JsonNode, T> read) {
    return once(prompt, read).exceptionallyCompose(e -> Failures.unwrap(e) instanceof InvalidModelOutput invalid
        ? once(prompt.retrying(invalid.problems()), read)
        : CompletableFuture.failedFuture(Failures.unwrap(e)));
  }

  private <T> CompletionStage<T> once(StructuredPrompt prompt, Function<JsonNode, T> read) {
    return keyPools.withKey(KeyPoolEntity.MODEL, key -> client.complete(prompt, key)).thenApply(read);
  }

  /** {@code provider:model}, as a run records the models it consulted. */
  public String label() {
    return client.provider() + ":" + client.model();
  }
}
