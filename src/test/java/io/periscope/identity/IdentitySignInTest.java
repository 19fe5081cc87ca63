package io.periscope.identity;

import static io.periscope.identity.FakeOidcProvider.query;
import static io.periscope.identity.FakeOidcProvider.tree;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.periscope.testing.CapturedLogs;
import io.periscope.testing.InProcessService;
import io.periscope.testing.Mailbox;
import io.periscope.testing.TestJournals;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Sign-in through identity providers end to end: the service over real HTTP, a fake OpenID Connect
 * provider and a fake GitHub on loopback, and the test as the browser (following redirects and
 * carrying the cookie by hand).
 */
public class IdentitySignInTest {
  static FakeOidcProvider oidc;
  static FakeGitHub github;
  static Mailbox mailbox;
  static CapturedLogs logs;
  static InProcessService service;

  /**
   * The same service secret as {@link #service}, with a web client: a second node that may get the
   * callback.
   */
  static InProcessService webNode;

  static final List<String> secrets = new ArrayList<>();

  @BeforeClass
  public static void start() throws Exception {
    oidc = new FakeOidcProvider();
    github = new FakeGitHub();
    mailbox = new Mailbox();
    logs = new CapturedLogs();
    service = new InProcessService(providers().withFallback(TestJournals.h2()));
    webNode =
        new InProcessService(
            ConfigFactory.parseMap(Map.of("periscope.web-origin", "http://app.example"))
                .withFallback(providers())
                .withFallback(TestJournals.h2()));
    secrets.addAll(List.of(FakeOidcProvider.CLIENT_SECRET, FakeGitHub.CLIENT_SECRET));
  }

  static Config providers() {
    return mailbox.smtpConfig().withFallback(providerSettings());
  }

  static Config providerSettings() {
    return ConfigFactory.parseMap(
        Map.of(
            "periscope.identity.github.client-id",
            FakeGitHub.CLIENT_ID,
            "periscope.identity.github.client-secret",
            FakeGitHub.CLIENT_SECRET,
            "periscope.identity.github.web-base-url",
            github.baseUrl(),
            "periscope.identity.github.api-base-url",
            github.baseUrl(),
            "periscope.identity.oidc-providers",
            "keycloak",
            "periscope.identity.oidc.keycloak.issuer",
            oidc.issuer(),
            "periscope.identity.oidc.keycloak.client-id",
            FakeOidcProvider.CLIENT_ID,
            "periscope.identity.oidc.keycloak.client-secret",
            FakeOidcProvider.CLIENT_SECRET,
            "periscope.rate-limits.auth-per-ip-per-minute",
            1000,
            "periscope.registration.mode",
            "open"));
  }

  @AfterClass
  public static void stop() throws Exception {
    service.close();
    webNode.close();
    logs.assertNoneContains(secrets.toArray(String[]::new));
    logs.close();
    oidc.close();
    github.close();
    mailbox.close();
  }

  /** A started sign-in: where the provider's page is, and the cookie the browser keeps. */
  record Started(URI authorization, String cookie, String setCookie) {
    String state() {
      return query(authorization.getRawQuery()).get("state");
    }
  }

  static Started begin(InProcessService on, String provider) throws Exception {
    return begin(on, provider, "");
  }

  /** {@code query}: what the client adds to /auth/{provider}, such as {@code ?nonce=…}. */
  static Started begin(InProcessService on, String provider, String query) throws Exception {
    HttpResponse<String> r = on.send("GET", "/auth/" + provider + query, null, null, Map.of());
    assertEquals(r.body(), 302, r.statusCode());
    String setCookie = r.headers().firstValue("Set-Cookie").orElseThrow();
    Started started =
        new Started(
            URI.create(r.headers().firstValue("Location").orElseThrow()),
            setCookie.substring(0, setCookie.indexOf(';')),
            setCookie);
    secrets.add(started.cookie().substring(started.cookie().indexOf('=') + 1));
    secrets.add(started.state());
    return started;
  }

