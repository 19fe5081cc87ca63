package io.periscope.auth;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import com.auth0.jwt.JWT;
import com.auth0.jwt.algorithms.Algorithm;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import org.junit.Test;

public class TokensTest {
  static final String SECRET = "test-secret-of-at-least-thirty-two-bytes";
  final Tokens tokens = new Tokens(SECRET, Duration.ofHours(2), Clock.systemUTC());

  @Test
  public void aTokenCarriesSubjectRoleAndLifetime() {
    Instant now = Instant.now();
    String token = tokens.issue("alice", Role.ADMIN, now);
    assertEquals(new Principal("alice", Role.ADMIN), tokens.verify(token).orElseThrow());
    var decoded = JWT.decode(token);
    assertEquals(7200, decoded.getExpiresAtAsInstant().getEpochSecond() - decoded.getIssuedAtAsInstant().getEpochSecond());
    assertEquals("HS256", decoded.getAlgorithm());
  }

  @Test
  public void anExpiredTokenIsRefused() {
    String token = tokens.issue("alice", Role.USER, Instant.now().minus(Duration.ofHours(3)));
    assertTrue(tokens.verify(token).isEmpty());
  }

  @Test
  public void forgedTokensAreRefused() {
    String good = tokens.issue("alice", Role.USER, Instant.now());
    String[] parts = good.split("\\.");
    String payload = new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8)
        .replace("\"alice\"", "\"bob\"");
    String tampered = parts[0] + "." + Base64.getUrlEncoder().withoutPadding()
        .encodeToString(payload.getBytes(StandardCharsets.UTF_8)) + "." + parts[2];
    String none = Base64.getUrlEncoder().withoutPadding().encodeToString("{\"alg\":\"none\",\"typ\":\"JWT\"}".getBytes())
        + "." + parts[1] + ".";
    String otherSecret = new Tokens(SECRET + "-other", Duration.ofHours(2), Clock.systemUTC())
        .issue("alice", Role.USER, Instant.now());
    String hs512 = JWT.create().withIssuer("periscope").withSubject("alice").withClaim("role", "admin")
        .withExpiresAt(Instant.now().plusSeconds(60)).sign(Algorithm.HMAC512(SECRET));
    for (String forged : new String[] {tampered, none, otherSecret, hs512, "abc.def", ""}) {
      assertTrue(forged, tokens.verify(forged).isEmpty());
    }
  }

  @Test
  public void aShortSecretIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> new Tokens("too-short", Duration.ofHours(1), Clock.systemUTC()));
  }

  @Test
  public void aGeneratedSecretIsKeptOwnerOnlyAndReused() throws Exception {
    Path dir = Files.createTempDirectory("periscope-secret");
    String first = Tokens.secret("", dir);
    assertEquals(first, Tokens.secret("", dir));
    assertTrue(first.getBytes(StandardCharsets.UTF_8).length >= 32);
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("jwt-secret"))));
    assertEquals("configured", Tokens.secret("configured", dir));
  }
}
