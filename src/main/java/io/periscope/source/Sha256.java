package io.periscope.source;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A SHA-256 digest a thread, for the digests a run takes of every feed and item: {@code
 * MessageDigest.getInstance} searches the security providers at every call, and a digest is not
 * safe to share between threads.
 */
final class Sha256 {
  private static final ThreadLocal<MessageDigest> DIGEST =
      ThreadLocal.withInitial(
          () -> {
            try {
              return MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
              throw new IllegalStateException("every Java platform has SHA-256", e);
            }
          });

  private Sha256() {}

  /** This thread's digest, reset; its {@code digest()} ends its use. */
  static MessageDigest digest() {
    MessageDigest sha = DIGEST.get();
    sha.reset();
    return sha;
  }
}