  static HttpResponse<String> callback(
      InProcessService on, String provider, String query, String cookie) throws Exception {
    Map<String, String> headers = cookie == null ? Map.of() : Map.of("Cookie", cookie);
    return on.send("GET", "/auth/" + provider + "/callback?" + query, null, null, headers);
  }

  static HttpResponse<String> finish(
      InProcessService on, String provider, Started started, String code) throws Exception {
    secrets.add(code);
    return callback(on, provider, "code=" + code + "&state=" + started.state(), started.cookie());
  }

  static Map<String, Object> person(String subject, String email, Object verified) {
    Map<String, Object> claims = new HashMap<>(Map.of("sub", subject, "email", email));
    if (verified != null) claims.put("email_verified", verified);
    return claims;
  }

  static JsonNode signedIn(HttpResponse<String> r) throws Exception {
    assertEquals(r.body(), 200, r.statusCode());
    JsonNode session = tree(r.body());
    secrets.add(session.get("token").asText());
    assertEquals(
        200,
        service
            .send("GET", "/watches", session.get("token").asText(), null, Map.of())
            .statusCode());
    return session;
  }

  @Test
  public void theRedirectCarriesStateNoncePkceAndASealedCookie() throws Exception {
    Started started = begin(service, "keycloak");
    assertTrue(
        started.authorization().toString(),
        started.authorization().toString().startsWith(oidc.issuer() + "/auth?"));
    Map<String, String> q = query(started.authorization().getRawQuery());
    assertEquals("code", q.get("response_type"));
    assertEquals("S256", q.get("code_challenge_method"));
    assertTrue(q.get("scope").contains("openid") && q.get("scope").contains("email"));
    assertEquals("http://localhost:8080/auth/keycloak/callback", q.get("redirect_uri"));
    assertTrue(q.get("state").length() >= 43 && q.get("nonce").length() >= 43);
    assertTrue(started.setCookie(), started.setCookie().contains("HttpOnly"));
    assertTrue(started.setCookie(), started.setCookie().contains("SameSite=Lax"));
    assertTrue(started.setCookie(), started.setCookie().contains("Path=/auth/keycloak/callback"));
    assertFalse(
        "the cookie does not show the state or the verifier",
        started.cookie().contains(q.get("state")));
  }

  @Test
  public void oidcSignInMakesAVerifiedAccountAndSignsItInAgainLater() throws Exception {
    Started first = begin(service, "keycloak");
    JsonNode session =
        signedIn(
            finish(
                service,
                "keycloak",
                first,
                oidc.approve(first.authorization(), person("kc-1", "yara@example.org", true))));
    JsonNode user = session.get("user");
    assertEquals("yara@example.org", user.get("email").asText());
    assertEquals("user", user.get("role").asText());
    assertTrue(user.get("emailVerified").asBoolean());
    assertEquals("Bearer", session.get("tokenType").asText());

    Started again = begin(service, "keycloak");
    JsonNode second =
        signedIn(
            finish(
                service,
                "keycloak",
                again,
                oidc.approve(again.authorization(), person("kc-1", "Yara@Example.org", "true"))));
    assertEquals(user.get("id").asText(), second.get("user").get("id").asText());
  }

  @Test
  public void aFirstSignInIsRefusedWhereSignUpIsClosedWhileLinkedAccountsSignIn() throws Exception {
    Config closed =
        ConfigFactory.parseMap(Map.of("periscope.registration.mode", "closed"))
            .withFallback(providers())
            .withFallback(TestJournals.h2());
    try (InProcessService closedNode = new InProcessService(closed)) {
      Started first = begin(closedNode, "keycloak");
      HttpResponse<String> refused =
          finish(
              closedNode,
              "keycloak",
              first,
              oidc.approve(first.authorization(), person("kc-closed", "zed@example.org", true)));
      refusedWith(refused, "sign_up_closed");
      assertTrue(refused.body(), tree(refused.body()).get("error").asText().contains("sign-up"));
      closedNode.account("olive", "user", "olive-passphrase");
      assertTrue(
          "an account the operator made still signs in",
          closedNode.login("olive", "olive-passphrase") != null);
    }
  }

