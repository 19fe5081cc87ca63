package io.periscope.channels;

import io.periscope.entity.Asks;
import io.periscope.keys.KeyCipher;
import io.periscope.keys.Reencryption;
import io.periscope.notify.WebhookSignature;
import io.periscope.persistence.JournalReads;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
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
  private final JournalReads journal;
  private final Clock clock;

  /**
   * @param journal finds every owner who ever had a secret, for {@link #reencrypt}
   */
  public WebhookSecretStore(
      WebhookSecretEntity.Refs entities,
      Asks asks,
      KeyCipher cipher,
      JournalReads journal,
      Clock clock) {
    this.entities = entities;
    this.asks = asks;
    this.cipher = cipher;
    this.journal = journal;
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

  /**
   * Seals every owner's secret anew under the newest key of ENCRYPTION_KEY, one after the other. A
   * secret no configured key can read is counted undecryptable: its owner makes a new one.
   */
  public CompletionStage<Reencryption.Result> reencrypt() {
    return journal
        .entityIds(WebhookSecretEntity.TYPE_KEY.name())
        .thenCompose(
            owners -> {
              CompletionStage<Reencryption.Result> done =
                  CompletableFuture.completedFuture(Reencryption.Result.NONE);
              for (String owner : owners)
                done = done.thenCompose(sum -> reseal(owner).thenApply(sum::plus));
              return done;
            });
  }

  private CompletionStage<Reencryption.Result> reseal(String owner) {
    return stored(owner)
        .thenCompose(
            stored -> {
              if (!stored.exists())
                return CompletableFuture.completedFuture(Reencryption.Result.NONE);
              if (cipher.current(stored.ciphertext()))
                return CompletableFuture.completedFuture(new Reencryption.Result(0, 1, 0));
              String resealed;
              try {
                resealed = cipher.encrypt(cipher.decrypt(stored.ciphertext()));
              } catch (IllegalStateException undecryptable) {
                return CompletableFuture.completedFuture(new Reencryption.Result(0, 0, 1));
              }
              return asks.<WebhookSecretEntity.Command, Done>ask(
                      entities.webhookSecret(owner),
                      reply -> new WebhookSecretEntity.Reseal(stored.ciphertext(), resealed, reply))
                  .thenApply(ok -> new Reencryption.Result(1, 0, 0));
            });
  }

  private CompletionStage<WebhookSecretEntity.State> stored(String owner) {
    return asks.ask(entities.webhookSecret(owner), WebhookSecretEntity.Get::new);
  }
}
