package io.periscope.keys;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.Done;

/**
 * Seals every stored key anew under the newest key of {@code ENCRYPTION_KEY}, so the older keys
 * (and the key earlier versions derived from {@code AUTH_JWT_SECRET}) can be dropped. A key no
 * configured key can read is made dead, with an operational alert, like at its next lease.
 */
public final class Reencryption {
  /**
   * What a re-encryption found: keys sealed anew, keys already under the newest key, and keys no
   * configured key can read.
   */
  public record Result(int reencrypted, int current, int undecryptable) {
    public static final Result NONE = new Result(0, 0, 0);

    public Result plus(Result other) {
      return new Result(
          reencrypted + other.reencrypted,
          current + other.current,
          undecryptable + other.undecryptable);
    }
  }

  private final KeyPools pools;
  private final KeyCipher cipher;

  /**
   * @param cipher the keyring the pools use
   */
  public Reencryption(KeyPools pools, KeyCipher cipher) {
    this.pools = pools;
    this.cipher = cipher;
  }

  /** Every key of {@code pool}, one after the other. */
  public CompletionStage<Result> pool(String pool) {
    return pools
        .status(pool)
        .thenCompose(
            status -> {
              CompletionStage<Result> done = CompletableFuture.completedFuture(Result.NONE);
              for (KeyPoolEntity.KeyView key : status.keys()) {
                done = done.thenCompose(sum -> key(pool, key.id()).thenApply(sum::plus));
              }
              return done;
            });
  }

  private CompletionStage<Result> key(String pool, String keyId) {
    return pools
        .<KeyPoolEntity.Lease>ask(pool, reply -> new KeyPoolEntity.GetSealed(keyId, reply))
        .thenCompose(
            stored -> {
              if (cipher.current(stored.ciphertext()))
                return CompletableFuture.completedFuture(new Result(0, 1, 0));
              String resealed;
              try {
                resealed = cipher.encrypt(cipher.decrypt(stored.ciphertext()));
              } catch (IllegalStateException undecryptable) {
                return pools.bury(pool, keyId).thenApply(x -> new Result(0, 0, 1));
              }
              return pools
                  .<Done>ask(
                      pool,
                      reply ->
                          new KeyPoolEntity.Reseal(keyId, stored.ciphertext(), resealed, reply))
                  .thenApply(x -> new Result(1, 0, 0));
            });
  }

  /** The sum of several re-encryptions. */
  public static CompletionStage<Result> all(List<CompletionStage<Result>> parts) {
    CompletionStage<Result> sum = CompletableFuture.completedFuture(Result.NONE);
    for (CompletionStage<Result> part : parts) sum = sum.thenCombine(part, Result::plus);
    return sum;
  }
}
