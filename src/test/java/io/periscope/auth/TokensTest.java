package io.periscope.auth;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;
import static org.junit.Assume.assumeTrue;

import com.auth0.jwt.JWT;
import com.auth0.jwt.algorithms.Algorithm;
import com.auth0.jwt.interfaces.DecodedJWT;
import io.periscope.testing.MutableClock;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.Optional;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

public class TokensTest {
  static final String SECRET = "test-secret-of-at-least-thirty-two-bytes";
  static final Duration TTL = Duration.ofHours(2);
  static final Principal ALICE = new Principal("alice", Role.USER);

  /** The caller without the sign-in's own id, which is new each time. */
  static Optional<Principal> who(Optional<Principal> verified) {
    return verified.map(p -> new Principal(p.accountId(), p.role()));
  }

  @Test
  public void eachSignInTokenHasASessionIdOfItsOwn() {
    Tokens tokens = new Tokens(SECRET, Duration.ofHours(1), Clock.systemUTC());
    Instant now = Instant.now();
    String first = tokens.verify(tokens.issue("alice", Role.USER, 0, now)).get().sessionId();
    String second = tokens.verify(tokens.issue("alice", Role.USER, 0, now)).get().sessionId();
    org.junit.Assert.assertNotNull(first);
    org.junit.Assert.assertNotEquals(first, second);
  }

  @Rule public final TemporaryFolder temp = new TemporaryFolder();

  private final Tokens tokens = new Tokens(SECRET, TTL, Clock.systemUTC());

  private static String now(Tokens t, String subject, Role role) {
    return t.issue(subject, role, Instant.now().truncatedTo(ChronoUnit.SECONDS));
  }

