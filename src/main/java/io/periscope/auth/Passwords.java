package io.periscope.auth;

import at.favre.lib.crypto.bcrypt.BCrypt;
import java.nio.charset.StandardCharsets;

/**
 * bcrypt password hashing. Verification of an unknown account still spends one hash, so timing
 * tells nothing.
 */
public final class Passwords {
  /** Cost 10: about 60 ms a hash here, a fair price for a login, a steep one for guessing. */
  static final int COST = 10;

  public static final int MIN_LENGTH = 8;
  public static final int MAX_LENGTH = 256;
  private static final String DECOY = hash("decoy password that matches nothing");

  private Passwords() {}

  public static String hash(String password) {
    // bcrypt reads at most 72 bytes; the SHA-2 long-password strategy keeps longer passwords fully
    // significant.
    return BCrypt.with(
            BCrypt.Version.VERSION_2A,
            new java.security.SecureRandom(),
            at.favre.lib.crypto.bcrypt.LongPasswordStrategies.hashSha512(BCrypt.Version.VERSION_2A))
        .hashToString(COST, password.toCharArray());
  }

  public static boolean matches(String password, String hash) {
    return BCrypt.verifyer(
            BCrypt.Version.VERSION_2A,
            at.favre.lib.crypto.bcrypt.LongPasswordStrategies.hashSha512(BCrypt.Version.VERSION_2A))
        .verify(password.getBytes(StandardCharsets.UTF_8), hash.getBytes(StandardCharsets.UTF_8))
        .verified;
  }

  /** Burns the same time as a real check, for logins of unknown e-mails. */
  public static void spendDecoyCheck(String password) {
    matches(password, DECOY);
  }
}
