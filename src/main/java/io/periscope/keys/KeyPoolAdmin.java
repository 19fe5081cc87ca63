package io.periscope.keys;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.entity.Failures;
import io.periscope.entity.Refusal;
import io.periscope.json.Issue;
import io.periscope.json.ValidationException;
import io.periscope.provider.ProviderFailure;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.pekko.Done;

/**
 * What admins do with the key pools: add a key once its provider accepted it, remove one, set its
 * daily limit, probe it again, read one. Keys are addressed by pool and id (the fingerprint the
 * list shows), never by their material, and no message made here carries any of it: provider
 * failures are stripped of the key first.
 *
 * <p>A probe's answer decides: accepted, the key is added (or revived); rejected as invalid, 422
 * ({@link Rejected}), and a re-probed key dies; rate limited or out of quota, the key is real but
 * resting, so it is added (or kept) in cooldown; anything else (unreachable, a 5xx, a refusal of
 * the request itself such as a wrong base URL's 404) says nothing about the key: 502 ({@link
 * ProbeFailed}), and nothing changes.
 */
public final class KeyPoolAdmin {
  public static final List<String> POOLS = List.of(KeyPoolEntity.MODEL, KeyPoolEntity.SEARCH);
  static final int MIN_KEY = 8;
  static final int MAX_KEY = 512;
  static final long MAX_DAILY_LIMIT = 1_000_000_000L;

  /** How long a probe (of every endpoint it asks) may take before it counts as unanswered. */
  public static final Duration PROBE_DEADLINE = Duration.ofSeconds(20);

  /**
   * Asks a pool's provider whether it accepts a key: completes normally, or with a {@link
   * ProviderFailure}.
   */
  @FunctionalInterface
  public interface Probe {
    CompletionStage<Void> probe(String apiKey);
  }

  /** The pool holds that key already (409). */
  public static final class AlreadyInPool extends Refusal {
    AlreadyInPool(String pool, String keyId) {
      super(Kind.CONFLICT, "the " + pool + " pool holds this key already, as " + keyId);
    }
  }

  /** No such pool, or no such key in it (404). */
  public static final class NoSuchKey extends Refusal {
    NoSuchKey() {
      super(Kind.NOT_FOUND, "no such key");
    }
  }

  /** The provider rejected the key as invalid (422). */
  public static final class Rejected extends Refusal {
    Rejected(String message) {
      super(Kind.UNPROCESSABLE, message);
    }
  }

  /**
   * The probe learned nothing about the key: the provider failed or refused the request itself
   * (502).
   */
  public static final class ProbeFailed extends Refusal {
    ProbeFailed(String message) {
      super(Kind.UPSTREAM_FAILED, message);
    }
  }

  /** The pool's provider is not configured, so no key can be probed (503). */
  public static final class NotConfigured extends Refusal {
    NotConfigured(String pool) {
      super(Kind.UNAVAILABLE, "the " + pool + " provider is not configured");
    }
  }

  private final KeyPools pools;
  private final Map<String, Probe> probes;

  /**
   * @param probes by pool; a pool without one has no provider configured
   */
  public KeyPoolAdmin(KeyPools pools, Map<String, Probe> probes) {
    this.pools = pools;
    this.probes = Map.copyOf(probes);
  }

  /**
   * The key of a POST /admin/keys/:pool body, {@code {key}}: 8 to 512 printable ASCII characters
   * without spaces (what an HTTP header can carry), surrounding whitespace dropped. Issues never
   * quote it.
   */
  public static String keyOf(JsonNode body) {
    JsonNode key = body != null && body.isObject() ? body.get("key") : null;
    if (key == null || key.isNull()) throw invalid("is required", "key");
    if (!key.isTextual()) throw invalid("must be a string", "key");
    String text = key.asText().strip();
    if (text.length() < MIN_KEY || text.length() > MAX_KEY) {
      throw invalid("must be " + MIN_KEY + " to " + MAX_KEY + " characters", "key");
    }
    if (!text.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
      throw invalid("must be printable ASCII without spaces", "key");
    }
    return text;
  }

  /**
   * The limit of a PUT …/daily-limit body, {@code {dailyLimit}}: 1 to 1,000,000,000 uses a UTC day,
   * or null.
   */
  public static Long dailyLimitOf(JsonNode body) {
    if (body == null || !body.isObject() || !body.has("dailyLimit")) {
      throw invalid("is required: uses a day, or null for no limit", "dailyLimit");
    }
    JsonNode limit = body.get("dailyLimit");
    if (limit.isNull()) return null;
    if (!limit.isIntegralNumber() || limit.asLong() < 1 || limit.asLong() > MAX_DAILY_LIMIT) {
      throw invalid(
          "must be a whole number from 1 to " + MAX_DAILY_LIMIT + ", or null", "dailyLimit");
    }
    return limit.asLong();
  }

  /** One key as the list shows it. */
  public CompletionStage<KeyPoolEntity.KeyView> key(String pool, String keyId) {
    return pools
        .status(pool)
        .thenApply(
            status ->
                status.keys().stream()
                    .filter(k -> k.id().equals(keyId))
                    .findFirst()
                    .orElseThrow(NoSuchKey::new));
  }

