package io.periscope.auth;

import io.periscope.crypto.Sha256;
import io.periscope.entity.Failures;
import io.periscope.json.Issue;
import io.periscope.json.ValidationException;
import io.periscope.watch.WatchValidator;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.regex.Pattern;

/**
 * The single-use tokens mailed to an address: {@code <holder id>.<secret>}, the secret 256 random
 * bits in base64url. The holder id says which entity holds the token's hash (the account's owner
 * entity, or an identity link); only the SHA-256 of the whole token is ever stored, so the journal
 * cannot be replayed into a working link.
 */
public final class MailedTokens {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final int SECRET_BYTES = 32;
  private static final Pattern SECRET = Pattern.compile("[A-Za-z0-9_-]{43}");

  /**
   * The one refusal of every token command: unknown, used, replaced and expired tokens look alike.
   */
  public static final String TOKEN_REFUSED = "the token is invalid or expired";

  private MailedTokens() {}

  public static String create(String holderId) {
    byte[] secret = new byte[SECRET_BYTES];
    RANDOM.nextBytes(secret);
    return holderId + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
  }

  /** The holder a well-formed token names; empty for anything else. */
  public static Optional<String> holderId(String token) {
    if (token == null) return Optional.empty();
    int dot = token.lastIndexOf('.');
    if (dot <= 0) return Optional.empty();
    String holderId = token.substring(0, dot);
    boolean wellFormed =
        WatchValidator.ID.matcher(holderId).matches()
            && SECRET.matcher(token.substring(dot + 1)).matches();
    return wellFormed ? Optional.of(holderId) : Optional.empty();
  }

  /**
   * The holder a well-formed token names; fails with the one 400 of every bad token ({@link
   * #refused}) for anything else.
   */
  public static String holderOf(String token) {
    return holderId(token).orElseThrow(MailedTokens::refused);
  }

  /**
   * The one answer to every token that does not work (unknown, used, replaced, expired, forged): a
   * 400 with the issue at {@code ["token"]}.
   */
  public static ValidationException refused() {
    return new ValidationException(List.of(Issue.at(TOKEN_REFUSED, "token")));
  }

  /**
   * For a stage's {@code exceptionally}: an entity that refused the token becomes {@link #refused};
   * any other failure passes unchanged.
   */
  public static <T> T refusedOrRethrown(Throwable failure) {
    Throwable cause = Failures.unwrap(failure);
    if (Failures.isRefusal(cause)) throw refused();
    throw cause instanceof RuntimeException r ? r : new CompletionException(cause);
  }

  /** Whether a stored hash is the presented token's, compared in constant time. */
  public static boolean sameHash(String stored, String presented) {
    return presented != null
        && MessageDigest.isEqual(
            stored.getBytes(StandardCharsets.UTF_8), presented.getBytes(StandardCharsets.UTF_8));
  }

  public static String hash(String token) {
    return HexFormat.of().formatHex(Sha256.of(token));
  }
}
