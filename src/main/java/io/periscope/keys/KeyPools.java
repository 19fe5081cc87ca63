package io.periscope.keys;

import io.periscope.entity.Asks;
import io.periscope.entity.EntityRefusal;
import io.periscope.notify.AdminAlerts;
import io.periscope.provider.ProviderFailure;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.pattern.StatusReply;

/**
 * Calls through a key pool: lease a key, call, tell the pool what the provider said about the key
 * (cooldown, dead), and retry what another key or a moment later may fix, with exponential backoff.
 */
public final class KeyPools {
  /** Attempts of one call across keys, the first included. */
  public static final int MAX_ATTEMPTS = 3;

  static final Duration FIRST_BACKOFF = Duration.ofMillis(250);

  private final KeyPoolEntity.Refs pools;
  private final Asks asks;
  private final KeyCipher cipher;
  private final AdminAlerts alerts;
  private final Clock clock;

  /**
   * No key of the pool can be used now (none configured, all dead, cooling down or over their
   * limit).
   */
  public static final class NoUsableKey extends RuntimeException {
    public NoUsableKey(String pool) {
      super("no usable " + pool + " key is configured", null, false, false);
    }
  }

  /**
   * @param alerts told about a key that none of the cipher's keys can decrypt (it is made dead)
   */
  public KeyPools(
      KeyPoolEntity.Refs pools, Asks asks, KeyCipher cipher, AdminAlerts alerts, Clock clock) {
    this.pools = pools;
    this.asks = asks;
    this.cipher = cipher;
    this.alerts = alerts;
    this.clock = clock;
  }

  /** Adds the keys a pool does not hold yet (the operator's MODEL_API_KEYS / SEARCH_API_KEYS). */
  public CompletionStage<Done> seed(String pool, List<String> plaintextKeys) {
    List<KeyPoolEntity.NewKey> keys = plaintextKeys.stream().map(this::seal).toList();
    return ask(pool, reply -> new KeyPoolEntity.Seed(keys, reply));
  }

  /** A key as the pool stores it: its fingerprint as id, encrypted, and masked for display. */
  KeyPoolEntity.NewKey seal(String plaintext) {
    return new KeyPoolEntity.NewKey(
        KeyCipher.fingerprint(plaintext), cipher.encrypt(plaintext), KeyCipher.mask(plaintext));
  }

  String unseal(String ciphertext) {
    return cipher.decrypt(ciphertext);
  }

  <R> CompletionStage<R> ask(
      String pool,
      org.apache.pekko.japi.function.Function<ActorRef<StatusReply<R>>, KeyPoolEntity.Command>
          command) {
    return asks.ask(pools.keyPool(pool), command);
  }

  /** Writes both pools' counted uses, for a process that is about to end (the command line). */
  public CompletionStage<Done> flush() {
    return this.<Done>ask(KeyPoolEntity.MODEL, KeyPoolEntity.Flush::new)
        .thenCompose(model -> ask(KeyPoolEntity.SEARCH, KeyPoolEntity.Flush::new));
  }

  public CompletionStage<KeyPoolEntity.PoolStatus> status(String pool) {
    return ask(pool, reply -> new KeyPoolEntity.GetStatus(clock.instant(), reply));
  }

  /**
   * Whether a call through {@code pool} could have a key now. With none (none configured, all dead,
   * cooling down or over their limit) the capability the pool serves counts as not configured.
   */
  public CompletionStage<Boolean> hasUsableKey(String pool) {
    return status(pool).thenApply(s -> s.keys().stream().anyMatch(KeyPoolEntity.KeyView::usable));
  }

  /**
   * Runs {@code call} with a key of {@code pool}, retrying retryable failures on the next usable
   * key.
   */
  public <T> CompletionStage<T> withKey(String pool, Function<String, CompletionStage<T>> call) {
    return attempt(pool, call, 1);
  }

