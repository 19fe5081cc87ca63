package io.periscope.crypto;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotSame;

import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.Test;

public class Sha256Test {
  private static final String ABC =
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"; // FIPS 180-2, "abc"

  @Test
  public void digestsAsTheStandardSays() {
    assertEquals(ABC, HexFormat.of().formatHex(Sha256.of("abc")));
    assertEquals(ABC, HexFormat.of().formatHex(Sha256.of(new byte[] {'a', 'b', 'c'})));
  }

  @Test
  public void aDigestLeftHalfWayDoesNotLeakIntoTheNext() {
    Sha256.digest().update((byte) 'x'); // abandoned before its digest()
    assertEquals(ABC, HexFormat.of().formatHex(Sha256.of("abc")));
    MessageDigest sha = Sha256.digest();
    sha.update((byte) 'a');
    sha.update(new byte[] {'b', 'c'});
    assertEquals(ABC, HexFormat.of().formatHex(sha.digest()));
  }

  @Test
  public void eachThreadHasItsOwn() throws Exception {
    MessageDigest here = Sha256.digest();
    MessageDigest[] there = new MessageDigest[1];
    Thread t = new Thread(() -> there[0] = Sha256.digest());
    t.start();
    t.join();
    assertNotSame(here, there[0]);
  }
}