  /** The sign-in of a provider account with {@code email}: its answer. */
  static HttpResponse<String> signIn(String subject, String email) throws Exception {
    Started started = begin(service, "keycloak");
    return finish(
        service,
        "keycloak",
        started,
        oidc.approve(started.authorization(), person(subject, email, true)));
  }

  static void refusedWith(HttpResponse<String> r, String code) throws Exception {
    assertEquals(r.body(), 403, r.statusCode());
    assertNull("no session", tree(r.body()).get("token"));
    assertTrue(r.body(), tree(r.body()).get("error").asText().length() > 0);
    assertEquals(code, SignInFailure.Reason.valueOf(code.toUpperCase()).code);
  }

  @Test
  public void aProviderVouchingForAnExistingAccountsAddressGetsNoSessionUntilItsHolderLinksIt()
      throws Exception {
    service.account("wanda", "user", "wanda's own passphrase");
    refusedWith(signIn("kc-wanda", "wanda@example.org"), "link_mailed");
    Mailbox.Received mail = mailbox.await("wanda@example.org", 1);
    assertEquals("Connect a sign-in to your Periscope account", mail.subject());
    assertTrue(mail.text(), mail.text().contains("\"keycloak\""));
    String token = mail.token();
    secrets.add(token);

    // somebody else at the provider, with the same address: no session either
    refusedWith(signIn("kc-mallory-wanda", "wanda@example.org"), "link_mailed");

    JsonNode linked =
        tree(
            service
                .send(
                    "POST", "/auth/link-identity", null, "{\"token\": \"" + token + "\"}", Map.of())
                .body());
    assertEquals("linked", linked.get("status").asText());
    assertEquals("wanda", linked.get("user").get("id").asText());
    assertEquals(
        "a token works once",
        400,
        service
            .send("POST", "/auth/link-identity", null, "{\"token\": \"" + token + "\"}", Map.of())
            .statusCode());

    JsonNode session = signedIn(signIn("kc-wanda", "wanda@example.org"));
    assertEquals("wanda", session.get("user").get("id").asText());
    assertEquals(
        "the link is to the provider's account, whatever address it shows later",
        "wanda",
        signedIn(signIn("kc-wanda", "wanda-new@example.org")).get("user").get("id").asText());
    refusedWith(signIn("kc-mallory-wanda", "wanda@example.org"), "link_mailed");
    assertEquals(
        "the password still works",
        200,
        service
            .send(
                "POST",
                "/auth/login",
                null,
                "{\"email\":\"wanda@example.org\",\"password\":\"wanda's own passphrase\"}",
                Map.of())
            .statusCode());
  }

  @Test
  public void theLinksDetailsNameTheProviderAndLoginWithoutUsingIt() throws Exception {
    service.account("lena", "user", "lena's own passphrase");
    Map<String, Object> lena = person("kc-lena", "lena@example.org", true);
    lena.put("preferred_username", "lena.k");
    Started started = begin(service, "keycloak");
    refusedWith(
        finish(service, "keycloak", started, oidc.approve(started.authorization(), lena)),
        "link_mailed");
    String token = mailbox.await("lena@example.org", 1).token();
    secrets.add(token);
    String body = "{\"token\": \"" + token + "\"}";
    for (int read = 0; read < 2; read++) {
      JsonNode details =
          tree(service.send("POST", "/auth/link-identity/details", null, body, Map.of()).body());
      assertEquals("keycloak", details.get("provider").asText());
      assertEquals("lena.k", details.get("login").asText());
      assertTrue(details.has("expiresAt"));
    }
    assertEquals(
        "read twice, linked by the one use",
        "linked",
        tree(service.send("POST", "/auth/link-identity", null, body, Map.of()).body())
            .get("status")
            .asText());
    assertEquals(
        400,
        service.send("POST", "/auth/link-identity/details", null, body, Map.of()).statusCode());
    assertEquals(
        400,
        service
            .send("POST", "/auth/link-identity/details", null, "{\"token\": \"x.y\"}", Map.of())
            .statusCode());
  }