  /** Probes {@code plaintext} and adds it when the provider does not reject it. */
  public CompletionStage<KeyPoolEntity.KeyView> add(String pool, String plaintext) {
    Probe probe = probe(pool);
    KeyPoolEntity.NewKey key = pools.seal(plaintext);
    return pools
        .status(pool)
        .thenCompose(
            status -> {
              if (status.keys().stream().anyMatch(k -> k.id().equals(key.id())))
                throw new AlreadyInPool(pool, key.id());
              return verdict(probe, plaintext);
            })
        .thenCompose(
            failure -> {
              if (failure != null && !resting(failure))
                throw refusal(pool, failure, "nothing was added");
              return pools
                  .<Done>ask(pool, reply -> new KeyPoolEntity.Add(key, reply))
                  .exceptionally(
                      e -> {
                        throw Failures.isRefusal(e)
                            ? new AlreadyInPool(pool, key.id())
                            : new CompletionException(Failures.unwrap(e));
                      })
                  .thenCompose(
                      added ->
                          failure == null
                              ? CompletableFuture.completedFuture(added)
                              : pools.report(pool, key.id(), failure))
                  .thenCompose(done -> key(pool, key.id()));
            });
  }

  /**
   * Probes a pool's key again: accepted, it is active again (dead or cooling down before);
   * rejected, it dies and the answer is {@link Rejected}; rate limited or out of quota, it cools
   * down.
   */
  public CompletionStage<KeyPoolEntity.KeyView> reprobe(String pool, String keyId) {
    Probe probe = probe(pool);
    return held(pools.<KeyPoolEntity.Lease>ask(
            pool, reply -> new KeyPoolEntity.GetSealed(keyId, reply)))
        .thenCompose(
            stored -> {
              String key;
              try {
                key = pools.unseal(stored.ciphertext());
              } catch (IllegalStateException undecryptable) {
                return pools
                    .bury(pool, keyId)
                    .<ProviderFailure>thenApply(
                        dead -> {
                          throw new Rejected(
                              "no ENCRYPTION_KEY key can decrypt the key; it is now dead: add it"
                                  + " again");
                        });
              }
              return verdict(probe, key);
            })
        .thenCompose(
            failure -> {
              if (failure == null)
                return held(pools.<Done>ask(pool, reply -> new KeyPoolEntity.Accept(keyId, reply)));
              if (failure.kind() != ProviderFailure.Kind.INVALID_KEY && !resting(failure)) {
                throw refusal(pool, failure, "the key's status is unchanged");
              }
              return pools
                  .report(pool, keyId, failure)
                  .thenApply(
                      reported -> {
                        if (failure.kind() == ProviderFailure.Kind.INVALID_KEY)
                          throw refusal(pool, failure, "the key is now dead");
                        return reported;
                      });
            })
        .thenCompose(done -> key(pool, keyId));
  }

  public CompletionStage<Done> remove(String pool, String keyId) {
    return held(pools.ask(pool, reply -> new KeyPoolEntity.Remove(keyId, reply)));
  }

  public CompletionStage<KeyPoolEntity.KeyView> setDailyLimit(
      String pool, String keyId, Long dailyLimit) {
    return held(pools.<Done>ask(
            pool, reply -> new KeyPoolEntity.SetDailyLimit(keyId, dailyLimit, reply)))
        .thenCompose(done -> key(pool, keyId));
  }

  private Probe probe(String pool) {
    Probe probe = probes.get(pool);
    if (probe == null) throw new NotConfigured(pool);
    return probe;
  }

  /**
   * Null when the provider accepted the key, else its failure without the key in its message. A
   * probe that takes longer than {@link #PROBE_DEADLINE} fails as a transient failure (the call
   * itself ends at its client's timeout).
   */
  private static CompletionStage<ProviderFailure> verdict(Probe probe, String plaintext) {
    return probe
        .probe(plaintext)
        .toCompletableFuture()
        .orTimeout(PROBE_DEADLINE.toMillis(), TimeUnit.MILLISECONDS)
        .handle(
            (accepted, e) -> {
              if (e == null) return null;
              Throwable cause = Failures.unwrap(e);
              if (cause instanceof ProviderFailure failure) return failure.withoutKey(plaintext);
              if (cause instanceof TimeoutException) {
                return new ProviderFailure(
                    ProviderFailure.Kind.TRANSIENT,
                    null,
                    null,
                    "provider did not answer within " + PROBE_DEADLINE.toSeconds() + " s");
              }
              throw new CompletionException(cause);
            });
  }

  /** A rate limit or a spent quota: the provider knew the key, which only has to rest. */
  private static boolean resting(ProviderFailure failure) {
    return failure.kind() == ProviderFailure.Kind.RATE_LIMITED
        || failure.kind() == ProviderFailure.Kind.QUOTA_EXHAUSTED;
  }

  /** {@link Rejected} for an invalid key, else {@link ProbeFailed}. */
  private static RuntimeException refusal(
      String pool, ProviderFailure failure, String consequence) {
    return failure.kind() == ProviderFailure.Kind.INVALID_KEY
        ? new Rejected(
            "the "
                + pool
                + " provider rejected the key: "
                + failure.getMessage()
                + "; "
                + consequence)
        : new ProbeFailed(
            "the "
                + pool
                + " provider could not check the key: "
                + failure.getMessage()
                + "; "
                + consequence);
  }

  /** An entity's refusal of a command about one key means the pool does not hold it. */
  private static <T> CompletionStage<T> held(CompletionStage<T> asked) {
    return asked.exceptionally(
        e -> {
          throw Failures.isRefusal(e)
              ? new NoSuchKey()
              : new CompletionException(Failures.unwrap(e));
        });
  }

  private static ValidationException invalid(String message, String field) {
    return new ValidationException(List.of(Issue.at(message, field)));
  }
}
