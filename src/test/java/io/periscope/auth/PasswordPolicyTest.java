package io.periscope.auth;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.periscope.json.Issue;
import java.util.List;
import org.junit.Test;

/** The password policy as plain functions. */
public class PasswordPolicyTest {
  private static List<Issue> check(String password) {
    return PasswordPolicy.check(password, "alice@example.org", "password");
  }

  @Test
  public void longOwnPhrasesPass() {
    assertEquals(List.of(), check("correct horse battery staple"));
    assertEquals(List.of(), check("alice-passphrase"));
    assertEquals(List.of(), check("Dave-pass-phrase-4471!"));
  }

  @Test
  public void shortAndOverlongPasswordsAreRefused() {
    assertEquals(List.of(Issue.at("must be 8 to 256 characters", "password")), check("k9#Lm2!"));
    assertEquals(1, check("x".repeat(257)).size());
    assertEquals(1, PasswordPolicy.check(null, null, "password").size());
  }

  @Test
  public void commonPasswordsAreFoundThroughDecorationAndSubstitutions() {
    for (String common :
        List.of(
            "password",
            "Password123",
            "P@ssw0rd",
            "p4ssw0rd2024!",
            "12345678",
            "qwertyuiop",
            "iloveyou",
            "sunshine99",
            "!!football!!",
            "Dragon2026",
            "11111111",
            "letmein!")) {
      assertTrue(common, PasswordPolicy.isCommon(common));
    }
    assertFalse(PasswordPolicy.isCommon("harbour lights at nine"));
  }

  @Test
  public void theAddressInDisguiseIsRefused() {
    assertTrue(PasswordPolicy.tooCloseToEmail("alice@example.org", "alice@example.org"));
    assertTrue(PasswordPolicy.tooCloseToEmail("Alice2024!", "alice@example.org"));
    assertTrue(PasswordPolicy.tooCloseToEmail("example-alice", "alice@example.org"));
    assertTrue(PasswordPolicy.tooCloseToEmail("periscope-alice", "alice@example.org"));
    assertFalse(PasswordPolicy.tooCloseToEmail("alice walks the dog", "alice@example.org"));
    assertFalse("no address, nothing to compare", PasswordPolicy.tooCloseToEmail("abcdefgh", null));
  }
}
