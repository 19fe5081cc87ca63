package io.periscope.channels;

import io.periscope.entity.JournaledEntity;
import io.periscope.entity.JsonSerializable;
import java.time.Instant;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;

/**
 * The secret an owner's webhooks are signed with (entity id = owner), encrypted ({@code
 * keys.KeyCipher}): the journal and cluster messages only ever carry its ciphertext. At most one;
 * making a new one replaces it, which is how it is rotated.
 */
public final class WebhookSecretEntity
    extends JournaledEntity<
        WebhookSecretEntity.Command, WebhookSecretEntity.Event, WebhookSecretEntity.State> {

  public static final EntityTypeKey<Command> TYPE_KEY =
      EntityTypeKey.create(Command.class, "WebhookSecret");

  /** How a service reaches the entity of an owner's webhook secret. */
  @FunctionalInterface
  public interface Refs {
    RecipientRef<Command> webhookSecret(String owner);
  }

  /** The sealed secret and when it was made; both null when the owner has none. */
  public record State(String ciphertext, Instant createdAt) implements JsonSerializable {
    static final State NONE = new State(null, null);

    public boolean exists() {
      return ciphertext != null;
    }
  }

  public sealed interface Command extends JsonSerializable {}

  public record Get(ActorRef<StatusReply<State>> replyTo) implements Command {}

  /** Keeps a new secret, replacing the old one. */
  public record Replace(String ciphertext, Instant at, ActorRef<StatusReply<State>> replyTo)
      implements Command {}

  /** Forgets the secret; refused when there is none. */
  public record Remove(ActorRef<StatusReply<Done>> replyTo) implements Command {}

  /**
   * Seals the same secret anew ({@code keys re-encrypt}), only while it is still {@code previous}.
   */
  public record Reseal(String previous, String ciphertext, ActorRef<StatusReply<Done>> replyTo)
      implements Command {}

  public sealed interface Event extends JsonSerializable {}

  public record SecretReplaced(String ciphertext, Instant at) implements Event {}

  public record SecretRemoved() implements Event {}

  public record SecretResealed(String ciphertext) implements Event {}

  public static Behavior<Command> create(String owner) {
    return new WebhookSecretEntity(owner);
  }

  private WebhookSecretEntity(String entityId) {
    super(TYPE_KEY, entityId);
  }

  @Override
  public State emptyState() {
    return State.NONE;
  }

  @Override
  public CommandHandlerWithReply<Command, Event, State> commandHandler() {
    return newCommandHandlerWithReplyBuilder()
        .forAnyState()
        .onCommand(
            Get.class, (state, cmd) -> Effect().reply(cmd.replyTo(), StatusReply.success(state)))
        .onCommand(
            Replace.class,
            (state, cmd) ->
                Effect()
                    .persist(new SecretReplaced(cmd.ciphertext(), cmd.at()))
                    .thenReply(cmd.replyTo(), StatusReply::success))
        .onCommand(
            Remove.class,
            (state, cmd) ->
                state.exists()
                    ? Effect()
                        .persist(new SecretRemoved())
                        .thenReply(cmd.replyTo(), s -> StatusReply.ack())
                    : Effect().reply(cmd.replyTo(), StatusReply.error("no webhook secret")))
        .onCommand(
            Reseal.class,
            // a secret replaced or removed meanwhile is left as it is
            (state, cmd) ->
                state.exists() && state.ciphertext().equals(cmd.previous())
                    ? Effect()
                        .persist(new SecretResealed(cmd.ciphertext()))
                        .thenReply(cmd.replyTo(), s -> StatusReply.ack())
                    : Effect().reply(cmd.replyTo(), StatusReply.ack()))
        .build();
  }

  @Override
  public EventHandler<State, Event> eventHandler() {
    return newEventHandlerBuilder()
        .forAnyState()
        .onEvent(SecretReplaced.class, (state, e) -> new State(e.ciphertext(), e.at()))
        .onEvent(SecretRemoved.class, (state, e) -> State.NONE)
        .onEvent(
            SecretResealed.class,
            (state, e) -> state.exists() ? new State(e.ciphertext(), state.createdAt()) : state)
        .build();
  }
}
