package io.periscope.config;

import com.typesafe.config.Config;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Whether a secret the operator configured can guard the service: {@code AUTH_JWT_SECRET}, the
 * first key of {@code ENCRYPTION_KEY} (the one that seals; older keys after it only open, so a weak
 * one can still be rotated out) and {@code METRICS_TOKEN}, checked before {@code serve} starts
 * anything. A secret is refused when it is shorter than {@value #MIN_CHARACTERS} characters, holds
 * a placeholder's word ({@code REPLACE-ME}, {@code change-me}, {@code example}, …), is one short
 * piece repeated ({@code abcabc…}), is mostly runs and sequences ({@code aaaa…}, {@code 1234…}), or
 * has less than {@value #MIN_BITS} bits by a character-frequency estimate (Shannon entropy of its
 * characters times its length). {@code openssl rand -base64 48} or {@code openssl rand -hex 16}
 * always pass.
 *
 * <p>Hand-written rather than a password-strength library: these secrets are meant to be made by a
 * machine, so the job is to catch what a person typed or left from an example, not to rate
 * passphrases against dictionaries. The estimate is no guarantee: a secret that passes is only not
 * obviously weak. No message ever holds the secret.
 */
public final class SecretStrength {
  static final int MIN_CHARACTERS = 32;
  static final int MIN_BITS = 64;

  /** More than this share of characters repeating or continuing their predecessor is a pattern. */
  private static final double MAX_PREDICTABLE = 0.75;

  /** Words of placeholders in examples and templates, lower-case. */
  private static final List<String> PLACEHOLDERS =
      List.of(
          "replace", "changeme", "change-me", "change_me", "placeholder", "example", "your-secret");

  private SecretStrength() {}

  /**
   * @throws IllegalArgumentException naming the first configured secret that is weak, and why
   */
  public static void requireStrong(Config config) {
    require("AUTH_JWT_SECRET", List.of(config.getString("periscope.auth.jwt-secret")));
    // the first key seals; the ones after it only open what older keys sealed, until re-encrypted
    require(
        "ENCRYPTION_KEY",
        Settings.commaList(config.getString("periscope.encryption.keys")).stream()
            .limit(1)
            .toList());
    require("METRICS_TOKEN", List.of(config.getString("periscope.metrics.token")));
  }

  private static void require(String variable, List<String> values) {
    for (String value : values) {
      if (value.isEmpty()) continue; // unset: generated, or not used
      Optional<String> why = problem(value);
      if (why.isPresent())
        throw new IllegalArgumentException(
            variable
                + " "
                + why.get()
                + ": set a random one, e.g. the output of openssl rand -base64 48");
    }
  }

  /** Why {@code secret} is weak, or empty when it is not obviously so. */
  static Optional<String> problem(String secret) {
    if (secret.length() < MIN_CHARACTERS)
      return Optional.of("is shorter than " + MIN_CHARACTERS + " characters");
    String lower = secret.toLowerCase(Locale.ROOT);
    if (PLACEHOLDERS.stream().anyMatch(lower::contains))
      return Optional.of("is a placeholder, not a secret");
    if (repeatsAPiece(secret) || predictableShare(secret) > MAX_PREDICTABLE)
      return Optional.of("repeats characters or a short pattern");
    if (estimatedBits(secret) < MIN_BITS) return Optional.of("has too little entropy");
    return Optional.empty();
  }

  /** Whether the whole is one piece of at most half its length, repeated. */
  private static boolean repeatsAPiece(String secret) {
    int n = secret.length();
    for (int piece = 1; piece <= n / 2; piece++) {
      if (n % piece == 0 && secret.substring(piece).equals(secret.substring(0, n - piece)))
        return true;
    }
    return false;
  }

  /**
   * The share of characters equal to their predecessor or one step from it ({@code aa}, {@code
   * ab}).
   */
  private static double predictableShare(String secret) {
    int predictable = 0;
    for (int i = 1; i < secret.length(); i++)
      if (Math.abs(secret.charAt(i) - secret.charAt(i - 1)) <= 1) predictable++;
    return (double) predictable / (secret.length() - 1);
  }

  /** Shannon entropy of the characters' frequencies, in bits per character, times the length. */
  static double estimatedBits(String secret) {
    Map<Integer, Integer> counts = new HashMap<>();
    secret.codePoints().forEach(c -> counts.merge(c, 1, Integer::sum));
    double n = secret.codePoints().count();
    double perCharacter = 0;
    for (int count : counts.values())
      perCharacter -= count / n * (Math.log(count / n) / Math.log(2));
    return perCharacter * n;
  }
}
