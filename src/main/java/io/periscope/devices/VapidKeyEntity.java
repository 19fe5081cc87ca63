package io.periscope.devices;

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
 * The service's generated VAPID key pair, one for the whole cluster (a single entity, {@link #ID}),
 * so every node signs with the key the devices subscribed with. The first node to ask adopts its
 * candidate; every later ask gets that pair. The private key is stored encrypted ({@link
 * io.periscope.keys.KeyCipher}).
 */
public final class VapidKeyEntity
    extends JournaledEntity<VapidKeyEntity.Command, VapidKeyEntity.Event, VapidKeyEntity.State> {

  public static final EntityTypeKey<Command> TYPE_KEY =
      EntityTypeKey.create(Command.class, "VapidKey");

  /**
   * How a service reaches this entity: the cluster's one generated VAPID key pair. Sharded when
   * serving, a local actor for the command line; a service is handed only the lookups of the
   * entities it asks.
   */
  @FunctionalInterface
  public interface Refs {
    RecipientRef<Command> vapidKey();
  }

  public static final String ID = "vapid";

  /** {@code privateKeyCiphertext} is the encrypted base64url private key. */
  public record StoredKeys(String publicKey, String privateKeyCiphertext)
      implements JsonSerializable {}

  /** {@code keys} is null until a pair is adopted. */
  public record State(StoredKeys keys) implements JsonSerializable {}

  public sealed interface Command extends JsonSerializable {}

  /** The stored pair; {@code candidate} becomes it when there is none yet. */
  public record GetOrAdopt(StoredKeys candidate, ActorRef<StatusReply<StoredKeys>> replyTo)
      implements Command {}

  /** The stored pair; refused while there is none. */
  public record Get(ActorRef<StatusReply<StoredKeys>> replyTo) implements Command {}

  /**
   * Replaces the private key's ciphertext with the same key sealed under the newest encryption key,
   * unless it changed since {@code previous} was read.
   */
  public record Reseal(String previous, String ciphertext, ActorRef<StatusReply<Done>> replyTo)
      implements Command {}

  public sealed interface Event extends JsonSerializable {}

  public record KeysAdopted(StoredKeys keys, Instant at) implements Event {}

  public record PrivateKeyResealed(String privateKeyCiphertext) implements Event {}

  public static Behavior<Command> create(String entityId) {
    return new VapidKeyEntity(entityId);
  }

  private VapidKeyEntity(String entityId) {
    super(TYPE_KEY, entityId);
  }

  @Override
  public State emptyState() {
    return new State(null);
  }

  @Override
  public CommandHandlerWithReply<Command, Event, State> commandHandler() {
    return newCommandHandlerWithReplyBuilder()
        .forAnyState()
        .onCommand(
            GetOrAdopt.class,
            (state, cmd) ->
                state.keys() != null
                    ? Effect().reply(cmd.replyTo(), StatusReply.success(state.keys()))
                    : Effect()
                        .persist(new KeysAdopted(cmd.candidate(), Instant.now()))
                        .thenReply(cmd.replyTo(), s -> StatusReply.success(s.keys())))
        .onCommand(
            Get.class,
            (state, cmd) ->
                Effect()
                    .reply(
                        cmd.replyTo(),
                        state.keys() != null
                            ? StatusReply.success(state.keys())
                            : StatusReply.error("no key pair was generated")))
        .onCommand(
            Reseal.class,
            (state, cmd) ->
                state.keys() != null && state.keys().privateKeyCiphertext().equals(cmd.previous())
                    ? Effect()
                        .persist(new PrivateKeyResealed(cmd.ciphertext()))
                        .thenReply(cmd.replyTo(), s -> StatusReply.ack())
                    : Effect().reply(cmd.replyTo(), StatusReply.ack()))
        .build();
  }

  @Override
  public EventHandler<State, Event> eventHandler() {
    return newEventHandlerBuilder()
        .forAnyState()
        .onEvent(KeysAdopted.class, (state, e) -> new State(e.keys()))
        .onEvent(
            PrivateKeyResealed.class,
            (state, e) ->
                new State(new StoredKeys(state.keys().publicKey(), e.privateKeyCiphertext())))
        .build();
  }
}
