package io.periscope.notify;

import io.periscope.crypto.PerThread;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Webhook signatures as Standard Webhooks (standardwebhooks.com) define them, so receivers can use
 * its libraries: a secret {@code whsec_<base64 of 32 random bytes>}, and the header {@code
 * webhook-signature: v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">}.
 */
public final class WebhookSignature {
  public static final String SECRET_PREFIX = "whsec_";
  private static final int SECRET_BYTES = 32;
  private static final SecureRandom RANDOM = new SecureRandom();

  /** A Mac a thread, keyed again for each message. */
  private static final ThreadLocal<Mac> MAC = PerThread.of(Mac::getInstance, "HmacSHA256");

  private WebhookSignature() {}

  /** A new secret, to be shown to its owner once. */
  public static String newSecret() {
    byte[] key = new byte[SECRET_BYTES];
    RANDOM.nextBytes(key);
    return SECRET_PREFIX + Base64.getEncoder().encodeToString(key);
  }

  /** The {@code webhook-signature} header's value for a message signed with {@code secret}. */
  public static String sign(String secret, String id, long timestampSeconds, byte[] body) {
    if (!secret.startsWith(SECRET_PREFIX)) throw new IllegalArgumentException("not a secret");
    try {
      Mac mac = MAC.get();
      // init resets whatever a call before left
      mac.init(
          new SecretKeySpec(
              Base64.getDecoder().decode(secret.substring(SECRET_PREFIX.length())), "HmacSHA256"));
      mac.update((id + "." + timestampSeconds + ".").getBytes(StandardCharsets.UTF_8));
      return "v1," + Base64.getEncoder().encodeToString(mac.doFinal(body));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is always available", e);
    }
  }
}
