package io.periscope.crypto;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * A SHA-256 digest a thread ({@link PerThread}), for every digest the service takes (feeds and
 * items, alert ids, token and address hashes).
 */
public final class Sha256 {
  private static final ThreadLocal<MessageDigest> DIGEST =
      PerThread.of(MessageDigest::getInstance, "SHA-256");

  private Sha256() {}

  /**
   * This thread's digest, reset; its {@code digest()} ends its use, and no other digest of this
   * class may be taken on the thread before that.
   */
  public static MessageDigest digest() {
    MessageDigest sha = DIGEST.get();
    sha.reset();
    return sha;
  }

  /** The digest of {@code bytes}. */
  public static byte[] of(byte[] bytes) {
    return digest().digest(bytes);
  }

  /** The digest of {@code text} in UTF-8. */
  public static byte[] of(String text) {
    return of(text.getBytes(StandardCharsets.UTF_8));
  }
}
