package io.periscope.config;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import org.junit.Test;

/** Which configured secrets stop the start, and that machine-made ones never do. */
public class SecretStrengthTest {
  static final String STRONG = "kJ3v9QmT0xZr7LbW2nYc5HdP8sFa1GeU4oKt6RiV0wXq";

  @Test
  public void placeholdersRepetitionsShortAndLowEntropySecretsAreRefused() {
    Map<String, String> weak =
        Map.of(
            "REPLACE-ME-with-at-least-32-random-bytes-e.g.-openssl-rand-base64-48",
            "is a placeholder, not a secret",
            "please-change-me-before-production-use-0815",
            "is a placeholder, not a secret",
            "x".repeat(40),
            "repeats characters or a short pattern",
            "passwordpasswordpasswordpassword",
            "repeats characters or a short pattern",
            "abcdefghijklmnopqrstuvwxyz0123456789",
            "repeats characters or a short pattern",
            "short-but-random-7Gq2",
            "is shorter than 32 characters",
            "amzzamazmzaazmzmamzazmzzmaamzmazmzazmazm",
            "has too little entropy");
    weak.forEach(
        (secret, why) -> assertEquals(secret, Optional.of(why), SecretStrength.problem(secret)));
  }

  @Test
  public void machineMadeSecretsAlwaysPass() {
    SecureRandom random = new SecureRandom();
    for (int i = 0; i < 2_000; i++) {
      byte[] bytes = new byte[48];
      random.nextBytes(bytes);
      String base64 = Base64.getEncoder().encodeToString(bytes); // openssl rand -base64 48
      assertEquals(base64, Optional.empty(), SecretStrength.problem(base64));
      String hex = HexFormat.of().formatHex(bytes, 0, 16); // openssl rand -hex 16
      assertEquals(hex, Optional.empty(), SecretStrength.problem(hex));
    }
    assertEquals(Optional.empty(), SecretStrength.problem(STRONG));
  }

  @Test
  public void theRefusalNamesTheVariableAndNeverTheSecret() {
    String placeholder = "REPLACE-ME-with-a-metrics-token-of-32-chars";
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                SecretStrength.requireStrong(
                    configured(
                        Map.of(
                            "periscope.metrics.token",
                            placeholder,
                            "periscope.auth.jwt-secret",
                            STRONG))));
    assertTrue(
        refused.getMessage(), refused.getMessage().startsWith("METRICS_TOKEN is a placeholder"));
    assertFalse(refused.getMessage().contains(placeholder));
  }

  @Test
  public void onlyTheSealingEncryptionKeyIsJudgedSoAWeakOneCanBeRotatedOut() {
    String weak = "old-key-" + "0".repeat(32);
    SecretStrength.requireStrong(
        configured(Map.of("periscope.encryption.keys", STRONG + "," + weak)));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            SecretStrength.requireStrong(
                configured(Map.of("periscope.encryption.keys", weak + "," + STRONG))));
  }

  /** The embedded profile with these settings. */
  private static Config configured(Map<String, String> settings) {
    return ConfigFactory.parseMap(settings).withFallback(Profiles.load("embedded"));
  }
}
