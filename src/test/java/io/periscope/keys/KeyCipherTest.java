package io.periscope.keys;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.List;
import org.junit.Test;

public class KeyCipherTest {
  private static final String SECRET = "a-service-secret-of-at-least-32-bytes!!";

  @Test
  public void encryptsAndDecryptsWithoutKeepingThePlaintext() {
    KeyCipher cipher = new KeyCipher(SECRET);
    String sealed = cipher.encrypt("sk-live-1111111111111111");
    assertFalse(sealed.contains("1111111111111111"));
    assertEquals("sk-live-1111111111111111", cipher.decrypt(sealed));
    assertNotEquals(
        "each encryption uses a fresh nonce", sealed, cipher.encrypt("sk-live-1111111111111111"));
  }

  @Test
  public void anotherSecretCannotDecrypt() {
    String sealed = new KeyCipher(SECRET).encrypt("sk-live-1111111111111111");
    assertThrows(IllegalStateException.class, () -> new KeyCipher(SECRET + "x").decrypt(sealed));
  }

  /**
   * Each thread reuses its decrypting Cipher: a decryption after one that failed, or one under
   * another key, must read as if it were the first.
   */
  @Test
  public void decryptionsOnManyThreadsBetweenFailedOnesAndOtherKeysReadTheirPlaintext()
      throws Exception {
    KeyCipher cipher = new KeyCipher(SECRET);
    KeyCipher other = new KeyCipher(SECRET + "x");
    String sealed = cipher.encrypt("sk-live-1111111111111111");
    String otherSealed = other.encrypt("sk-live-2222222222222222");
    String tampered =
        sealed.substring(0, sealed.length() - 4) + (sealed.endsWith("AAAA") ? "BBBB" : "AAAA");
    java.util.concurrent.ExecutorService threads =
        java.util.concurrent.Executors.newFixedThreadPool(4);
    try {
      List<java.util.concurrent.Callable<Void>> work = new java.util.ArrayList<>();
      for (int t = 0; t < 8; t++)
        work.add(
            () -> {
              for (int i = 0; i < 200; i++) {
                assertThrows(IllegalStateException.class, () -> cipher.decrypt(tampered));
                assertEquals("sk-live-1111111111111111", cipher.decrypt(sealed));
                assertEquals("sk-live-2222222222222222", other.decrypt(otherSealed));
              }
              return null;
            });
      for (java.util.concurrent.Future<Void> f : threads.invokeAll(work)) f.get();
    } finally {
      threads.shutdown();
    }
  }

  @Test
  public void masksShowNeitherTheMiddleNorEnoughToGuess() {
    assertEquals("sk-…1111", KeyCipher.mask("sk-live-0000000000001111"));
    assertEquals("…89", KeyCipher.mask("short-789"));
  }

  @Test
  public void fingerprintsAreStableAndDistinct() {
    assertEquals(
        KeyCipher.fingerprint("k1-aaaaaaaaaaaa"), KeyCipher.fingerprint("k1-aaaaaaaaaaaa"));
    assertNotEquals(
        KeyCipher.fingerprint("k1-aaaaaaaaaaaa"), KeyCipher.fingerprint("k2-aaaaaaaaaaaa"));
    assertEquals(16, KeyCipher.fingerprint("anything").length());
  }

  @Test
  public void aKeyringEncryptsWithItsFirstKeyAndDecryptsWithAny() {
    String k1 = "first-encryption-key-of-at-least-32-bytes";
    String k2 = "second-encryption-key-of-at-least-32-bytes";
    String underK1 = KeyCipher.keyring(List.of(k1), SECRET).encrypt("sk-live-1111111111111111");
    KeyCipher rotated = KeyCipher.keyring(List.of(k2, k1), SECRET);
    assertEquals("sk-live-1111111111111111", rotated.decrypt(underK1));
    assertFalse(rotated.current(underK1));
    String underK2 = rotated.encrypt("sk-live-1111111111111111");
    assertTrue(rotated.current(underK2));
    assertEquals(
        "sk-live-1111111111111111",
        KeyCipher.keyring(List.of(k2), "another-jwt-secret").decrypt(underK2));
    assertThrows(
        IllegalStateException.class, () -> KeyCipher.keyring(List.of(k2), SECRET).decrypt(underK1));
  }

  @Test
  public void aKeyringReadsWhatEarlierVersionsSealedUnderTheServiceSecret() {
    String earlier = new KeyCipher(SECRET).encrypt("sk-live-1111111111111111");
    KeyCipher ring = KeyCipher.keyring(List.of("an-encryption-key-of-at-least-32-bytes"), SECRET);
    assertEquals("sk-live-1111111111111111", ring.decrypt(earlier));
    assertFalse("re-encrypting moves it to the ring's key", ring.current(earlier));
  }

  @Test
  public void aShortEncryptionKeyIsRefused() {
    assertThrows(
        IllegalArgumentException.class, () -> KeyCipher.keyring(List.of("too-short"), SECRET));
  }
}