  @Test
  public void anAdministratorsAccountIsNeverLinked() throws Exception {
    service.account("vera", "admin", "vera's admin passphrase");
    refusedWith(signIn("kc-vera", "vera@example.org"), "link_refused");
    Thread.sleep(500);
    assertEquals("nothing mailed", 0, mailbox.to("vera@example.org").size());
  }

  @Test
  public void anUnverifiedProviderAddressNeverLinks() throws Exception {
    service.account("xena", "user", "xena's own passphrase");
    for (Object flag : new Object[] {false, null, "yes"}) {
      Started started = begin(service, "keycloak");
      HttpResponse<String> r =
          finish(
              service,
              "keycloak",
              started,
              oidc.approve(started.authorization(), person("kc-xena", "xena@example.org", flag)));
      assertEquals(r.body(), 403, r.statusCode());
      assertNull(tree(r.body()).get("token"));
    }
  }

  @Test
  public void theAddressMayComeFromUserinfo() throws Exception {
    oidc.userInfo(
        "kc-zoe", Map.of("sub", "kc-zoe", "email", "zoe@example.org", "email_verified", true));
    Started started = begin(service, "keycloak");
    JsonNode session =
        signedIn(
            finish(
                service,
                "keycloak",
                started,
                oidc.approve(started.authorization(), Map.of("sub", "kc-zoe"))));
    assertEquals("zoe@example.org", session.get("user").get("email").asText());

    oidc.userInfo(
        "kc-eve",
        Map.of("sub", "kc-somebody-else", "email", "eve@example.org", "email_verified", true));
    Started other = begin(service, "keycloak");
    assertEquals(
        401,
        finish(
                service,
                "keycloak",
                other,
                oidc.approve(other.authorization(), Map.of("sub", "kc-eve")))
            .statusCode());
  }

  @Test
  public void anIdTokenThatFailsVerificationSignsNobodyIn() throws Exception {
    Map<String, java.util.function.UnaryOperator<com.nimbusds.jwt.JWTClaimsSet.Builder>> tampering =
        Map.of(
            "another audience", b -> b.audience("someone-else"),
            "another issuer", b -> b.issuer("http://evil.example"),
            "another nonce", b -> b.claim("nonce", "replayed"),
            "expired", b -> b.expirationTime(new Date(System.currentTimeMillis() - 600_000)));
    for (var tamper : tampering.entrySet()) {
      Started started = begin(service, "keycloak");
      HttpResponse<String> r =
          finish(
              service,
              "keycloak",
              started,
              oidc.approve(
                  started.authorization(),
                  person("kc-mallory", "mallory@example.org", true),
                  tamper.getValue(),
                  oidc.key));
      assertEquals(tamper.getKey() + ": " + r.body(), 401, r.statusCode());
    }
    Started forged = begin(service, "keycloak");
    HttpResponse<String> r =
        finish(
            service,
            "keycloak",
            forged,
            oidc.approve(
                forged.authorization(),
                person("kc-mallory", "mallory@example.org", true),
                b -> b,
                oidc.stranger));
    assertEquals("signed by a key the provider never published: " + r.body(), 401, r.statusCode());
  }

