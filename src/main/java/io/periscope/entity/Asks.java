package io.periscope.entity;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apache.pekko.actor.Cancellable;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.japi.function.Function;
import org.apache.pekko.pattern.StatusReply;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.concurrent.ExecutionContextExecutor;

/**
 * Asking entities with one timeout; a StatusReply error fails the stage with {@link EntityRefusal}
 * (the entity's own, with its code, when it gave one).
 */
public final class Asks {
  private static final Logger log = LoggerFactory.getLogger(Asks.class);

  /** Tells the receivers of {@link #unawaited} apart: a system may have several of these. */
  private static final AtomicInteger RECEIVERS = new AtomicInteger();

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

  /**
   * Where the answers go of commands that nobody waits for, told instead of asked: an ask makes a
   * temporary actor and schedules its timeout, for an answer nothing reads. One actor for the
   * caller to keep (made once, not a command), which logs a refusal as {@code event}; an answer
   * that never comes goes unnoticed, as nothing waits on it.
   */
  public <R> ActorRef<StatusReply<R>> unawaited(String event) {
    return system.systemActorOf(
        Behaviors.<StatusReply<R>>receiveMessage(
            reply -> {
              if (reply.isError())
                log.warn("event={} problem={}", event, reply.getError().getMessage());
              return Behaviors.same();
            }),
        "unawaited-" + event + "-" + RECEIVERS.incrementAndGet(),
        Props.empty());
  }

  /** For commands that take long on purpose, such as a run. */
  public <C, R> CompletionStage<R> ask(
      RecipientRef<C> target, Function<ActorRef<StatusReply<R>>, C> command, Duration patience) {
    // Pekko's stage is Scala's CompletableFuture adapter, which runs every dependent "async" on the
    // common pool, and on few cores that pool starts a thread per task (docs/performance-log.md,
    // "Asks
    // once cost a thread each"). A plain future completed on the actor dispatcher keeps the chain
    // after an ask on threads that exist.
    CompletableFuture<R> result = new CompletableFuture<>();
    AskPattern.<C, StatusReply<R>>ask(target, command::apply, patience, system.scheduler())
        .whenCompleteAsync(
            (reply, failure) -> {
              if (failure != null) result.completeExceptionally(failure);
              else if (reply.isError())
                result.completeExceptionally(
                    reply.getError() instanceof EntityRefusal refusal
                        ? refusal
                        : new EntityRefusal(reply.getError().getMessage()));
              else result.complete(reply.getValue());
            },
            system.executionContext());
    return result;
  }

  /**
   * How long an answer that a probe found no longer owed still has to arrive before the ask fails:
   * the answer and the probe's "no" leave the target in that order, but on different paths.
   */
  static final Duration ANSWER_GRACE = Duration.ofSeconds(2);

  /**
   * How often {@link #askWhileOwed} probes: a dead node's entity is back elsewhere about 20 s after
   * the crash (docs/clustering.md), so an asker hears of it within about 25 s.
   */
  static final Duration PROBE_EVERY = Duration.ofSeconds(5);

  /**
   * As {@link #ask(RecipientRef, Function, Duration)}, for an answer long in coming (a run, a
   * run-all): every {@link #PROBE_EVERY}, {@code owed} asks the target whether it still owes the
   * asker its answer. An entity whose node died comes back on another node without the askers it
   * held in memory, and nothing tells them (its end ran nowhere); the probe reaches the new
   * incarnation, which says no, and the ask fails with {@code gone} instead of waiting out its
   * patience. A probe that gets no answer (the dead node not yet downed) changes nothing.
   *
   * @param owed given the asker (the reply-to of {@code command}), whether it is still owed
   */
  public <C, R> CompletionStage<R> askWhileOwed(
      RecipientRef<C> target,
      Function<ActorRef<StatusReply<R>>, C> command,
      Duration patience,
      java.util.function.Function<ActorRef<StatusReply<R>>, CompletionStage<Boolean>> owed,
      Supplier<? extends Throwable> gone) {
    AtomicReference<ActorRef<StatusReply<R>>> asker = new AtomicReference<>();
    CompletableFuture<R> result =
        this.<C, R>ask(
                target,
                (ActorRef<StatusReply<R>> replyTo) -> {
                  asker.set(replyTo);
                  return command.apply(replyTo);
                },
                patience)
            .toCompletableFuture();
    ExecutionContextExecutor dispatcher = system.executionContext();
    Cancellable probes =
        system
            .scheduler()
            .scheduleWithFixedDelay(
                PROBE_EVERY,
                PROBE_EVERY,
                () ->
                    owed.apply(asker.get())
                        .whenComplete(
                            (stillOwed, failure) -> {
                              if (Boolean.FALSE.equals(stillOwed))
                                system
                                    .scheduler()
                                    .scheduleOnce(
                                        ANSWER_GRACE,
                                        () -> result.completeExceptionally(gone.get()),
                                        dispatcher);
                            }),
                dispatcher);
    result.whenComplete((answer, failure) -> probes.cancel());
    return result;
  }
}
