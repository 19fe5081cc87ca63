package io.periscope.channels;

import io.periscope.entity.JournaledEntity;
import io.periscope.entity.JsonSerializable;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;

/**
 * The secrets an owner's webhooks are signed with (entity id = owner), encrypted ({@code
 * keys.KeyCipher}): the journal and cluster messages only ever carry their ciphertexts. Each
 * webhook endpoint has its own, made when it is first needed ({@link Ensure}) and rotated by making
 * a new one; an endpoint is named by a fingerprint of its URL and shown by its masked URL. The
 * account's own secret (at most one, from before endpoints had theirs) signs the endpoints that
 * have none while it exists, so receivers set up with it keep verifying.
 */
public final class WebhookSecretEntity
    extends JournaledEntity<
        WebhookSecretEntity.Command, WebhookSecretEntity.Event, WebhookSecretEntity.State> {

  public static final EntityTypeKey<Command> TYPE_KEY =
      EntityTypeKey.create(Command.class, "WebhookSecret");

  /** How a service reaches the entity of an owner's webhook secret. */
  @FunctionalInterface
  public interface Refs {
    RecipientRef<Command> webhookSecret(String accountId);
  }

  /**
   * The account's sealed secret and when it was made (both null when the owner has none), and the
   * endpoints' secrets by endpoint fingerprint (absent from states of earlier versions).
   */
  public record State(String ciphertext, Instant createdAt, Map<String, EndpointSecret> endpoints)
      implements JsonSerializable {
    static final State NONE = new State(null, null, Map.of());

    public State {
      endpoints = endpoints == null ? Map.of() : Map.copyOf(endpoints);
    }

    public State(String ciphertext, Instant createdAt) {
      this(ciphertext, createdAt, Map.of());
    }

    public boolean exists() {
      return ciphertext != null;
    }

    /** The secret that signs the endpoint: its own, else the account's; null when neither is. */
    public EndpointSecret signing(String endpoint) {
      EndpointSecret own = endpoints.get(endpoint);
      if (own != null || !exists()) return own;
      return new EndpointSecret(null, ciphertext, createdAt);
    }

    State withEndpoint(String endpoint, EndpointSecret secret) {
      Map<String, EndpointSecret> all = new TreeMap<>(endpoints);
      if (secret == null) all.remove(endpoint);
      else all.put(endpoint, secret);
      return new State(ciphertext, createdAt, all);
    }
  }

  /**
   * An endpoint's sealed secret: {@code url} is the endpoint's masked URL, null for the account's
   * secret signing an endpoint without its own.
   */
  public record EndpointSecret(String url, String ciphertext, Instant createdAt)
      implements JsonSerializable {
    public boolean own() {
      return url != null;
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

  /**
   * The secret that signs the endpoint (its own or the account's); when it has neither, {@code
   * ciphertext} becomes its own, made {@code at}.
   */
  public record Ensure(
      String endpoint,
      String url,
      String ciphertext,
      Instant at,
      ActorRef<StatusReply<EndpointSecret>> replyTo)
      implements Command {}

  /** A new secret of the endpoint's own, replacing (rotating) any earlier one. */
  public record ReplaceEndpoint(
      String endpoint,
      String url,
      String ciphertext,
      Instant at,
      ActorRef<StatusReply<EndpointSecret>> replyTo)
      implements Command {}

  /** Seals an endpoint's secret anew, only while it is still {@code previous}. */
  public record ResealEndpoint(
      String endpoint, String previous, String ciphertext, ActorRef<StatusReply<Done>> replyTo)
      implements Command {}

  public sealed interface Event extends JsonSerializable {}

  /** The endpoint's own secret, made or rotated. */
  public record EndpointSecretMade(String endpoint, String url, String ciphertext, Instant at)
      implements Event {}

  public record EndpointSecretResealed(String endpoint, String ciphertext) implements Event {}

  public record SecretReplaced(String ciphertext, Instant at) implements Event {}

  public record SecretRemoved() implements Event {}

  public record SecretResealed(String ciphertext) implements Event {}

  public static Behavior<Command> create(String accountId) {
    return new WebhookSecretEntity(accountId);
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
            Ensure.class,
            (state, cmd) -> {
              EndpointSecret signing = state.signing(cmd.endpoint());
              if (signing != null)
                return Effect().reply(cmd.replyTo(), StatusReply.success(signing));
              return Effect()
                  .persist(
                      new EndpointSecretMade(cmd.endpoint(), cmd.url(), cmd.ciphertext(), cmd.at()))
                  .thenReply(
                      cmd.replyTo(), s -> StatusReply.success(s.endpoints().get(cmd.endpoint())));
            })
        .onCommand(
            ReplaceEndpoint.class,
            (state, cmd) ->
                Effect()
                    .persist(
                        new EndpointSecretMade(
                            cmd.endpoint(), cmd.url(), cmd.ciphertext(), cmd.at()))
                    .thenReply(
                        cmd.replyTo(), s -> StatusReply.success(s.endpoints().get(cmd.endpoint()))))
        .onCommand(
            ResealEndpoint.class,
            // a secret rotated meanwhile is left as it is
            (state, cmd) -> {
              EndpointSecret own = state.endpoints().get(cmd.endpoint());
              return own != null && own.ciphertext().equals(cmd.previous())
                  ? Effect()
                      .persist(new EndpointSecretResealed(cmd.endpoint(), cmd.ciphertext()))
                      .thenReply(cmd.replyTo(), s -> StatusReply.ack())
                  : Effect().reply(cmd.replyTo(), StatusReply.ack());
            })
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
        .onEvent(
            SecretReplaced.class,
            (state, e) -> new State(e.ciphertext(), e.at(), state.endpoints()))
        .onEvent(SecretRemoved.class, (state, e) -> new State(null, null, state.endpoints()))
        .onEvent(
            SecretResealed.class,
            (state, e) ->
                state.exists()
                    ? new State(e.ciphertext(), state.createdAt(), state.endpoints())
                    : state)
        .onEvent(
            EndpointSecretMade.class,
            (state, e) ->
                state.withEndpoint(
                    e.endpoint(), new EndpointSecret(e.url(), e.ciphertext(), e.at())))
        .onEvent(
            EndpointSecretResealed.class,
            (state, e) -> {
              EndpointSecret own = state.endpoints().get(e.endpoint());
              return own == null
                  ? state
                  : state.withEndpoint(
                      e.endpoint(), new EndpointSecret(own.url(), e.ciphertext(), own.createdAt()));
            })
        .build();
  }
}
