package io.periscope.feedback;

import io.periscope.entity.JournaledEntity;
import io.periscope.entity.JsonSerializable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.ReplyEffect;

/**
 * The feedback on the runs of one watch of one owner (entity id {@code owner:watchId}, as the
 * watch's own): one feedback per run, a second one on the same run replacing the first. Its journal
 * is separate from the watch's and, like run history, outlives a deleted watch; a watch created
 * again under the same id continues both. The caller checks that the run exists ({@code
 * WatchEntity.GetRun}) before giving feedback.
 */
public final class FeedbackEntity
    extends JournaledEntity<FeedbackEntity.Command, FeedbackEntity.Event, FeedbackEntity.State> {

  public static final EntityTypeKey<Command> TYPE_KEY =
      EntityTypeKey.create(Command.class, "Feedback");

  /**
   * How a service reaches this entity: the feedback on one watch's runs: addressed like the watch,
   * by owner and watch id. Sharded when serving, a local actor for the command line; a service is
   * handed only the lookups of the entities it asks.
   */
  @FunctionalInterface
  public interface Refs {
    RecipientRef<Command> feedback(String accountId, String watchId);
  }

  /**
   * Feedback records kept at hand per watch, the most recently given; the journal keeps them all.
   */
  public static final int KEPT = 100;

  public static String entityId(String accountId, String watchId) {
    return accountId + ":" + watchId;
  }

  // ---- state
  // -------------------------------------------------------------------------------------

  /** Most recently given first, at most {@link #KEPT}, one per run. */
  public record State(List<Feedback> newestFirst) implements JsonSerializable {
    public State {
      newestFirst = List.copyOf(newestFirst);
    }

    State with(Feedback feedback) {
      List<Feedback> next = new ArrayList<>(KEPT);
      next.add(feedback);
      without(feedback.runId()).newestFirst().stream().limit(KEPT - 1).forEach(next::add);
      return new State(next);
    }

    State without(String runId) {
      return new State(newestFirst.stream().filter(f -> !f.runId().equals(runId)).toList());
    }

    boolean has(String runId) {
      return newestFirst.stream().anyMatch(f -> f.runId().equals(runId));
    }
  }

  /** Feedback records, most recently given first. */
  public record FeedbackList(List<Feedback> feedback) implements JsonSerializable {
    public FeedbackList {
      feedback = List.copyOf(feedback);
    }
  }

  // ---- commands
  // ----------------------------------------------------------------------------------

  public sealed interface Command extends JsonSerializable {}

  /** Records the feedback, replacing any earlier one on the same run. */
  public record Give(Feedback feedback, ActorRef<StatusReply<Feedback>> replyTo)
      implements Command {}

  /** Refused when the run has no feedback. */
  public record Withdraw(String runId, ActorRef<StatusReply<Done>> replyTo) implements Command {}

  /** The {@code limit} most recently given. */
  public record GetFeedback(int limit, ActorRef<StatusReply<FeedbackList>> replyTo)
      implements Command {}

  // ---- events
  // ------------------------------------------------------------------------------------

  public sealed interface Event extends JsonSerializable {}

  public record FeedbackGiven(Feedback feedback) implements Event {}

  public record FeedbackWithdrawn(String runId, Instant at) implements Event {}

  // ---- behaviour
  // ---------------------------------------------------------------------------------

  public static Behavior<Command> create(String entityId) {
    return new FeedbackEntity(entityId);
  }

  private FeedbackEntity(String entityId) {
    super(TYPE_KEY, entityId);
  }

  @Override
  public State emptyState() {
    return new State(List.of());
  }

  @Override
  public CommandHandlerWithReply<Command, Event, State> commandHandler() {
    return newCommandHandlerWithReplyBuilder()
        .forAnyState()
        .onCommand(
            Give.class,
            (state, cmd) ->
                Effect()
                    .persist(new FeedbackGiven(cmd.feedback()))
                    .thenReply(cmd.replyTo(), s -> StatusReply.success(cmd.feedback())))
        .onCommand(Withdraw.class, this::onWithdraw)
        .onCommand(
            GetFeedback.class,
            (state, cmd) ->
                Effect()
                    .reply(
                        cmd.replyTo(),
                        StatusReply.success(
                            new FeedbackList(
                                state.newestFirst().stream().limit(cmd.limit()).toList()))))
        .build();
  }

  private ReplyEffect<Event, State> onWithdraw(State state, Withdraw cmd) {
    if (!state.has(cmd.runId()))
      return Effect().reply(cmd.replyTo(), StatusReply.error("feedback not found"));
    return Effect()
        .persist(new FeedbackWithdrawn(cmd.runId(), Instant.now()))
        .thenReply(cmd.replyTo(), s -> StatusReply.ack());
  }

  @Override
  public EventHandler<State, Event> eventHandler() {
    return newEventHandlerBuilder()
        .forAnyState()
        .onEvent(FeedbackGiven.class, (state, e) -> state.with(e.feedback()))
        .onEvent(FeedbackWithdrawn.class, (state, e) -> state.without(e.runId()))
        .build();
  }
}
