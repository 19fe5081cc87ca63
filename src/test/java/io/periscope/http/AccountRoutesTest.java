package io.periscope.http;

import static io.periscope.testing.InProcessService.json;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import io.periscope.auth.Role;
import io.periscope.json.Json;
import io.periscope.testing.CapturedLogs;
import io.periscope.testing.InProcessService;
import io.periscope.testing.TestJournals;
import io.periscope.testing.TestWatches;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * A person's control of their own account over real HTTP: signing out ends that one sign-in,
 * changing the password ends the others, and personal API tokens are shown once, listed, used and
 * revoked.
 */
public class AccountRoutesTest {
  static InProcessService service;
  static CapturedLogs logs;

  @BeforeClass
  public static void start() throws Exception {
    logs = new CapturedLogs();
    service =
        new InProcessService(
            ConfigFactory.parseMap(Map.of("periscope.rate-limits.auth-per-ip-per-minute", 1000))
                .withFallback(TestJournals.h2()));
  }

  @AfterClass
  public static void stop() throws Exception {
    service.close();
    logs.close();
  }

  static int status(String method, String path, String token, String body) throws Exception {
    return service.call(method, path, token, body).statusCode();
  }

  @Test
  public void signingOutEndsThatSignInOnlyAndCannotBeUndone() throws Exception {
    String first = service.signedIn("olga", "user");
    String second = service.login("olga", "olga-passphrase");
    assertNotEquals(first, second);
    assertEquals(204, status("POST", "/auth/logout", first, null));
    assertEquals(401, status("GET", "/watches", first, null));
    assertEquals(
        "signing out again with it is refused", 401, status("POST", "/auth/logout", first, null));
    assertEquals("the other sign-in goes on", 200, status("GET", "/watches", second, null));
    assertEquals(401, status("POST", "/auth/logout", null, null));
  }

  @Test
  public void changingThePasswordNeedsTheCurrentOneAndEndsTheOtherSignIns() throws Exception {
    String here = service.signedIn("pavel", "user");
    String elsewhere = service.login("pavel", "pavel-passphrase");
    JsonNode wrong =
        json(
            service.call(
                "PUT",
                "/account/password",
                here,
                Json.text(
                    Map.of("currentPassword", "not-his-password", "newPassword", "a new phrase"))),
            400);
    assertEquals("currentPassword", wrong.at("/issues/0/path/0").asText());
    json(
        service.call(
            "PUT",
            "/account/password",
            here,
            Json.text(Map.of("currentPassword", "pavel-passphrase", "newPassword", "short"))),
        400);
    assertEquals("nothing changed", 200, status("GET", "/watches", elsewhere, null));

    JsonNode session =
        json(
            service.call(
                "PUT",
                "/account/password",
                here,
                Json.text(
                    Map.of(
                        "currentPassword",
                        "pavel-passphrase",
                        "newPassword",
                        "pavels-new-passphrase"))),
            200);
    String fresh = session.get("token").asText();
    assertEquals("pavel", session.at("/user/id").asText());
    assertEquals(401, status("GET", "/watches", elsewhere, null));
    assertEquals(401, status("GET", "/watches", here, null));
    assertEquals(200, status("GET", "/watches", fresh, null));
    String operators =
        service.tokens.issueOperator("pavel", Role.USER, Instant.now(), Duration.ofMinutes(5));
    assertEquals(
        "the command line's token for the owner is no sign-in the change ends",
        200,
        status("GET", "/watches", operators, null));
    assertEquals(
        401,
        service
            .send(
                "POST",
                "/auth/login",
                null,
                Json.text(Map.of("email", "pavel@example.org", "password", "pavel-passphrase")),
                Map.of())
            .statusCode());
    service.login("pavel", "pavels-new-passphrase");
    logs.assertNoneContains("pavels-new-passphrase", "pavel-passphrase");
  }

