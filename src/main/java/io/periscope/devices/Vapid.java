package io.periscope.devices;

import io.periscope.entity.Asks;
import io.periscope.entity.Failures;
import io.periscope.entity.Refusal;
import io.periscope.keys.KeyCipher;
import io.periscope.keys.Reencryption;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The service's VAPID identity: the configured key pair (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY), else
 * the one generated once for the cluster and kept in the journal ({@link VapidKeyEntity}), and the
 * optional subject (VAPID_SUBJECT, a {@code mailto:} or {@code https:} contact the push services
 * may use).
 */
public final class Vapid {
  private static final Logger log = LoggerFactory.getLogger(Vapid.class);
  private final Optional<VapidKeys> configured;
  private final Optional<String> subject;
  private final VapidKeyEntity.Refs vapidKey;
  private final Asks asks;
  private final KeyCipher cipher;

  /** The pair once known; cleared after a failed read so the next use asks again. */
  private final AtomicReference<CompletableFuture<VapidKeys>> keys = new AtomicReference<>();

  public Vapid(
      Optional<VapidKeys> configured,
      Optional<String> subject,
      VapidKeyEntity.Refs vapidKey,
      Asks asks,
      KeyCipher cipher) {
    this.configured = configured;
    this.subject = subject;
    this.vapidKey = vapidKey;
    this.asks = asks;
    this.cipher = cipher;
  }

  /**
   * Seals the generated private key anew under the newest encryption key (nothing to do for a
   * configured pair, or before a pair was generated). A key no configured key can read is reported
   * undecryptable: set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or let devices subscribe again.
   */
  public CompletionStage<Reencryption.Result> reencrypt() {
    if (configured.isPresent()) return CompletableFuture.completedFuture(Reencryption.Result.NONE);
    return asks.<VapidKeyEntity.Command, VapidKeyEntity.StoredKeys>ask(
            vapidKey.vapidKey(), VapidKeyEntity.Get::new)
        .handle(
            (stored, none) -> {
              if (none != null) {
                if (Failures.isRefusal(none))
                  return CompletableFuture.completedFuture(Reencryption.Result.NONE);
                return CompletableFuture.<Reencryption.Result>failedFuture(none);
              }
              String previous = stored.privateKeyCiphertext();
              if (cipher.current(previous))
                return CompletableFuture.completedFuture(new Reencryption.Result(0, 1, 0));
              String resealed;
              try {
                resealed = cipher.encrypt(cipher.decrypt(previous));
              } catch (IllegalStateException undecryptable) {
                return CompletableFuture.completedFuture(new Reencryption.Result(0, 0, 1));
              }
              return asks.<VapidKeyEntity.Command, org.apache.pekko.Done>ask(
                      vapidKey.vapidKey(), r -> new VapidKeyEntity.Reseal(previous, resealed, r))
                  .thenApply(done -> new Reencryption.Result(1, 0, 0));
            })
        .thenCompose(stage -> stage);
  }

  /**
   * The generated pair's private key cannot be read with ENCRYPTION_KEY's keys: Web Push is
   * unavailable (503) until they can, or VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set.
   */
  public static final class Unreadable extends Refusal {
    Unreadable() {
      super(
          Kind.UNAVAILABLE,
          "the service's VAPID private key cannot be decrypted with ENCRYPTION_KEY's keys: list the"
              + " key that sealed it, or set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY");
    }
  }

  private String readable(VapidKeyEntity.StoredKeys stored) {
    try {
      return cipher.decrypt(stored.privateKeyCiphertext());
    } catch (IllegalStateException e) {
      log.error("event=vapid-key-undecryptable");
      throw new Unreadable();
    }
  }

  public Optional<String> subject() {
    return subject;
  }

  public CompletionStage<VapidKeys> keys() {
    if (configured.isPresent()) return CompletableFuture.completedFuture(configured.get());
    CompletableFuture<VapidKeys> mine = new CompletableFuture<>();
    CompletableFuture<VapidKeys> known = keys.compareAndExchange(null, mine);
    if (known != null) return known;
    VapidKeys candidate = VapidKeys.generate();
    asks.<VapidKeyEntity.Command, VapidKeyEntity.StoredKeys>ask(
            vapidKey.vapidKey(),
            r ->
                new VapidKeyEntity.GetOrAdopt(
                    new VapidKeyEntity.StoredKeys(
                        candidate.publicKey(), cipher.encrypt(candidate.privateKey())),
                    r))
        .thenApply(stored -> new VapidKeys(stored.publicKey(), readable(stored)))
        .whenComplete(
            (pair, failure) -> {
              if (failure != null) {
                keys.compareAndSet(mine, null);
                mine.completeExceptionally(failure);
              } else {
                mine.complete(pair);
              }
            });
    return mine;
  }
}
