package io.periscope.auth;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.Test;

public class PasswordsTest {
  @Test
  public void aPasswordMatchesItsHash() {
    assertTrue(Passwords.matches("correct horse battery", Passwords.hash("correct horse battery")));
  }

  @Test
  public void aWrongPasswordDoesNotMatch() {
    assertFalse(
        Passwords.matches("correct horse batterY", Passwords.hash("correct horse battery")));
  }

  @Test
  public void theHashIsSaltedBcrypt() {
    String first = Passwords.hash("correct horse battery");
    String second = Passwords.hash("correct horse battery");
    assertTrue(first, first.startsWith("$2a$10$"));
    assertNotEquals("every hash has its own salt", first, second);
    assertTrue(Passwords.matches("correct horse battery", second));
  }

  @Test
  public void beyond72BytesTheTailStillCounts() {
    String prefix = "p".repeat(100);
    String hash = Passwords.hash(prefix + "-tail-one");
    assertTrue("the long password itself matches", Passwords.matches(prefix + "-tail-one", hash));
    assertFalse(
        "plain bcrypt would ignore everything after byte 72",
        Passwords.matches(prefix + "-tail-two", hash));
  }

  @Test
  public void theLimitIsInBytesNotCharacters() {
    String prefix = "é".repeat(40); // 40 characters, 80 UTF-8 bytes
    assertTrue(prefix.getBytes(StandardCharsets.UTF_8).length > 72);
    assertFalse(Passwords.matches(prefix + "b", Passwords.hash(prefix + "a")));
  }

  @Test
  public void aMalformedHashMatchesNothing() {
    assertFalse(Passwords.matches("anything", "not a bcrypt hash"));
  }
}
