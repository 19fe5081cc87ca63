package io.periscope.entity;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.japi.function.Function;
import org.apache.pekko.pattern.StatusReply;

/**
 * Asking entities with one timeout; a StatusReply error fails the stage with {@link EntityRefusal}.
 */
public final class Asks {
  private final ActorSystem<?> system;
  private final Duration timeout;

  public Asks(ActorSystem<?> system, Duration timeout) {
    this.system = system;
    this.timeout = timeout;
  }

  public <C, R> CompletionStage<R> ask(
      RecipientRef<C> target, Function<ActorRef<StatusReply<R>>, C> command) {
    return ask(target, command, timeout);
  }

  /** For commands that take long on purpose, such as a run. */
  public <C, R> CompletionStage<R> ask(
      RecipientRef<C> target, Function<ActorRef<StatusReply<R>>, C> command, Duration patience) {
    // Pekko's stage is Scala's CompletableFuture adapter, which runs every dependent "async" on the
    // common pool, and on few cores that pool starts a thread per task (docs/performance.md, "Asks
    // once cost a thread each"). A plain future completed on the actor dispatcher keeps the chain
    // after an ask on threads that exist.
    CompletableFuture<R> result = new CompletableFuture<>();
    AskPattern.<C, StatusReply<R>>ask(target, command::apply, patience, system.scheduler())
        .whenCompleteAsync(
            (reply, failure) -> {
              if (failure != null) result.completeExceptionally(failure);
              else if (reply.isError())
                result.completeExceptionally(new EntityRefusal(reply.getError().getMessage()));
              else result.complete(reply.getValue());
            },
            system.executionContext());
    return result;
  }
}
