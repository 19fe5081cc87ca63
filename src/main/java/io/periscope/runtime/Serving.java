package io.periscope.runtime;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Extension;
import org.apache.pekko.actor.typed.ExtensionId;
import org.apache.pekko.actor.typed.javadsl.Adapter;

/**
 * Whether this node's HTTP interface takes requests: from the moment it is bound until shutdown
 * begins. Pekko Management's {@code /ready} asks it through {@link Check}, beside its own check
 * that the node is Up, so a load balancer sends requests only to a node that is in the cluster and
 * listening, and stops before the port closes.
 */
public final class Serving implements Extension {
  private final AtomicBoolean serving = new AtomicBoolean();

  private static final ExtensionId<Serving> ID =
      new ExtensionId<>() {
        @Override
        public Serving createExtension(ActorSystem<?> system) {
          return new Serving();
        }
      };

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

  /** The readiness check, instantiated by Pekko Management (configured in periscope.conf). */
  public static final class Check implements Supplier<CompletionStage<Boolean>> {
    private final Serving serving;

    public Check(org.apache.pekko.actor.ActorSystem system) {
      this.serving = Serving.get(Adapter.toTyped(system));
    }

    @Override
    public CompletionStage<Boolean> get() {
      return CompletableFuture.completedFuture(serving.isServing());
    }
  }
}
