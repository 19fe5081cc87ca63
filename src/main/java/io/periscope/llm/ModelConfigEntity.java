package io.periscope.llm;

import io.periscope.entity.JournaledEntity;
import io.periscope.entity.JsonSerializable;
import java.time.Instant;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;

/**
 * The model configuration an admin set, cluster-wide: one entity ({@link #ID}) reached through
 * sharding, so every node reads the same configuration from its single writer. Until an admin sets
 * one, the state holds none and the operator's MODEL_* settings apply ({@link ModelConfigs}).
 */
public final class ModelConfigEntity
    extends JournaledEntity<
        ModelConfigEntity.Command, ModelConfigEntity.Event, ModelConfigEntity.State> {

  public static final EntityTypeKey<Command> TYPE_KEY =
      EntityTypeKey.create(Command.class, "ModelConfig");

  /**
   * How a service reaches this entity: the one model configuration of the cluster. Sharded when
   * serving, a local actor for the command line; a service is handed only the lookups of the
   * entities it asks.
   */
  @FunctionalInterface
  public interface Refs {
    RecipientRef<Command> modelConfig();
  }

  /** The one instance's entity id. */
  public static final String ID = "models";

  /**
   * {@code configuration}, {@code changedAt} and {@code changedBy} are null until an admin sets a
   * configuration.
   */
  public record State(ModelConfiguration configuration, Instant changedAt, String changedBy)
      implements JsonSerializable {}

  public sealed interface Command extends JsonSerializable {}

  public record Get(ActorRef<StatusReply<State>> replyTo) implements Command {}

  /** Replaces the configuration; answers the new state once it is in the journal. */
  public record Change(
      ModelConfiguration configuration, Instant at, String by, ActorRef<StatusReply<State>> replyTo)
      implements Command {}

  /**
   * Goes back to the operator's MODEL_* settings; answers the new state once it is in the journal.
   */
  public record Reset(Instant at, String by, ActorRef<StatusReply<State>> replyTo)
      implements Command {}

  public sealed interface Event extends JsonSerializable {}

  /** {@code by}: the admin's account id. */
  public record Changed(ModelConfiguration configuration, Instant at, String by) implements Event {}

  public record WasReset(Instant at, String by) implements Event {}

  public static Behavior<Command> create(String entityId) {
    return new ModelConfigEntity(entityId);
  }

  private ModelConfigEntity(String entityId) {
    super(TYPE_KEY, entityId);
  }

  @Override
  public State emptyState() {
    return new State(null, null, null);
  }

  @Override
  public CommandHandlerWithReply<Command, Event, State> commandHandler() {
    return newCommandHandlerWithReplyBuilder()
        .forAnyState()
        .onCommand(
            Get.class, (state, cmd) -> Effect().reply(cmd.replyTo(), StatusReply.success(state)))
        .onCommand(
            Change.class,
            (state, cmd) ->
                Effect()
                    .persist(new Changed(cmd.configuration(), cmd.at(), cmd.by()))
                    .thenReply(cmd.replyTo(), StatusReply::success))
        .onCommand(
            Reset.class,
            (state, cmd) ->
                Effect()
                    .persist(new WasReset(cmd.at(), cmd.by()))
                    .thenReply(cmd.replyTo(), StatusReply::success))
        .build();
  }

  @Override
  public EventHandler<State, Event> eventHandler() {
    return newEventHandlerBuilder()
        .forAnyState()
        .onEvent(Changed.class, (state, e) -> new State(e.configuration(), e.at(), e.by()))
        .onEvent(WasReset.class, (state, e) -> emptyState())
        .build();
  }
}