  @Test
  public void theAccountIsShownToItsOwner() throws Exception {
    String token = service.signedIn("quentin", "user");
    JsonNode account = json(service.call("GET", "/account", token, null), 200);
    assertEquals("quentin@example.org", account.get("email").asText());
    assertFalse(account.get("disabled").asBoolean());
    assertFalse(account.has("passwordHash"));
  }

  @Test
  public void personalApiTokensAreShownOnceListedUsedAndRevoked() throws Exception {
    String signIn = service.signedIn("rosa", "user");
    JsonNode made =
        json(
            service.call(
                "POST",
                "/account/tokens",
                signIn,
                Json.text(Map.of("name", "backup script", "expiresAt", "2999-01-01T00:00:00Z"))),
            201);
    String token = made.get("token").asText();
    String id = made.at("/details/id").asText();
    assertTrue(token, token.startsWith("psk_rosa."));
    json(service.call("POST", "/watches", token, TestWatches.body("w").search("acme").json()), 201);
    assertEquals(200, status("GET", "/watches/w", token, null));

    JsonNode listed = json(service.call("GET", "/account/tokens", signIn, null), 200);
    assertEquals(1, listed.get("tokens").size());
    JsonNode row = listed.at("/tokens/0");
    assertEquals("backup script", row.get("name").asText());
    assertEquals("2999-01-01T00:00:00Z", row.get("expiresAt").asText());
    assertFalse("never shown again", listed.toString().contains(token.substring(9)));
    assertFalse(listed.toString().contains("hash"));
    awaitLastUsed(signIn);

    assertEquals(
        "a token makes no tokens",
        403,
        status("POST", "/account/tokens", token, Json.text(Map.of("name", "another"))));
    assertEquals(
        "nor changes the password",
        403,
        status(
            "PUT",
            "/account/password",
            token,
            Json.text(Map.of("currentPassword", "rosa-passphrase", "newPassword", "whatever-x1"))));
    assertEquals("nor signs out", 422, status("POST", "/auth/logout", token, null));
    assertEquals(
        409, status("POST", "/account/tokens", signIn, Json.text(Map.of("name", "backup script"))));
    assertEquals(
        400,
        status(
            "POST",
            "/account/tokens",
            signIn,
            Json.text(Map.of("name", "old", "expiresAt", "2001-01-01T00:00:00Z"))));
    assertEquals(400, status("POST", "/account/tokens", signIn, Json.text(Map.of("name", ""))));

    assertEquals(204, status("DELETE", "/account/tokens/" + id, signIn, null));
    assertEquals(401, status("GET", "/watches", token, null));
    assertEquals(404, status("DELETE", "/account/tokens/" + id, signIn, null));
    assertEquals(
        0, json(service.call("GET", "/account/tokens", signIn, null), 200).get("tokens").size());
    assertEquals(
        "a forged secret for the same account",
        401,
        status("GET", "/watches", "psk_rosa." + "A".repeat(43), null));
    logs.assertNoneContains(token);
  }

  @Test
  public void anExpiredApiTokenIsRefused() throws Exception {
    String signIn = service.signedIn("sven", "user");
    String expiry = Instant.now().plusSeconds(2).toString();
    String token =
        json(
                service.call(
                    "POST",
                    "/account/tokens",
                    signIn,
                    Json.text(Map.of("name", "brief", "expiresAt", expiry))),
                201)
            .get("token")
            .asText();
    assertEquals(200, status("GET", "/watches", token, null));
    Thread.sleep(2_500);
    assertEquals(401, status("GET", "/watches", token, null));
  }

  /** A new token of {@code signIn}'s account with {@code scopes} (none named when null). */
  private static String token(String signIn, String name, List<String> scopes) throws Exception {
    Map<String, Object> body = new java.util.HashMap<>(Map.of("name", name));
    if (scopes != null) body.put("scopes", scopes);
    return json(service.call("POST", "/account/tokens", signIn, Json.text(body)), 201)
        .get("token")
        .asText();
  }