  private <T> CompletionStage<T> attempt(
      String pool, Function<String, CompletionStage<T>> call, int attempt) {
    return this.<KeyPoolEntity.Lease>ask(
            pool, reply -> new KeyPoolEntity.Acquire(clock.instant(), reply))
        .exceptionally(
            e -> {
              throw unwrap(e) instanceof EntityRefusal
                  ? new NoUsableKey(pool)
                  : new CompletionException(unwrap(e));
            })
        .thenCompose(
            lease -> {
              String key;
              try {
                key = unseal(lease.ciphertext());
              } catch (IllegalStateException undecryptable) {
                return bury(pool, lease.keyId()).thenCompose(x -> attempt(pool, call, attempt));
              }
              return call.apply(key)
                  .handle(
                      (value, failure) -> {
                        if (failure == null) return CompletableFuture.completedFuture(value);
                        Throwable cause = unwrap(failure);
                        if (!(cause instanceof ProviderFailure provider))
                          return CompletableFuture.<T>failedFuture(cause);
                        ProviderFailure pf = provider.withoutKey(key);
                        return report(pool, lease.keyId(), pf)
                            .thenCompose(
                                reported ->
                                    pf.retryable() && attempt < MAX_ATTEMPTS
                                        ? later(backoff(attempt))
                                            .thenCompose(x -> attempt(pool, call, attempt + 1))
                                        : CompletableFuture.<T>failedFuture(pf));
                      })
                  .thenCompose(stage -> stage);
            });
  }

  /**
   * Tells the pool what a call's failure means for its key (a cooldown, death, or nothing). Never
   * fails.
   */
  CompletionStage<Done> report(String pool, String keyId, ProviderFailure failure) {
    Instant now = clock.instant();
    Instant until =
        switch (failure.kind()) {
          case RATE_LIMITED ->
              now.plus(
                  failure.retryAfter() != null
                      ? failure.retryAfter()
                      : KeyPoolEntity.DEFAULT_COOLDOWN);
          // Quotas reset daily at the latest; a provider's Retry-After is believed when it gives
          // one.
          case QUOTA_EXHAUSTED ->
              failure.retryAfter() != null
                  ? now.plus(failure.retryAfter())
                  : LocalDate.ofInstant(now, ZoneOffset.UTC)
                      .plusDays(1)
                      .atStartOfDay(ZoneOffset.UTC)
                      .toInstant();
          default -> null;
        };
    String problem =
        failure.kind().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-')
            + (failure.httpStatus() != null ? " (HTTP " + failure.httpStatus() + ")" : "");
    return this.<Done>ask(
            pool, reply -> new KeyPoolEntity.Report(keyId, failure.kind(), until, problem, reply))
        .exceptionally(
            ignored -> Done.getInstance()); // the call's own failure matters more than the report
  }

  /**
   * A key none of the configured encryption keys can read (ENCRYPTION_KEY lost or changed) would
   * fail every call that leased it: it is made dead, the operator is told, and the call goes on
   * with another key. Never fails.
   */
  CompletionStage<Done> bury(String pool, String keyId) {
    String problem = "undecryptable: no ENCRYPTION_KEY key reads it; add the key again";
    alerts.alert(
        AdminAlerts.Kind.KEY_UNDECRYPTABLE,
        "the " + pool + " key " + keyId + " cannot be decrypted and is now dead; add it again");
    return this.<Done>ask(
            pool,
            reply ->
                new KeyPoolEntity.Report(
                    keyId, ProviderFailure.Kind.INVALID_KEY, null, problem, reply))
        .exceptionally(ignored -> Done.getInstance());
  }

  static Duration backoff(int attempt) {
    return FIRST_BACKOFF.multipliedBy(1L << (attempt - 1));
  }

  private static CompletableFuture<Void> later(Duration delay) {
    return CompletableFuture.runAsync(
        () -> {}, CompletableFuture.delayedExecutor(delay.toMillis(), TimeUnit.MILLISECONDS));
  }

  private static Throwable unwrap(Throwable t) {
    while (t instanceof CompletionException && t.getCause() != null) t = t.getCause();
    return t;
  }
}