  private static String b64(String json) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(json.getBytes(StandardCharsets.UTF_8));
  }

  private static String payloadOf(String token) {
    return new String(Base64.getUrlDecoder().decode(token.split("\\.")[1]), StandardCharsets.UTF_8);
  }

  @Test
  public void anIssuedTokenVerifiesToItsSubjectAndRole() {
    assertEquals(
        Optional.of(new Principal("alice", Role.ADMIN)),
        who(tokens.verify(now(tokens, "alice", Role.ADMIN))));
  }

  @Test
  public void theTokenCarriesSubRoleIatAndExpSignedWithHs256() {
    Instant issuedAt = Instant.parse("2026-11-22T12:00:00Z");
    DecodedJWT jwt = JWT.decode(tokens.issue("alice", Role.ADMIN, issuedAt));
    assertEquals("HS256", jwt.getAlgorithm());
    assertEquals("alice", jwt.getSubject());
    assertEquals("admin", jwt.getClaim("role").asString());
    assertEquals(issuedAt, jwt.getIssuedAtAsInstant());
    assertEquals(issuedAt.plus(TTL), jwt.getExpiresAtAsInstant());
  }

  @Test
  public void theLifetimeIsTheConfiguredOne() {
    Tokens halfHour = new Tokens(SECRET, Duration.ofMinutes(30), Clock.systemUTC());
    DecodedJWT jwt = JWT.decode(now(halfHour, "alice", Role.USER));
    assertEquals(
        Duration.ofMinutes(30),
        Duration.between(jwt.getIssuedAtAsInstant(), jwt.getExpiresAtAsInstant()));
    assertEquals(Duration.ofMinutes(30), halfHour.ttl());
  }

  @Test
  public void anExpiredTokenIsRefused() {
    Clock threeHoursAgo = Clock.fixed(Instant.now().minus(Duration.ofHours(3)), ZoneOffset.UTC);
    String token =
        new Tokens(SECRET, TTL, threeHoursAgo).issue("alice", Role.USER, threeHoursAgo.instant());
    assertEquals(Optional.empty(), tokens.verify(token));
  }

  @Test
  public void aTamperedPayloadIsRefused() {
    String good = now(tokens, "alice", Role.USER);
    String[] parts = good.split("\\.");
    String tampered =
        parts[0] + "." + b64(payloadOf(good).replace("\"user\"", "\"admin\"")) + "." + parts[2];
    assertEquals("the untouched token is fine", Optional.of(ALICE), who(tokens.verify(good)));
    assertEquals(Optional.empty(), tokens.verify(tampered));
  }

  @Test
  public void aTokenSignedWithAnotherSecretIsRefused() {
    Tokens other = new Tokens(SECRET + "-but-another-one", TTL, Clock.systemUTC());
    assertEquals(Optional.empty(), tokens.verify(now(other, "alice", Role.USER)));
  }

  @Test
  public void anUnsignedAlgNoneTokenIsRefused() {
    String good = now(tokens, "alice", Role.USER);
    String none = b64("{\"alg\":\"none\",\"typ\":\"JWT\"}") + "." + b64(payloadOf(good)) + ".";
    assertEquals(Optional.empty(), tokens.verify(none));
  }

  @Test
  public void theAlgorithmIsPinnedToHs256() {
    Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    var claims =
        JWT.create()
            .withIssuer("periscope")
            .withSubject("alice")
            .withClaim("role", "user")
            .withIssuedAt(now)
            .withExpiresAt(now.plus(TTL));
    assertEquals(
        "the same claims under HS256 verify",
        Optional.of(ALICE),
        who(tokens.verify(claims.sign(Algorithm.HMAC256(SECRET)))));
    assertEquals(Optional.empty(), tokens.verify(claims.sign(Algorithm.HMAC512(SECRET))));
  }

  @Test
  public void malformedTokensAreRefused() {
    for (String junk : new String[] {"", "abc", "abc.def", "a.b.c"}) {
      assertEquals(junk, Optional.empty(), tokens.verify(junk));
    }
  }

  @Test
  public void aSecretUnder32BytesIsRejected() {
    assertThrows(
        IllegalArgumentException.class, () -> new Tokens("x".repeat(31), TTL, Clock.systemUTC()));
  }

  @Test
  public void a32ByteSecretIsAccepted() {
    Tokens minimal = new Tokens("x".repeat(32), TTL, Clock.systemUTC());
    assertEquals(Optional.of(ALICE), who(minimal.verify(now(minimal, "alice", Role.USER))));
  }

  @Test
  public void aSecretIsGeneratedOnceAndThenReused() throws Exception {
    Path dataDir = temp.getRoot().toPath().resolve("data");
    String first = Tokens.secret("", dataDir);
    assertTrue(Files.exists(dataDir.resolve("jwt-secret")));
    assertTrue("long enough to sign with", first.getBytes(StandardCharsets.UTF_8).length >= 32);
    assertEquals(first, Tokens.secret("", dataDir));
    new Tokens(first, TTL, Clock.systemUTC()); // accepted
  }

  @Test
  public void theGeneratedSecretFileIsOwnerOnly() throws Exception {
    assumeTrue(
        "POSIX file permissions",
        FileSystems.getDefault().supportedFileAttributeViews().contains("posix"));
    Path dataDir = temp.getRoot().toPath();
    Tokens.secret("", dataDir);
    assertEquals(
        "rw-------",
        PosixFilePermissions.toString(
            Files.getPosixFilePermissions(dataDir.resolve("jwt-secret"))));
  }

  @Test
  public void aConfiguredSecretWinsAndNothingIsWritten() throws Exception {
    Path dataDir = temp.getRoot().toPath();
    assertEquals(SECRET, Tokens.secret(SECRET, dataDir));
    assertFalse(Files.exists(dataDir.resolve("jwt-secret")));
  }

  @Test
  public void expiryIsJudgedByTheInjectedClock() {
    java.time.Clock past =
        java.time.Clock.fixed(
            java.time.Instant.parse("2020-01-01T00:00:00Z"), java.time.ZoneOffset.UTC);
    Tokens then =
        new Tokens("a-secret-of-at-least-thirty-two-bytes!", java.time.Duration.ofHours(2), past);
    String token = then.issue("alice", Role.USER, past.instant());
    org.junit.Assert.assertTrue("valid by its own clock", then.verify(token).isPresent());
  }

  @Test
  public void aTokenVerifiedBeforeStillExpiresOnTime() {
    Instant issued = Instant.parse("2026-11-22T12:00:00Z");
    MutableClock clock = new MutableClock(issued);
    Tokens t = new Tokens(SECRET, TTL, clock);
    String token = t.issue("alice", Role.USER, issued);
    assertEquals(Optional.of(ALICE), who(t.verify(token)));
    clock.set(issued.plus(TTL).minusSeconds(1));
    assertEquals("verified again within its lifetime", Optional.of(ALICE), who(t.verify(token)));
    clock.set(issued.plus(TTL).plusSeconds(1));
    assertEquals(Optional.empty(), t.verify(token));
    clock.set(issued.minusSeconds(60));
    assertEquals("not before it was issued", Optional.empty(), t.verify(token));
  }

  @Test
  public void aTokenVerifiedBeforeIsNoKeyToATamperedOne() {
    String good = now(tokens, "alice", Role.USER);
    assertEquals(Optional.of(ALICE), who(tokens.verify(good)));
    String[] parts = good.split("\\.");
    String otherSignature = parts[0] + "." + parts[1] + "." + new StringBuilder(parts[2]).reverse();
    assertEquals(Optional.empty(), tokens.verify(otherSignature));
    assertEquals(Optional.empty(), tokens.verify(good + "x"));
  }

  @Test
  public void onlyTheOperatorKeyMintsAnOperatorsToken() throws Exception {
    Path dataDir = temp.getRoot().toPath().resolve("data");
    Tokens service = Tokens.ofDataDir(SECRET, dataDir, TTL, Clock.systemUTC());
    Tokens commandLine = Tokens.ofDataDir(SECRET, dataDir, TTL, Clock.systemUTC());
    Instant now = Instant.now();
    String operator = commandLine.issueOperator("periscope-cli", Role.ADMIN, now, TTL);
    Tokens.Claims claims = service.claims(operator).orElseThrow();
    assertTrue("the same data directory's key", claims.operator());
    assertEquals("periscope-operator", JWT.decode(operator).getIssuer());
    assertFalse(
        "a sign-in token is no operator's",
        service.claims(now(service, "alice", Role.ADMIN)).get().operator());
    assertEquals(
        "another data directory's key",
        Optional.empty(),
        Tokens.ofDataDir(SECRET, temp.getRoot().toPath().resolve("other"), TTL, Clock.systemUTC())
            .claims(operator));
    String claimed =
        JWT.create()
            .withIssuer("periscope-operator")
            .withSubject("periscope-cli")
            .withClaim("role", "admin")
            .withIssuedAt(now)
            .withExpiresAt(now.plus(TTL))
            .sign(Algorithm.HMAC256(SECRET));
    assertEquals(
        "the operator's issuer, signed with the secret", Optional.empty(), service.claims(claimed));
    assertEquals(
        "rw-------",
        PosixFilePermissions.toString(
            Files.getPosixFilePermissions(dataDir.resolve("operator-key"))));
    assertThrows(
        "the operator key is never the secret",
        IllegalArgumentException.class,
        () -> new Tokens(SECRET, SECRET, TTL, Clock.systemUTC()));
  }
}