  /** Where the 400 to a new token with {@code scopes} puts its issue. */
  private static String refusedScopes(String signIn, List<String> scopes) throws Exception {
    String body = Json.text(Map.of("name", "refused", "scopes", scopes));
    return json(service.call("POST", "/account/tokens", signIn, body), 400)
        .at("/issues/0/path")
        .toString();
  }

  @Test
  public void apiTokensDoOnlyWhatTheirScopesAllow() throws Exception {
    String user = service.signedIn("tess", "user");
    String reader = token(user, "dashboard", List.of("read"));
    String writer = token(user, "deployer", List.of("watches"));
    String both = token(user, "script", null);
    assertEquals(200, status("GET", "/watches", reader, null));
    assertEquals(
        "read cannot write",
        403,
        status("POST", "/watches", reader, TestWatches.body("w").search("acme").json()));
    assertEquals("nor delete", 403, status("DELETE", "/watches/w", reader, null));
    assertEquals(
        201, status("POST", "/watches", writer, TestWatches.body("w").search("acme").json()));
    assertEquals("watches cannot read", 403, status("GET", "/watches/w", writer, null));
    assertEquals("without scopes: read and watches", 200, status("GET", "/watches/w", both, null));
    JsonNode listed = json(service.call("GET", "/account/tokens", user, null), 200);
    assertEquals("[\"read\"]", listed.at("/tokens/0/scopes").toString());
    assertEquals("[\"read\",\"watches\"]", listed.at("/tokens/2/scopes").toString());

    assertEquals(
        "a user's token cannot administer",
        "[\"scopes\"]",
        refusedScopes(user, List.of("read", "admin")));
    assertEquals("[\"scopes\",1]", refusedScopes(user, List.of("read", "write")));
    assertEquals(
        400,
        status(
            "POST",
            "/account/tokens",
            user,
            Json.text(Map.of("name", "none", "scopes", List.of()))));

    String admin = service.signedIn("ada", "admin");
    String adminsDefault = token(admin, "ci", null);
    String administers = token(admin, "ops", List.of("admin"));
    assertEquals(
        "an admin route needs the admin scope, even on an admin's account",
        403,
        status("GET", "/admin/users", adminsDefault, null));
    assertEquals(
        "however the path is written", 403, status("GET", "/%61dmin/users", adminsDefault, null));
    assertEquals(200, status("GET", "/admin/users", administers, null));
    assertEquals(
        "admin alone reads nothing else", 403, status("GET", "/watches", administers, null));
    assertEquals(
        "nobody's token reaches /admin through a user's account",
        403,
        status("GET", "/admin/users", both, null));
    assertEquals(204, status("DELETE", "/watches/w", both, null));
  }

  @Test
  public void aTokenExpiresIn90DaysUnlessToldOtherwise() throws Exception {
    String signIn = service.signedIn("uma", "user");
    Instant before = Instant.now();
    JsonNode made =
        json(
            service.call("POST", "/account/tokens", signIn, Json.text(Map.of("name", "default"))),
            201);
    Instant expiresAt = Instant.parse(made.at("/details/expiresAt").asText());
    assertFalse(expiresAt.isBefore(before.plus(Duration.ofDays(90)).minusSeconds(1)));
    assertFalse(expiresAt.isAfter(Instant.now().plus(Duration.ofDays(90))));
  }

  /** The use is written after the answer: wait for it to show. */
  private static void awaitLastUsed(String signIn) throws Exception {
    long until = System.currentTimeMillis() + 10_000;
    while (System.currentTimeMillis() < until) {
      JsonNode row =
          json(service.call("GET", "/account/tokens", signIn, null), 200).at("/tokens/0");
      if (row.hasNonNull("lastUsedAt")) return;
      Thread.sleep(100);
    }
    throw new AssertionError("the token's use was never recorded");
  }
}
