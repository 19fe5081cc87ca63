package io.periscope.auth;

import com.auth0.jwt.JWT;
import com.auth0.jwt.JWTVerifier;
import com.auth0.jwt.algorithms.Algorithm;
import com.auth0.jwt.exceptions.JWTVerificationException;
import com.auth0.jwt.interfaces.DecodedJWT;
import io.periscope.account.Role;
import io.periscope.config.DataDir;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * HS256 access tokens. The verifier is built for HS256 only, so a token claiming any other
 * algorithm ({@code none} included) is refused. Claims: {@code sub} (account id), {@code role},
 * {@code iat}, {@code exp}, {@code gen}, the account's session generation, once a password reset
 * moved it past 0, and {@code sid}, the sign-in's own id, which signing out ends (see {@link
 * AccountAccess}).
 */
public final class Tokens {
  private static final String ISSUER = "periscope";
  private static final String GENERATION = "gen";
  private static final String OPERATOR = "op";
  private static final String SESSION = "sid";
  private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();
  static final int MIN_SECRET_BYTES = 32;

  private final String secret;
  private final Algorithm algorithm;
  private final JWTVerifier verifier;
  private final Duration ttl;
  private final Clock clock;

  public Tokens(String secret, Duration ttl, Clock clock) {
    if (secret.getBytes(StandardCharsets.UTF_8).length < MIN_SECRET_BYTES) {
      throw new IllegalArgumentException(
          "AUTH_JWT_SECRET must be at least " + MIN_SECRET_BYTES + " bytes");
    }
    this.secret = secret;
    this.algorithm = Algorithm.HMAC256(secret);
    // Built with the injected clock, so expiry is judged by the same time the tokens are issued
    // with.
    this.verifier =
        ((com.auth0.jwt.JWTVerifier.BaseVerification)
                JWT.require(algorithm)
                    .withIssuer(ISSUER)
                    .withClaimPresence("sub")
                    .withClaimPresence("exp")
                    .withClaimPresence("role"))
            .build(clock);
    this.ttl = ttl;
    this.clock = clock;
  }

  /**
   * The service secret, which also derives the key-pool encryption key (every node of a cluster
   * shares it).
   */
  public String secret() {
    return secret;
  }

  public Duration ttl() {
    return ttl;
  }

  public String issue(String accountId, Role role, Instant now) {
    return issue(accountId, role, 0, now, ttl, newSessionId(), false);
  }

  /** A sign-in token of the account's current session generation, with a session id of its own. */
  public String issue(String accountId, Role role, long generation, Instant now) {
    return issue(accountId, role, generation, now, ttl, newSessionId(), false);
  }

  private static String newSessionId() {
    byte[] id = new byte[16];
    RANDOM.nextBytes(id);
    return java.util.HexFormat.of().formatHex(id);
  }

  /**
   * A token with its own lifetime, for the command line calling a running service (as an
   * administrator, or as an owner it runs the watches of): an operator's token, minted with the
   * service's own secret, so no sign-in of the account it names and not ended with them.
   */
  public String issue(String accountId, Role role, Instant now, Duration lifetime) {
    return issue(accountId, role, 0, now, lifetime, null, true);
  }

  private String issue(
      String accountId,
      Role role,
      long generation,
      Instant now,
      Duration lifetime,
      String sessionId,
      boolean operator) {
    com.auth0.jwt.JWTCreator.Builder jwt =
        JWT.create()
            .withIssuer(ISSUER)
            .withSubject(accountId)
            .withClaim("role", role.wire())
            .withIssuedAt(now)
            .withExpiresAt(now.plus(lifetime));
    if (generation > 0) jwt.withClaim(GENERATION, generation);
    if (sessionId != null) jwt.withClaim(SESSION, sessionId);
    if (operator) jwt.withClaim(OPERATOR, true);
    return jwt.sign(algorithm);
  }

  /**
   * A verified token's caller (with its session id when it has one), the session generation it was
   * issued in, and whether the command line minted it for an operator.
   */
  public record Claims(Principal principal, long generation, boolean operator) {}

  /**
   * The caller, or empty for a token that is malformed, forged, of another algorithm or expired.
   */
  public Optional<Principal> verify(String token) {
    return claims(token).map(Claims::principal);
  }

  /**
   * Like {@link #verify}, with the token's session generation (0 when it carries none). A token
   * verified before is taken from {@link #verified} while it is within its lifetime: verifying
   * decodes and parses it, every request.
   */
  public Optional<Claims> claims(String token) {
    ByteBuffer key = digest(token);
    Instant now = clock.instant();
    Verified known = verified.get(key);
    if (known != null && known.coversNow(now)) return Optional.of(known.claims());
    try {
      DecodedJWT jwt = verifier.verify(token);
      Optional<Role> role = Role.parse(jwt.getClaim("role").asString());
      Long generation = jwt.getClaim(GENERATION).asLong();
      String sessionId = jwt.getClaim(SESSION).asString();
      if (role.isEmpty()) return Optional.empty();
      boolean operator = Boolean.TRUE.equals(jwt.getClaim(OPERATOR).asBoolean());
      Claims claims =
          new Claims(
              new Principal(jwt.getSubject(), role.get(), sessionId, null, operator),
              generation == null ? 0 : generation,
              operator);
      if (verified.size() >= VERIFIED_BOUND)
        verified.clear(); // rare: that many sign-ins within a token's lifetime
      Instant issuedAt = jwt.getIssuedAtAsInstant();
      verified.put(
          key,
          new Verified(claims, issuedAt == null ? now : issuedAt, jwt.getExpiresAtAsInstant()));
      return Optional.of(claims);
    } catch (JWTVerificationException e) {
      return Optional.empty();
    }
  }

  /** A verified token's claims and the time it is valid in, [issuedAt, expiresAt). */
  private record Verified(Claims claims, Instant issuedAt, Instant expiresAt) {
    boolean coversNow(Instant now) {
      return !now.isBefore(issuedAt) && now.isBefore(expiresAt);
    }
  }

  /**
   * Keyed by a digest of the token, so a lookup compares digests, never a presented token with a
   * real one. Past the bound the cache starts again empty.
   */
  private final Map<ByteBuffer, Verified> verified = new ConcurrentHashMap<>();

  static final int VERIFIED_BOUND = 10_000;

  private static ByteBuffer digest(String token) {
    try {
      return ByteBuffer.wrap(
          MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  /**
   * The configured secret, or the one generated on first start and kept in {@code
   * dataDir/jwt-secret} so tokens survive restarts. A cluster must configure AUTH_JWT_SECRET.
   */
  public static String secret(String configured, Path dataDir) throws IOException {
    return configured.isBlank() ? DataDir.secret(dataDir, "jwt-secret") : configured;
  }
}
