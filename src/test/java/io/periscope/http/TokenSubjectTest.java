package io.periscope.http;

import static io.periscope.testing.InProcessService.json;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.auth0.jwt.JWT;
import com.auth0.jwt.algorithms.Algorithm;
import io.periscope.auth.Principal;
import io.periscope.auth.Role;
import io.periscope.auth.Tokens;
import io.periscope.testing.InProcessService;
import io.periscope.testing.TestJournals;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * A token is worth what its account is: one whose subject has no account is refused, whatever role
 * it claims, even signed with the service secret (a leaked secret, a kept placeholder); only the
 * command line's own tokens, signed with the operator key that never leaves the data directory,
 * name no account.
 */
public class TokenSubjectTest {
  static InProcessService service;

  /** Whoever learned AUTH_JWT_SECRET mints with it what the service would. */
  static final Tokens withTheSecret =
      new Tokens(InProcessService.SECRET, Duration.ofHours(1), Clock.systemUTC());

  @BeforeClass
  public static void start() throws Exception {
    service = new InProcessService(TestJournals.h2());
    service.signedIn("root", "admin");
  }

  @AfterClass
  public static void stop() throws Exception {
    service.close();
  }

  private static int status(String method, String path, String token) throws Exception {
    return service.call(method, path, token, null).statusCode();
  }

  private static void refusedEverywhere(String what, String token) throws Exception {
    assertEquals(what + " on a user route", 401, status("GET", "/watches", token));
    assertEquals(what + " on an admin route", 401, status("GET", "/admin/users", token));
    assertEquals(
        what + " creating an account",
        401,
        service
            .call(
                "POST",
                "/admin/users",
                token,
                "{\"id\": \"mallory\", \"email\": \"mallory@example.org\", \"role\": \"admin\","
                    + " \"password\": \"mallorys-passphrase\"}")
            .statusCode());
  }

  @Test
  public void aTokenForAnAccountThatDoesNotExistIsRefusedWhateverItsRole() throws Exception {
    Instant now = Instant.now();
    refusedEverywhere("a ghost user", withTheSecret.issue("ghost-nobody", Role.USER, now));
    refusedEverywhere("a ghost admin", withTheSecret.issue("ghost-nobody", Role.ADMIN, now));
    // the command line's id, and the claim its tokens once carried, signed with the secret
    String claimedOperator =
        JWT.create()
            .withIssuer("periscope")
            .withSubject(Principal.OPERATOR.accountId())
            .withClaim("role", "admin")
            .withClaim("op", true)
            .withIssuedAt(now)
            .withExpiresAt(now.plusSeconds(60))
            .sign(Algorithm.HMAC256(InProcessService.SECRET));
    refusedEverywhere("a claimed operator", claimedOperator);
    String root = service.login("root", "root-passphrase");
    assertEquals(
        "mallory was never made",
        0,
        json(service.call("GET", "/admin/users?q=mallory", root, null), 200).get("users").size());
  }

  @Test
  public void theCommandLinesOwnTokenNamesNoAccountAndIsAnAdministrator() throws Exception {
    String operator =
        service.tokens.issueOperator(
            Principal.OPERATOR.accountId(), Role.ADMIN, Instant.now(), Duration.ofMinutes(1));
    json(service.call("GET", "/admin/users", operator, null), 200);
    Tokens anotherOperatorKey =
        new Tokens(InProcessService.SECRET, Duration.ofHours(1), Clock.systemUTC());
    assertEquals(
        "an operator's token needs this service's operator key, not the secret",
        401,
        status(
            "GET",
            "/admin/users",
            anotherOperatorKey.issueOperator(
                Principal.OPERATOR.accountId(), Role.ADMIN, Instant.now(), Duration.ofMinutes(1))));
  }

  @Test
  public void anOperatorsTokenIsTakenOnlyFromThisMachine() throws Exception {
    assertTrue(ApiDirectives.ofThisMachine(InetAddress.getByName("127.0.0.1")));
    assertTrue(ApiDirectives.ofThisMachine(InetAddress.getByName("::1")));
    InetAddress ownInterface =
        java.util.Collections.list(NetworkInterface.getNetworkInterfaces()).stream()
            .flatMap(i -> java.util.Collections.list(i.getInetAddresses()).stream())
            .filter(a -> !a.isLoopbackAddress())
            .findFirst()
            .orElse(null);
    if (ownInterface != null) assertTrue(ApiDirectives.ofThisMachine(ownInterface));
    assertFalse(ApiDirectives.ofThisMachine(InetAddress.getByName("192.0.2.7")));
    assertFalse(ApiDirectives.ofThisMachine(InetAddress.getByName("2001:db8::7")));
  }
}
