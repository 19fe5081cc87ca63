package io.periscope.channels;

import io.periscope.entity.Asks;
import io.periscope.keys.KeyCipher;
import io.periscope.notify.WebhookSignature;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.Done;

/**
 * The secrets owners' webhooks are signed with: made here, shown to the owner once (the answer of
 * {@link #create}), then kept only encrypted; the webhook channel reads them through {@link
 * #secret}.
 */
public final class WebhookSecretStore implements io.periscope.notify.WebhookSecrets {
  /** Whether the owner has a secret and since when; never the secret. */
  public record Status(boolean exists, Instant createdAt) {}

  /** A secret just made: the only time it is shown. */
  public record Created(String secret, Instant createdAt) {}

  private final WebhookSecretEntity.Refs entities;
  private final Asks asks;
  private final KeyCipher cipher;
  private final Clock clock;

  public WebhookSecretStore(
      WebhookSecretEntity.Refs entities, Asks asks, KeyCipher cipher, Clock clock) {
    this.entities = entities;
    this.asks = asks;
    this.cipher = cipher;
    this.clock = clock;
  }

  /** A new secret for {@code owner}, replacing (rotating) any earlier one. */
  public CompletionStage<Created> create(String owner) {
    String secret = WebhookSignature.newSecret();
    return asks.<WebhookSecretEntity.Command, WebhookSecretEntity.State>ask(
            entities.webhookSecret(owner),
            reply ->
                new WebhookSecretEntity.Replace(cipher.encrypt(secret), clock.instant(), reply))
        .thenApply(state -> new Created(secret, state.createdAt()));
  }

  public CompletionStage<Status> status(String owner) {
    return stored(owner).thenApply(s -> new Status(s.exists(), s.createdAt()));
  }

  /** Forgets the secret: webhooks go unsigned again. Refused when there is none. */
  public CompletionStage<Done> remove(String owner) {
    return asks.ask(entities.webhookSecret(owner), WebhookSecretEntity.Remove::new);
  }

  @Override
  public CompletionStage<Optional<String>> secret(String owner) {
    return stored(owner)
        .thenApply(
            s -> s.exists() ? Optional.of(cipher.decrypt(s.ciphertext())) : Optional.empty());
  }

  private CompletionStage<WebhookSecretEntity.State> stored(String owner) {
    return asks.ask(entities.webhookSecret(owner), WebhookSecretEntity.Get::new);
  }
}
