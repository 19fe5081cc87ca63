package io.periscope.llm;

import io.periscope.entity.Asks;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import okhttp3.OkHttpClient;

/**
 * The model configuration in force, as any node reads it: the one an admin set ({@link
 * ModelConfigEntity}), or the operator's MODEL_* settings until an admin sets one. It is read from
 * the entity as each model question starts, never cached, so a change is asked by the very next
 * question on every node: no propagation delay. The read is one in-memory ask of one entity, beside
 * the key pool lease every question takes anyway.
 */
public final class ModelConfigs {
  private final ModelConfigEntity.Refs modelConfig;
  private final Asks asks;
  private final ModelConfiguration fromEnvironment;
  private final OkHttpClient http;
  private final Clock clock;

  /**
   * @param http the trusted upstream client the model clients share
   */
  public ModelConfigs(
      ModelConfigEntity.Refs modelConfig,
      Asks asks,
      ModelConfiguration fromEnvironment,
      OkHttpClient http,
      Clock clock) {
    this.modelConfig = modelConfig;
    this.asks = asks;
    this.fromEnvironment = fromEnvironment;
    this.http = http;
    this.clock = clock;
  }

  /**
   * The configuration in force; {@code changedAt} and {@code changedBy} are null while it is the
   * environment's.
   */
  public record InForce(
      ModelConfiguration configuration,
      boolean fromEnvironment,
      Instant changedAt,
      String changedBy) {}

  public CompletionStage<InForce> current() {
    return asks.ask(modelConfig.modelConfig(), ModelConfigEntity.Get::new).thenApply(this::inForce);
  }

  /**
   * Replaces the configuration cluster-wide; completes once it is written, when every node asks the
   * new models.
   */
  public CompletionStage<InForce> change(ModelConfiguration next, String byAccount) {
    return asks.<ModelConfigEntity.Command, ModelConfigEntity.State>ask(
            modelConfig.modelConfig(),
            reply -> new ModelConfigEntity.Change(next, clock.instant(), byAccount, reply))
        .thenApply(this::inForce);
  }

  /** Goes back to the operator's MODEL_* settings cluster-wide. */
  public CompletionStage<InForce> reset(String byAccount) {
    return asks.<ModelConfigEntity.Command, ModelConfigEntity.State>ask(
            modelConfig.modelConfig(),
            reply -> new ModelConfigEntity.Reset(clock.instant(), byAccount, reply))
        .thenApply(this::inForce);
  }

  /** The model verdicts ask now. */
  public PooledModel.Choice verdicts() {
    return () -> current().thenApply(c -> client(c.configuration().verdicts()));
  }

  /** The model AI assistance asks now. */
  public PooledModel.Choice assistance() {
    return () -> current().thenApply(c -> client(c.configuration().assistance()));
  }

  /**
   * The clients made, by endpoint: every question of a configuration asks the same one or two, so a
   * client (it holds no state of its own) is made once, not per question. Emptied when it grows
   * past a few, which only changes of the configuration make it do.
   */
  private final Map<ModelChoice, ModelClient> clients = new ConcurrentHashMap<>();

  private ModelClient client(ModelChoice choice) {
    ModelClient made = clients.get(choice);
    if (made != null) return made;
    if (clients.size() >= 8) clients.clear();
    return clients.computeIfAbsent(choice, c -> ModelClients.create(c, http));
  }

  /**
   * Whether {@code apiKey} is accepted by every endpoint in force (one key pool serves verdicts and
   * assistance), by listing models at each in turn: completes normally, or with the first
   * endpoint's {@link io.periscope.provider.ProviderFailure}.
   */
  public CompletionStage<Void> probe(String apiKey) {
    return current()
        .thenCompose(
            c -> {
              CompletionStage<Void> all = CompletableFuture.completedFuture(null);
              for (ModelChoice endpoint : c.configuration().endpoints()) {
                all =
                    all.thenCompose(accepted -> ModelClients.create(endpoint, http).probe(apiKey));
              }
              return all;
            });
  }

  private InForce inForce(ModelConfigEntity.State state) {
    return state.configuration() == null
        ? new InForce(fromEnvironment, true, null, null)
        : new InForce(state.configuration(), false, state.changedAt(), state.changedBy());
  }
}
