package io.periscope.runtime;

import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.japi.function.Function;
import org.apache.pekko.pattern.StatusReply;
import java.time.Duration;
import java.util.concurrent.CompletionStage;

/** Asking entities with one timeout; a StatusReply error fails the stage with {@link EntityRefusal}. */
public final class Asks {
  private final ActorSystem<?> system;
  private final Duration timeout;

  public Asks(ActorSystem<?> system, Duration timeout) {
    this.system = system;
    this.timeout = timeout;
  }

  public ActorSystem<?> system() {
    return system;
  }

  public <C, R> CompletionStage<R> ask(RecipientRef<C> target, Function<ActorRef<StatusReply<R>>, C> command) {
    return ask(target, command, timeout);
  }

  /** For commands that take long on purpose, such as a run. */
  public <C, R> CompletionStage<R> ask(RecipientRef<C> target, Function<ActorRef<StatusReply<R>>, C> command,
                                       Duration patience) {
    return AskPattern.<C, StatusReply<R>>ask(target, command::apply, patience, system.scheduler())
        .thenApply(reply -> {
          if (reply.isError()) throw new EntityRefusal(reply.getError().getMessage());
          return reply.getValue();
        });
  }
}
