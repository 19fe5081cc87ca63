package io.periscope.keys;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertThrows;

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
}