  @Test
  public void theCallbackNeedsItsCookieAndItsState() throws Exception {
    Started started = begin(service, "keycloak");
    String code = oidc.approve(started.authorization(), person("kc-2", "amy@example.org", true));
    secrets.add(code);
    assertEquals(
        400,
        callback(service, "keycloak", "code=" + code + "&state=" + started.state(), null)
            .statusCode());
    assertEquals(
        400,
        callback(service, "keycloak", "code=" + code + "&state=other", started.cookie())
            .statusCode());
    assertEquals(
        400,
        callback(
                service,
                "keycloak",
                "code=" + code + "&state=" + started.state(),
                "periscope_signin=forged")
            .statusCode());
    assertEquals(
        "another provider's flow does not count",
        400,
        callback(service, "github", "code=" + code + "&state=" + started.state(), started.cookie())
            .statusCode());
    HttpResponse<String> denied =
        callback(
            service, "keycloak", "error=access_denied&state=" + started.state(), started.cookie());
    assertEquals(401, denied.statusCode());
    assertTrue(denied.headers().firstValue("Set-Cookie").orElse("").contains("Max-Age=0"));
  }

  @Test
  public void theWebClientsNonceComesBackBesideTheToken() throws Exception {
    Started started = begin(service, "keycloak", "?nonce=this-tab_0123456789");
    HttpResponse<String> r =
        finish(
            webNode,
            "keycloak",
            started,
            oidc.approve(started.authorization(), person("kc-9", "nina@example.org", true)));
    Map<String, String> fragment =
        query(URI.create(r.headers().firstValue("Location").orElseThrow()).getRawFragment());
    secrets.add(fragment.get("token"));
    assertEquals("this-tab_0123456789", fragment.get("nonce"));

    for (String bad : List.of("short", "has%20space-0123456789", "x".repeat(129))) {
      HttpResponse<String> refused =
          service.send("GET", "/auth/keycloak?nonce=" + bad, null, null, Map.of());
      assertEquals(bad, 400, refused.statusCode());
      assertTrue(refused.headers().firstValue("Set-Cookie").isEmpty());
    }
  }

  @Test
  public void anyNodeFinishesTheSignInAndHandsTheTokenToTheWebClient() throws Exception {
    Started started = begin(service, "keycloak");
    HttpResponse<String> r =
        finish(
            webNode,
            "keycloak",
            started,
            oidc.approve(started.authorization(), person("kc-3", "bea@example.org", true)));
    assertEquals(r.body(), 302, r.statusCode());
    String location = r.headers().firstValue("Location").orElseThrow();
    assertTrue(location, location.startsWith("http://app.example/#"));
    Map<String, String> fragment = query(URI.create(location).getRawFragment());
    secrets.add(fragment.get("token"));
    assertEquals("Bearer", fragment.get("tokenType"));
    assertNull("a sign-in started without a nonce hands back none", fragment.get("nonce"));
    assertEquals(
        200, webNode.send("GET", "/watches", fragment.get("token"), null, Map.of()).statusCode());

    HttpResponse<String> failed = callback(webNode, "keycloak", "code=x&state=y", null);
    assertEquals(302, failed.statusCode());
    assertEquals(
        "http://app.example/#error=invalid_state",
        failed.headers().firstValue("Location").orElseThrow());
  }

  @Test
  public void gitHubSignsInItsVerifiedPrimaryAddress() throws Exception {
    Started started = begin(service, "github");
    assertTrue(
        started
            .authorization()
            .toString()
            .startsWith(github.baseUrl() + "/login/oauth/authorize?"));
    JsonNode session =
        signedIn(
            finish(
                service,
                "github",
                started,
                github.approve(
                    started.authorization(),
                    List.of(
                        Map.of("email", "old@example.org", "primary", false, "verified", true),
                        Map.of("email", "cleo@example.org", "primary", true, "verified", true)))));
    assertEquals("cleo@example.org", session.get("user").get("email").asText());

    Started other = begin(service, "github");
    HttpResponse<String> takeover =
        finish(
            service,
            "github",
            other,
            github.approve(
                other.authorization(),
                424242,
                List.of(Map.of("email", "cleo@example.org", "primary", true, "verified", true))));
    refusedWith(takeover, "link_mailed");

    Started unverified = begin(service, "github");
    HttpResponse<String> r =
        finish(
            service,
            "github",
            unverified,
            github.approve(
                unverified.authorization(),
                List.of(
                    Map.of("email", "dora@example.org", "primary", true, "verified", false),
                    Map.of("email", "dora-work@example.org", "primary", false, "verified", true))));
    assertEquals(r.body(), 403, r.statusCode());

    Started refused = begin(service, "github");
    assertEquals(
        401, finish(service, "github", refused, "a-code-github-never-issued").statusCode());
  }

