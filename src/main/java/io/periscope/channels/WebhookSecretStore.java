package io.periscope.channels;

import io.periscope.entity.Asks;
import io.periscope.keys.KeyCipher;
import io.periscope.keys.Reencryption;
import io.periscope.notify.ChannelMask;
import io.periscope.notify.WebhookSignature;
import io.periscope.persistence.JournalReads;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.Done;

/**
 * The secrets owners' webhooks are signed with, kept only encrypted ({@link WebhookSecretEntity}):
 * each endpoint's own, made when a watch naming it is saved or it is first sent to ({@link
 * #secret}), read by its owner ({@link #endpoint}) and rotated ({@link #rotate}); and the account's
 * own, shown once when made ({@link #create}), which signs the endpoints without theirs.
 */
public final class WebhookSecretStore implements io.periscope.notify.WebhookSecrets {
  /**
   * Whether the owner has an account secret and since when, and the endpoints with their own secret
   * (masked URLs); never a secret.
   */
  public record Status(boolean exists, Instant createdAt, List<EndpointStatus> endpoints) {}

  /** An endpoint with its own secret: its masked URL and since when. */
  public record EndpointStatus(String url, Instant createdAt) {}

  /** A secret just made: the only time it is shown. */
  public record Created(String secret, Instant createdAt) {}

  /** An endpoint's own secret: its masked URL, the secret and when it was made. */
  public record EndpointSecret(String url, String secret, Instant createdAt) {}

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

  /** A new secret for {@code accountId}, replacing (rotating) any earlier one. */
  public CompletionStage<Created> create(String accountId) {
    String secret = WebhookSignature.newSecret();
    return asks.<WebhookSecretEntity.Command, WebhookSecretEntity.State>ask(
            entities.webhookSecret(accountId),
            reply ->
                new WebhookSecretEntity.Replace(cipher.encrypt(secret), clock.instant(), reply))
        .thenApply(state -> new Created(secret, state.createdAt()));
  }

  public CompletionStage<Status> status(String accountId) {
    return stored(accountId)
        .thenApply(
            s ->
                new Status(
                    s.exists(),
                    s.createdAt(),
                    s.endpoints().values().stream()
                        .map(e -> new EndpointStatus(e.url(), e.createdAt()))
                        .toList()));
  }

  /**
   * The endpoint's own secret, in plain text; empty when it has none (yet, or it is signed with the
   * account's).
   *
   * @param url the webhook's URL, as its channel names it after {@code webhook:}
   */
  public CompletionStage<Optional<EndpointSecret>> endpoint(String accountId, String url) {
    return stored(accountId)
        .thenApply(
            s ->
                Optional.ofNullable(s.endpoints().get(endpointOf(url)))
                    .map(
                        e ->
                            new EndpointSecret(
                                e.url(), cipher.decrypt(e.ciphertext()), e.createdAt())));
  }

  /** A new secret of the endpoint's own, replacing (rotating) any earlier one. */
  public CompletionStage<EndpointSecret> rotate(String accountId, String url) {
    String secret = WebhookSignature.newSecret();
    return asks.<WebhookSecretEntity.Command, WebhookSecretEntity.EndpointSecret>ask(
            entities.webhookSecret(accountId),
            reply ->
                new WebhookSecretEntity.ReplaceEndpoint(
                    endpointOf(url), shown(url), cipher.encrypt(secret), clock.instant(), reply))
        .thenApply(made -> new EndpointSecret(made.url(), secret, made.createdAt()));
  }

