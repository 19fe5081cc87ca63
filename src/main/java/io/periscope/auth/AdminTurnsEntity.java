package io.periscope.auth;

import io.periscope.entity.JsonSerializable;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.UUID;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.pattern.StatusReply;

/**
 * Gives the changes that could leave no enabled administrator (a demotion, a disable, a delete)
 * their turn one at a time, cluster-wide: one entity ({@link #ID}), so two administrators demoting
 * each other through two nodes in the same instant cannot both count the other as the one who
 * stays. A turn is held until it is given back, at most {@link #HELD_AT_MOST} (a node that dies
 * holding one delays the others that long, no longer); the next waiting change then gets it. Turns
 * are in memory only: an entity started again (its node gone) begins with none held.
 */
public final class AdminTurnsEntity extends AbstractBehavior<AdminTurnsEntity.Command> {
  public static final EntityTypeKey<Command> TYPE_KEY =
      EntityTypeKey.create(Command.class, "AdminTurns");

  /** The one instance's entity id. */
  public static final String ID = "admin";

  /** How long a turn is held at most: far longer than a change takes (a few asks). */
  static final Duration HELD_AT_MOST = Duration.ofSeconds(30);

  @FunctionalInterface
  public interface Refs {
    RecipientRef<Command> adminTurns();
  }

  public sealed interface Command extends JsonSerializable {}

  /** Answered with the turn's id once it is the asker's turn. */
  public record Take(ActorRef<StatusReply<String>> replyTo) implements Command {}

  /** The turn is over; the next waiting change gets one. */
  public record GiveBack(String turn) implements Command {}

  /** A turn held for {@link #HELD_AT_MOST} ends (sent by the entity to itself). */
  record Expire(String turn) implements Command {}

  public static Behavior<Command> create(String entityId) {
    return create(HELD_AT_MOST);
  }

  static Behavior<Command> create(Duration heldAtMost) {
    return Behaviors.setup(
        context ->
            Behaviors.withTimers(timers -> new AdminTurnsEntity(context, timers, heldAtMost)));
  }

  private final TimerScheduler<Command> timers;
  private final Duration heldAtMost;
  private final Deque<ActorRef<StatusReply<String>>> waiting = new ArrayDeque<>();

  /** The turn now held, or null. */
  private String held;

  private AdminTurnsEntity(
      ActorContext<Command> context, TimerScheduler<Command> timers, Duration heldAtMost) {
    super(context);
    this.timers = timers;
    this.heldAtMost = heldAtMost;
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Take.class, this::onTake)
        .onMessage(GiveBack.class, giveBack -> ended(giveBack.turn()))
        .onMessage(Expire.class, expire -> ended(expire.turn()))
        .build();
  }

  private Behavior<Command> onTake(Take take) {
    if (held == null) give(take.replyTo());
    else waiting.add(take.replyTo());
    return this;
  }

  private Behavior<Command> ended(String turn) {
    if (turn.equals(held)) {
      timers.cancel(turn);
      held = null;
      if (!waiting.isEmpty()) give(waiting.poll());
    }
    return this;
  }

  private void give(ActorRef<StatusReply<String>> to) {
    held = UUID.randomUUID().toString();
    timers.startSingleTimer(held, new Expire(held), heldAtMost);
    to.tell(StatusReply.success(held));
  }
}
