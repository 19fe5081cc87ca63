package io.periscope.auth;

import com.auth0.jwt.JWT;
import com.auth0.jwt.JWTVerifier;
import com.auth0.jwt.algorithms.Algorithm;
import com.auth0.jwt.exceptions.JWTVerificationException;
import com.auth0.jwt.interfaces.DecodedJWT;
import io.periscope.config.DataDir;
import io.periscope.crypto.Sha256;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
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
 * moved it past 0, and {@code sid}, the sign-in's own id, which signing out ends (see {@code
 * account.AccountAccess}).
 *
 * <p>Sign-in tokens are signed with the service secret ({@code AUTH_JWT_SECRET}); the command
 * line's own tokens with the <em>operator key</em>, a second secret that never leaves the data
 * directory ({@code DATA_DIR/operator-key}) and that no setting can supply, so whoever learns the
 * service secret still cannot mint an operator's token. Each kind has its issuer and is verified
 * with its own key only.
 */
public final class Tokens {
  private static final String ISSUER = "periscope";
  private static final String OPERATOR_ISSUER = "periscope-operator";
  private static final String OPERATOR_KEY_FILE = "operator-key";
  private static final String GENERATION = "gen";
  private static final String SESSION = "sid";
  private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();
  static final int MIN_SECRET_BYTES = 32;

  private final String secret;
  private final Algorithm algorithm;
  private final Algorithm operatorAlgorithm;
  private final JWTVerifier verifier;
  private final JWTVerifier operatorVerifier;
  private final Duration ttl;
  private final Clock clock;

  /**
   * @param operatorKey signs and verifies the command line's tokens; nothing else may know it
   */
  public Tokens(String secret, String operatorKey, Duration ttl, Clock clock) {
    if (secret.getBytes(StandardCharsets.UTF_8).length < MIN_SECRET_BYTES) {
      throw new IllegalArgumentException(
          "AUTH_JWT_SECRET must be at least " + MIN_SECRET_BYTES + " bytes");
    }
    if (operatorKey.getBytes(StandardCharsets.UTF_8).length < MIN_SECRET_BYTES
        || operatorKey.equals(secret)) {
      throw new IllegalArgumentException(
          "the operator key must be at least "
              + MIN_SECRET_BYTES
              + " bytes and not the service secret");
    }
    this.secret = secret;
    this.algorithm = Algorithm.HMAC256(secret);
    this.operatorAlgorithm = Algorithm.HMAC256(operatorKey);
    this.verifier = verifier(algorithm, ISSUER, clock);
    this.operatorVerifier = verifier(operatorAlgorithm, OPERATOR_ISSUER, clock);
    this.ttl = ttl;
    this.clock = clock;
  }

  /**
   * Tokens with an operator key of this process alone (random, never written): only this process
   * can mint an operator's token, which suits a process no command line calls.
   */
  public Tokens(String secret, Duration ttl, Clock clock) {
    this(secret, randomKey(), ttl, clock);
  }

  /**
   * The tokens of the service on {@code dataDir}: the configured secret (or the generated one, see
   * {@link #secret(String, Path)}) and the operator key kept in {@code dataDir/operator-key},
   * generated on first use. The command line reads the same file, which is how it mints tokens the
   * service running on that directory takes.
   */
  public static Tokens ofDataDir(String configuredSecret, Path dataDir, Duration ttl, Clock clock)
      throws IOException {
    return new Tokens(
        secret(configuredSecret, dataDir), DataDir.secret(dataDir, OPERATOR_KEY_FILE), ttl, clock);
  }

  // Built with the injected clock, so expiry is judged by the same time the tokens are issued with.
  private static JWTVerifier verifier(Algorithm algorithm, String issuer, Clock clock) {
    return ((com.auth0.jwt.JWTVerifier.BaseVerification)
            JWT.require(algorithm)
                .withIssuer(issuer)
                .withClaimPresence("sub")
                .withClaimPresence("exp")
                .withClaimPresence("role"))
        .build(clock);
  }

  private static String randomKey() {
    byte[] key = new byte[48];
    RANDOM.nextBytes(key);
    return java.util.HexFormat.of().formatHex(key);
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
    return issue(accountId, role, 0, now);
  }

  /** A sign-in token of the account's current session generation, with a session id of its own. */
  public String issue(String accountId, Role role, long generation, Instant now) {
    com.auth0.jwt.JWTCreator.Builder jwt = claims(ISSUER, accountId, role, now, ttl);
    if (generation > 0) jwt.withClaim(GENERATION, generation);
    return jwt.withClaim(SESSION, newSessionId()).sign(algorithm);
  }

  private static String newSessionId() {
    byte[] id = new byte[16];
    RANDOM.nextBytes(id);
    return java.util.HexFormat.of().formatHex(id);
  }

  /**
   * A token with its own lifetime, for the command line calling a running service (as an
   * administrator, or as an owner it runs the watches of): an operator's token, signed with the
   * operator key, so no sign-in of the account it names and not ended with them.
   */
  public String issueOperator(String accountId, Role role, Instant now, Duration lifetime) {
    return claims(OPERATOR_ISSUER, accountId, role, now, lifetime).sign(operatorAlgorithm);
  }

  private static com.auth0.jwt.JWTCreator.Builder claims(
      String issuer, String accountId, Role role, Instant now, Duration lifetime) {
    return JWT.create()
        .withIssuer(issuer)
        .withSubject(accountId)
        .withClaim("role", role.wire())
        .withIssuedAt(now)
        .withExpiresAt(now.plus(lifetime));
  }

  /**
   * A verified token's caller (with its session id when it has one), the session generation it was
   * issued in, and whether it is an operator's (signed with the operator key).
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
      boolean operator = false;
      DecodedJWT jwt;
      try {
        jwt = verifier.verify(token);
      } catch (JWTVerificationException notASignIn) {
        jwt = operatorVerifier.verify(token);
        operator = true;
      }
      Optional<Role> role = Role.parse(jwt.getClaim("role").asString());
      Long generation = jwt.getClaim(GENERATION).asLong();
      String sessionId = operator ? null : jwt.getClaim(SESSION).asString();
      if (role.isEmpty()) return Optional.empty();
      Claims claims =
          new Claims(
              Principal.fromSignIn(jwt.getSubject(), role.get(), sessionId, operator),
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
    return ByteBuffer.wrap(Sha256.of(token));
  }

  /**
   * The configured secret, or the one generated on first start and kept in {@code
   * dataDir/jwt-secret} so tokens survive restarts. A cluster must configure AUTH_JWT_SECRET.
   */
  public static String secret(String configured, Path dataDir) throws IOException {
    return configured.isBlank() ? DataDir.secret(dataDir, "jwt-secret") : configured;
  }
}
