package io.periscope.runtime;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.Extension;
import org.apache.pekko.actor.typed.ExtensionId;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;

/**
 * Whether this node should be sent requests: its HTTP interface is bound and not shutting down, it
 * is Up in its cluster (so it serves its shards), and every readiness check the parts of the node
 * registered passes (the journal's database answers, the wake-up projection is not failing). Asked
 * by {@code GET /health/ready} on every profile and by Pekko Management's {@code /ready} on the
 * cluster profiles ({@link Check}); a check that does not answer within {@link #CHECK_WITHIN} has
 * failed. Nothing here restarts anything: a node whose database comes back is ready again.
 */
public final class Serving implements Extension {
  static final java.time.Duration CHECK_WITHIN = java.time.Duration.ofSeconds(4);

  private final AtomicBoolean serving = new AtomicBoolean();
  private final Map<String, Supplier<Boolean>> checks = new ConcurrentHashMap<>();
  private final ActorSystem<?> system;

  private static final ExtensionId<Serving> ID =
      new ExtensionId<>() {
        @Override
        public Serving createExtension(ActorSystem<?> system) {
          return new Serving(system);
        }
      };

  private Serving(ActorSystem<?> system) {
    this.system = system;
  }

  public static Serving get(ActorSystem<?> system) {
    return ID.apply(system);
  }

  public void started() {
    serving.set(true);
  }

  public void stopping() {
    serving.set(false);
  }

  public boolean isServing() {
    return serving.get();
  }

  /**
   * Adds a check that must pass for the node to be ready; it may block (it runs off the actors).
   */
  public void require(String name, Supplier<Boolean> check) {
    checks.put(name, check);
  }

  /** Each condition of readiness by name, {@code serving} and {@code cluster} first. */
  public CompletionStage<Map<String, Boolean>> readiness() {
    Map<String, CompletableFuture<Boolean>> answers = new LinkedHashMap<>();
    answers.put("serving", CompletableFuture.completedFuture(serving.get()));
    answers.put(
        "cluster",
        CompletableFuture.completedFuture(
            Cluster.get(system).selfMember().status().equals(MemberStatus.up())));
    var blocking = system.dispatchers().lookup(DispatcherSelector.blocking());
    for (String name : List.copyOf(new java.util.TreeSet<>(checks.keySet()))) {
      Supplier<Boolean> check = checks.get(name);
      answers.put(
          name,
          CompletableFuture.supplyAsync(check, blocking)
              .completeOnTimeout(false, CHECK_WITHIN.toMillis(), TimeUnit.MILLISECONDS)
              .exceptionally(failed -> false));
    }
    return CompletableFuture.allOf(answers.values().toArray(CompletableFuture[]::new))
        .thenApply(
            done -> {
              Map<String, Boolean> result = new LinkedHashMap<>();
              answers.forEach((name, answer) -> result.put(name, answer.join()));
              return result;
            });
  }

  public CompletionStage<Boolean> isReady() {
    return readiness().thenApply(conditions -> !conditions.containsValue(false));
  }

  /** The readiness check, instantiated by Pekko Management (configured in periscope.conf). */
  public static final class Check implements Supplier<CompletionStage<Boolean>> {
    private final Serving serving;

    public Check(org.apache.pekko.actor.ActorSystem system) {
      this.serving = Serving.get(Adapter.toTyped(system));
    }

    @Override
    public CompletionStage<Boolean> get() {
      return serving.isReady();
    }
  }
}