  /**
   * The secret that signs the owner's webhook to {@code url}: its own, else the account's, else one
   * made for it now. The secrets are read first and a new one sealed only when neither signs it
   * (the first attempt to an endpoint): sealing costs more than the rest of the attempt's signing,
   * and both commands are ones every release since endpoints had their own secrets answers.
   */
  @Override
  public CompletionStage<Optional<String>> secret(String accountId, String url) {
    String endpoint = endpointOf(url);
    return stored(accountId)
        .thenCompose(
            state -> {
              WebhookSecretEntity.EndpointSecret signing = state.signing(endpoint);
              if (signing != null) return CompletableFuture.completedFuture(signing);
              return asks.<WebhookSecretEntity.Command, WebhookSecretEntity.EndpointSecret>ask(
                  entities.webhookSecret(accountId),
                  reply ->
                      new WebhookSecretEntity.Ensure(
                          endpoint,
                          shown(url),
                          cipher.encrypt(WebhookSignature.newSecret()),
                          clock.instant(),
                          reply));
            })
        .thenApply(signing -> Optional.of(cipher.decrypt(signing.ciphertext())));
  }

  /**
   * An endpoint is its masked URL: its credentials play no part, and its name in the journal (a
   * fingerprint) reveals nothing of them.
   */
  private static String endpointOf(String url) {
    return KeyCipher.fingerprint(shown(url));
  }

  private static String shown(String url) {
    return ChannelMask.mask("webhook:" + url).substring("webhook:".length());
  }

  /** Forgets the secret: webhooks go unsigned again. Refused when there is none. */
  public CompletionStage<Done> remove(String accountId) {
    return asks.ask(entities.webhookSecret(accountId), WebhookSecretEntity.Remove::new);
  }

  /**
   * Seals every owner's secret anew under the newest key of ENCRYPTION_KEY, one after the other. A
   * secret no configured key can read is counted undecryptable: its owner makes a new one.
   */
  public CompletionStage<Reencryption.Result> reencrypt() {
    return journal
        .entityIds(WebhookSecretEntity.TYPE_KEY.name())
        .thenCompose(
            accountIds -> {
              CompletionStage<Reencryption.Result> done =
                  CompletableFuture.completedFuture(Reencryption.Result.NONE);
              for (String accountId : accountIds)
                done = done.thenCompose(sum -> reseal(accountId).thenApply(sum::plus));
              return done;
            });
  }

  private CompletionStage<Reencryption.Result> reseal(String accountId) {
    return stored(accountId)
        .thenCompose(
            stored -> {
              CompletionStage<Reencryption.Result> done =
                  stored.exists()
                      ? reseal(
                          stored.ciphertext(),
                          (resealed, reply) ->
                              new WebhookSecretEntity.Reseal(stored.ciphertext(), resealed, reply),
                          accountId)
                      : CompletableFuture.completedFuture(Reencryption.Result.NONE);
              for (var e : stored.endpoints().entrySet()) {
                String previous = e.getValue().ciphertext();
                done =
                    done.thenCompose(
                        sum ->
                            reseal(
                                    previous,
                                    (resealed, reply) ->
                                        new WebhookSecretEntity.ResealEndpoint(
                                            e.getKey(), previous, resealed, reply),
                                    accountId)
                                .thenApply(sum::plus));
              }
              return done;
            });
  }

  /** One sealed secret moved to the newest key, by the command {@code reseal} makes. */
  private CompletionStage<Reencryption.Result> reseal(
      String ciphertext,
      java.util.function.BiFunction<
              String,
              org.apache.pekko.actor.typed.ActorRef<org.apache.pekko.pattern.StatusReply<Done>>,
              WebhookSecretEntity.Command>
          reseal,
      String accountId) {
    if (cipher.current(ciphertext))
      return CompletableFuture.completedFuture(new Reencryption.Result(0, 1, 0));
    String resealed;
    try {
      resealed = cipher.encrypt(cipher.decrypt(ciphertext));
    } catch (IllegalStateException undecryptable) {
      return CompletableFuture.completedFuture(new Reencryption.Result(0, 0, 1));
    }
    return asks.<WebhookSecretEntity.Command, Done>ask(
            entities.webhookSecret(accountId), reply -> reseal.apply(resealed, reply))
        .thenApply(ok -> new Reencryption.Result(1, 0, 0));
  }

  private CompletionStage<WebhookSecretEntity.State> stored(String accountId) {
    return asks.ask(entities.webhookSecret(accountId), WebhookSecretEntity.Get::new);
  }
}
