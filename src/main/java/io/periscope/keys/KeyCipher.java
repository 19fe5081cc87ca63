package io.periscope.keys;

import io.periscope.crypto.PerThread;
import io.periscope.crypto.Sha256;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Encrypts provider keys, and the generated VAPID private key, at rest (AES-256-GCM), so the
 * journal and cluster messages only ever carry ciphertext and each node can decrypt what it needs.
 *
 * <p>The service's cipher is a keyring ({@link #keyring}): {@code ENCRYPTION_KEY}'s keys, the first
 * encrypting and every one decrypting, so a key can be rotated (add the new one first, run {@code
 * keys re-encrypt}, then drop the old). Its ciphertexts say which key sealed them: {@code v2:<key
 * id>:<base64>}. Ciphertexts without that prefix were written by earlier versions under a key
 * derived from {@code AUTH_JWT_SECRET}; the keyring reads them with that key as long as any is
 * left, so a journal of an earlier version keeps working, and re-encrypting moves them off it.
 *
 * <p>A cipher made from a service secret alone ({@link #KeyCipher(String, String)}) seals things
 * that must travel for a moment (an identity provider's sign-in flow) under a key derived for that
 * purpose.
 */
public final class KeyCipher {
  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;
  private static final String V2 = "v2:";
  private static final String PROVIDER_KEYS_V1 = "periscope provider keys v1";
  private static final String PROVIDER_KEYS_V2 = "periscope provider keys v2";

  /** A key of the ring and its id: the first 8 hex digits of the key's SHA-256. */
  private record RingKey(String id, SecretKeySpec key) {
    static RingKey of(byte[] material) {
      return new RingKey(HexFormat.of().formatHex(Sha256.of(material), 0, 4), aes(material));
    }
  }

  /** Encrypts; null for a cipher that writes the earlier, unprefixed form. */
  private final RingKey newest;

  /** Decrypts prefixed ciphertexts, by key id. */
  private final List<RingKey> ring;

  /** Decrypts unprefixed ciphertexts (and encrypts them when {@link #newest} is null). */
  private final SecretKeySpec unprefixed;

  private final SecureRandom random = new SecureRandom();

  private KeyCipher(List<RingKey> ring, SecretKeySpec unprefixed) {
    this.ring = List.copyOf(ring);
    this.newest = ring.isEmpty() ? null : ring.get(0);
    this.unprefixed = unprefixed;
  }

  /**
   * The cipher of earlier versions: a key derived from the service secret, no key id. Kept for the
   * journals it wrote and for tests that write the same.
   */
  public KeyCipher(String serviceSecret) {
    this(serviceSecret, PROVIDER_KEYS_V1);
  }

  /**
   * @param purpose what the key is for: each purpose derives its own key, so ciphertexts never
   *     cross purposes
   */
  public KeyCipher(String serviceSecret, String purpose) {
    this(List.of(), aes(hmac(serviceSecret.getBytes(StandardCharsets.UTF_8), purpose)));
  }

  /**
   * The service's keyring.
   *
   * @param encryptionKeys ENCRYPTION_KEY's keys, newest first (at least one)
   * @param serviceSecret AUTH_JWT_SECRET, which derived the key of earlier versions' ciphertexts
   */
  public static KeyCipher keyring(List<String> encryptionKeys, String serviceSecret) {
    if (encryptionKeys.isEmpty()) throw new IllegalArgumentException("no encryption key");
    List<RingKey> ring = new ArrayList<>();
    for (String key : encryptionKeys) {
      if (key.getBytes(StandardCharsets.UTF_8).length < 32) {
        throw new IllegalArgumentException("ENCRYPTION_KEY: each key must be at least 32 bytes");
      }
      ring.add(RingKey.of(hmac(key.getBytes(StandardCharsets.UTF_8), PROVIDER_KEYS_V2)));
    }
    return new KeyCipher(
        ring, aes(hmac(serviceSecret.getBytes(StandardCharsets.UTF_8), PROVIDER_KEYS_V1)));
  }

  /**
   * The keyring of this configuration: {@code periscope.encryption.keys} (ENCRYPTION_KEY,
   * comma-separated, newest first), or the key generated on first start and kept in {@code
   * dataDir/encryption-key}.
   */
  public static KeyCipher keyring(
      com.typesafe.config.Config config, String serviceSecret, java.nio.file.Path dataDir)
      throws java.io.IOException {
    List<String> configured =
        io.periscope.config.Settings.commaList(config.getString("periscope.encryption.keys"));
    return keyring(
        configured.isEmpty()
            ? List.of(io.periscope.config.DataDir.secret(dataDir, "encryption-key"))
            : configured,
        serviceSecret);
  }

  public String encrypt(String plaintext) {
    if (newest == null) return seal(unprefixed, plaintext);
    return V2 + newest.id() + ":" + seal(newest.key(), plaintext);
  }

  /**
   * @throws IllegalStateException when no key of this cipher sealed it
   */
  public String decrypt(String ciphertext) {
    if (!ciphertext.startsWith(V2)) return open(unprefixed, ciphertext);
    int colon = ciphertext.indexOf(':', V2.length());
    String id = colon < 0 ? "" : ciphertext.substring(V2.length(), colon);
    for (RingKey k : ring) {
      if (k.id().equals(id)) return open(k.key(), ciphertext.substring(colon + 1));
    }
    throw new IllegalStateException(
        "cannot decrypt: sealed with key " + id + ", which ENCRYPTION_KEY does not list");
  }

  /** Whether the newest key sealed it: re-encrypting would change nothing. */
  public boolean current(String ciphertext) {
    return newest == null
        ? !ciphertext.startsWith(V2)
        : ciphertext.startsWith(V2 + newest.id() + ":");
  }

  private String seal(SecretKeySpec key, String plaintext) {
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

  /**
   * A decrypting Cipher a thread, initialized again for each message (a model key is opened for
   * every model call). Sealing keeps a Cipher a call: encryption refuses a key and nonce used
   * before, and seals are rare.
   */
  private static final ThreadLocal<Cipher> OPENING =
      PerThread.of(Cipher::getInstance, "AES/GCM/NoPadding");

  private static String open(SecretKeySpec key, String sealed) {
    try {
      byte[] all = Base64.getDecoder().decode(sealed);
      Cipher cipher = OPENING.get();
      // init resets whatever a call before left, a failed one's included
      cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, all, 0, NONCE_BYTES));
      return new String(
          cipher.doFinal(all, NONCE_BYTES, all.length - NONCE_BYTES), StandardCharsets.UTF_8);
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new IllegalStateException("cannot decrypt: was the key it was sealed with changed?", e);
    }
  }

  /** A stable, non-reversible id for a key: the same key seeded twice is one key. */
  public static String fingerprint(String plaintext) {
    return HexFormat.of().formatHex(Sha256.of(plaintext), 0, 8);
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

  private static SecretKeySpec aes(byte[] key) {
    return new SecretKeySpec(key, "AES");
  }
}
