package io.periscope.keys;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Encrypts provider keys, and the generated VAPID private key, at rest (AES-256-GCM). The
 * encryption key is derived from the service secret (AUTH_JWT_SECRET, which every node of a cluster
 * shares), so the journal and cluster messages only ever carry ciphertext and each node can decrypt
 * what it needs. Other secrets that must travel sealed (the sign-in flow of an identity provider)
 * use a key derived for their own purpose.
 */
public final class KeyCipher {
  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;
  private final SecretKeySpec key;
  private final SecureRandom random = new SecureRandom();

  public KeyCipher(String serviceSecret) {
    this(serviceSecret, "periscope provider keys v1");
  }

  /**
   * @param purpose what the key is for: each purpose derives its own key, so ciphertexts never
   *     cross purposes
   */
  public KeyCipher(String serviceSecret, String purpose) {
    this.key =
        new SecretKeySpec(hmac(serviceSecret.getBytes(StandardCharsets.UTF_8), purpose), "AES");
  }

  public String encrypt(String plaintext) {
    try {
      byte[] nonce = new byte[NONCE_BYTES];
      random.nextBytes(nonce);
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
      byte[] sealed = cipher.doFinal(plaintext.getBytes(StandardCharsets.UTF_8));
      return Base64.getEncoder()
          .encodeToString(
              ByteBuffer.allocate(nonce.length + sealed.length).put(nonce).put(sealed).array());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot encrypt", e);
    }
  }

  public String decrypt(String ciphertext) {
    try {
      byte[] all = Base64.getDecoder().decode(ciphertext);
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, all, 0, NONCE_BYTES));
      return new String(
          cipher.doFinal(all, NONCE_BYTES, all.length - NONCE_BYTES), StandardCharsets.UTF_8);
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new IllegalStateException("cannot decrypt: was the service secret changed?", e);
    }
  }

  /** A stable, non-reversible id for a key: the same key seeded twice is one key. */
  public static String fingerprint(String plaintext) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(plaintext.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 8);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** What may be shown of a key: its first three and last four characters, never the middle. */
  public static String mask(String plaintext) {
    if (plaintext.length() <= 12)
      return "…" + plaintext.substring(Math.max(0, plaintext.length() - 2));
    return plaintext.substring(0, 3) + "…" + plaintext.substring(plaintext.length() - 4);
  }

  private static byte[] hmac(byte[] secret, String purpose) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret, "HmacSHA256"));
      return mac.doFinal(purpose.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