  @Test
  public void aSignInLinkedToADeletedAccountIsRefused() throws Exception {
    String id = signedIn(signIn("kc-gone", "gone@example.org")).at("/user/id").asText();
    String admin = service.signedIn("deleter", "admin");
    assertEquals(204, service.call("DELETE", "/admin/users/" + id, admin, null).statusCode());
    refusedWith(signIn("kc-gone", "gone@example.org"), "link_refused");
  }

  @Test
  public void withAllowedOrganizationsOnlyTheirMembersSignInThroughGitHub() throws Exception {
    Config orgsOnly =
        ConfigFactory.parseMap(
                Map.of(
                    "periscope.identity.github.allowed-orgs",
                    "Acme, friends",
                    "periscope.registration.mode",
                    "open"))
            .withFallback(providers())
            .withFallback(TestJournals.h2());
    github.orgs.put(7001L, List.of("other", "ACME"));
    github.orgs.put(7002L, List.of("other"));
    try (InProcessService node = new InProcessService(orgsOnly)) {
      Started member = begin(node, "github");
      assertTrue(member.authorization().getRawQuery().contains("read%3Aorg"));
      HttpResponse<String> in =
          finish(
              node,
              "github",
              member,
              github.approve(
                  member.authorization(),
                  7001L,
                  List.of(
                      Map.of("email", "member@example.org", "primary", true, "verified", true))));
      assertEquals(in.body(), 200, in.statusCode());
      Started outsider = begin(node, "github");
      refusedWith(
          finish(
              node,
              "github",
              outsider,
              github.approve(
                  outsider.authorization(),
                  7002L,
                  List.of(
                      Map.of("email", "outsider@example.org", "primary", true, "verified", true)))),
          "not_in_organization");
    }
  }

  @Test
  public void configuredProvidersShowInTheStatusAndOthersAre404() throws Exception {
    JsonNode status = tree(service.send("GET", "/config/status", null, null, Map.of()).body());
    assertEquals("{\"github\":true,\"keycloak\":true}", status.get("identityProviders").toString());
    assertEquals(404, service.send("GET", "/auth/gitlab", null, null, Map.of()).statusCode());
    assertEquals(
        404,
        service
            .send("GET", "/auth/gitlab/callback?code=x&state=y", null, null, Map.of())
            .statusCode());
    assertEquals(405, service.send("POST", "/auth/keycloak", null, "{}", Map.of()).statusCode());
  }

  @Test
  public void anUnreachableProviderIs502() throws Exception {
    Config broken =
        ConfigFactory.parseMap(
            Map.of(
                "periscope.identity.oidc-providers",
                "gone",
                "periscope.identity.oidc.gone.issuer",
                "http://127.0.0.1:9/nothing",
                "periscope.identity.oidc.gone.client-id",
                "c",
                "periscope.identity.oidc.gone.client-secret",
                "s"));
    try (InProcessService lonely = new InProcessService(broken.withFallback(TestJournals.h2()))) {
      HttpResponse<String> r = lonely.send("GET", "/auth/gone", null, null, Map.of());
      assertEquals(r.body(), 502, r.statusCode());
    }
  }
}
