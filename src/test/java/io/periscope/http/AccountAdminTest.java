package io.periscope.http;

import static io.periscope.testing.InProcessService.json;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import io.periscope.auth.Principal;
import io.periscope.auth.Role;
import io.periscope.json.Json;
import io.periscope.persistence.JournalReads;
import io.periscope.run.AccountGate;
import io.periscope.testing.InProcessService;
import io.periscope.testing.Mailbox;
import io.periscope.testing.TestJournals;
import io.periscope.testing.TestWatches;
import io.periscope.watch.Actor;
import io.periscope.watch.RunRecord;
import io.periscope.watch.WatchEntity;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Account administration over real HTTP on one node: disabling, enabling, roles, the mailed reset
 * (through a real SMTP server), deleting with the run history kept or erased, the audit log, and
 * the rule that the last enabled administrator stays one.
 */
public class AccountAdminTest {
  static Mailbox mailbox;
  static InProcessService service;
  static String root;

  @BeforeClass
  public static void start() throws Exception {
    mailbox = new Mailbox();
    service =
        new InProcessService(
            mailbox
                .smtpConfig()
                .withFallback(
                    ConfigFactory.parseMap(
                        Map.of("periscope.rate-limits.auth-per-ip-per-minute", 1000)))
                .withFallback(TestJournals.h2()));
    root = service.signedIn("root", "admin");
  }

  @AfterClass
  public static void stop() throws Exception {
    service.close();
    mailbox.close();
  }

  static int status(String method, String path, String token, String body) throws Exception {
    return service.call(method, path, token, body).statusCode();
  }

  static String apiToken(String signIn) throws Exception {
    return json(
            service.call("POST", "/account/tokens", signIn, Json.text(Map.of("name", "script"))),
            201)
        .get("token")
        .asText();
  }

  static int login(String id, String password) throws Exception {
    return service
        .send(
            "POST",
            "/auth/login",
            null,
            Json.text(Map.of("email", id + "@example.org", "password", password)),
            Map.of())
        .statusCode();
  }

  @Test
  public void aDisabledAccountsTokensStopAndItCannotSignInUntilEnabled() throws Exception {
    String signIn = service.signedIn("dora", "user");
    String script = apiToken(signIn);
    json(
        service.call("POST", "/watches", signIn, TestWatches.body("dw").search("acme").json()),
        201);

    JsonNode disabled = json(service.call("POST", "/admin/users/dora/disable", root, null), 200);
    assertTrue(disabled.get("disabled").asBoolean());
    assertEquals(401, status("GET", "/watches", signIn, null));
    assertEquals(401, status("GET", "/watches", script, null));
    assertEquals(403, login("dora", "dora-passphrase"));

    RunRecord skipped =
        service.app.runNow("dora", "dw").toCompletableFuture().get(30, TimeUnit.SECONDS);
    assertEquals(RunRecord.ERROR, skipped.outcome());
    assertEquals(AccountGate.ACCOUNT_DISABLED, skipped.error());
    assertEquals("nothing was collected", 0, skipped.collected());

    JsonNode listed = json(service.call("GET", "/admin/users?status=disabled", root, null), 200);
    assertEquals(List.of("dora"), ids(listed));

    json(service.call("POST", "/admin/users/dora/enable", root, null), 200);
    assertEquals(
        "disabling ended the sign-in for good", 401, status("GET", "/watches", signIn, null));
    assertEquals("the personal token works again", 200, status("GET", "/watches/dw", script, null));
    String again = service.login("dora", "dora-passphrase");
    assertEquals("nothing was deleted", 200, status("GET", "/watches/dw", again, null));
    assertEquals(404, status("POST", "/admin/users/nobody/disable", root, null));
  }

  @Test
  public void theCommandLinesNameIsNoAccountId() throws Exception {
    String body =
        Json.text(
            Map.of(
                "id",
                "periscope-cli",
                "email",
                "cli@example.org",
                "role",
                "user",
                "password",
                "a-long-enough-passphrase"));
    JsonNode refused = json(service.call("POST", "/admin/users", root, body), 400);
    assertEquals("id", refused.at("/issues/0/path/0").asText());
    assertFalse(
        json(service.call("GET", "/admin/users", root, null), 200).toString().contains("cli@"));
  }

  @Test
  public void aRoleChangeHoldsOnTheNextRequest() throws Exception {
    String eve = service.signedIn("eve", "user");
    assertEquals(403, status("GET", "/admin/users", eve, null));
    JsonNode promoted =
        json(
            service.call("PUT", "/admin/users/eve/role", root, Json.text(Map.of("role", "admin"))),
            200);
    assertEquals("admin", promoted.get("role").asText());
    assertEquals("the same token", 200, status("GET", "/admin/users", eve, null));
    json(
        service.call("PUT", "/admin/users/eve/role", root, Json.text(Map.of("role", "user"))), 200);
    assertEquals(403, status("GET", "/admin/users", eve, null));
    assertEquals(
        400, status("PUT", "/admin/users/eve/role", root, Json.text(Map.of("role", "owner"))));
    JsonNode admins = json(service.call("GET", "/admin/users?role=admin&q=ROO", root, null), 200);
    assertEquals(List.of("root"), ids(admins));
    assertEquals(400, status("GET", "/admin/users?status=sleeping", root, null));
  }

  @Test
  public void anAdministratorMailsAResetLink() throws Exception {
    service.signedIn("fay", "user");
    JsonNode answer =
        json(service.call("POST", "/admin/users/fay/reset-password", root, null), 202);
    assertEquals("fay", answer.at("/user/id").asText());
    String token = mailbox.await("fay@example.org", 1).token();
    json(
        service.call(
            "POST",
            "/auth/reset-password",
            null,
            Json.text(Map.of("token", token, "password", "fays-new-passphrase"))),
        200);
    assertEquals(200, login("fay", "fays-new-passphrase"));
  }

  @Test
  public void deletingRemovesTheAccountAndItsDataKeepingOrErasingTheRunHistory() throws Exception {
    String gus = service.signedIn("gus", "user");
    String hal = service.signedIn("hal", "user");
    for (String[] owner : new String[][] {{gus, "gw"}, {hal, "hw"}}) {
      json(
          service.call(
              "POST", "/watches", owner[0], TestWatches.body(owner[1]).search("acme").json()),
          201);
      json(
          service.call("PUT", "/trust-rules/example.org", owner[0], "{\"tier\": \"official\"}"),
          200);
    }
    assertEquals(400, status("DELETE", "/admin/users/gus?runHistory=shred", root, null));
    assertEquals(204, status("DELETE", "/admin/users/gus", root, null));
    assertEquals(204, status("DELETE", "/admin/users/hal?runHistory=erase", root, null));
    assertEquals(401, status("GET", "/watches", gus, null));
    assertEquals(401, login("gus", "gus-passphrase"));
    assertEquals(404, status("DELETE", "/admin/users/gus", root, null));
    List<String> listed = ids(json(service.call("GET", "/admin/users", root, null), 200));
    assertFalse(listed.contains("gus"));
    assertFalse(listed.contains("hal"));

    List<String> journaled =
        new JournalReads(service.system)
            .entityIds("Watch")
            .toCompletableFuture()
            .get(30, TimeUnit.SECONDS);
    assertTrue("gus's run history is kept", journaled.contains("gus:gw"));
    assertFalse("hal's is erased", journaled.contains("hal:hw"));
    Actor deletedBy =
        new JournalReads(service.system)
            .<Actor>foldEvents(
                WatchEntity.TYPE_KEY.name(),
                WatchEntity.entityId("gus", "gw"),
                null,
                (by, event) -> event instanceof WatchEntity.Deleted d ? d.actor() : by)
            .toCompletableFuture()
            .get(30, TimeUnit.SECONDS);
    assertEquals("the watch's delete names the administrator", Actor.admin("root"), deletedBy);

    // the address is free again; the id stays taken
    json(
        service.call(
            "POST",
            "/admin/users",
            root,
            Json.text(
                Map.of(
                    "id",
                    "gus2",
                    "email",
                    "gus@example.org",
                    "role",
                    "user",
                    "password",
                    "a new gus passphrase"))),
        201);
    assertEquals(
        409,
        status(
            "POST",
            "/admin/users",
            root,
            Json.text(
                Map.of(
                    "id",
                    "gus",
                    "email",
                    "other-gus@example.org",
                    "role",
                    "user",
                    "password",
                    "a new gus passphrase"))));
    String gus2 =
        json(
                service.call(
                    "POST",
                    "/auth/login",
                    null,
                    Json.text(
                        Map.of("email", "gus@example.org", "password", "a new gus passphrase"))),
                200)
            .get("token")
            .asText();
    assertEquals(0, json(service.call("GET", "/trust-rules", gus2, null), 200).get("rules").size());
  }

  @Test
  public void everyAdminActionIsInTheAuditLogForAdminsOnly() throws Exception {
    String ida = service.signedIn("ida", "user");
    json(service.call("POST", "/admin/users/ida/disable", root, null), 200);
    json(service.call("POST", "/admin/users/ida/enable", root, null), 200);
    JsonNode entries = json(service.call("GET", "/admin/audit?limit=1000", root, null), 200);
    List<String> seen = new ArrayList<>();
    entries
        .get("entries")
        .forEach(
            e -> {
              if (e.get("target").asText().equals("ida"))
                seen.add(e.get("action").asText() + " by " + e.get("by").asText());
              assertTrue(e.hasNonNull("at"));
            });
    assertEquals(List.of("enable by root", "disable by root"), seen);
    json(
        service.call(
            "POST",
            "/admin/users",
            root,
            Json.text(
                Map.of(
                    "id",
                    "jon",
                    "email",
                    "jon@example.org",
                    "role",
                    "user",
                    "password",
                    "jons-passphrase"))),
        201);
    JsonNode newest = json(service.call("GET", "/admin/audit?limit=1", root, null), 200);
    assertEquals(1, newest.get("entries").size());
    assertEquals("create", newest.at("/entries/0/action").asText());
    assertEquals("jon", newest.at("/entries/0/target").asText());
    assertEquals(403, status("GET", "/admin/audit", service.login("ida", "ida-passphrase"), null));
    assertEquals(400, status("GET", "/admin/audit?limit=0", root, null));
    assertEquals(401, status("GET", "/admin/audit", ida, null));
  }

  @Test
  public void anInvitationRegistersItsAddressOnceWhileSignUpIsClosed() throws Exception {
    String closed = Json.text(Map.of("email", "kim@example.org", "password", "kims-passphrase"));
    assertEquals("closed by default", 403, status("POST", "/auth/register", null, closed));
    JsonNode invited =
        json(
            service.call(
                "POST", "/admin/invitations", root, Json.text(Map.of("email", "Kim@Example.org"))),
            202);
    assertEquals("invited", invited.get("status").asText());
    String invitation = mailbox.await("kim@example.org", 1).token();
    assertEquals(
        "an invitation is for its own address",
        400,
        status(
            "POST",
            "/auth/register",
            null,
            Json.text(
                Map.of(
                    "email",
                    "lee@example.org",
                    "password",
                    "lees-passphrase",
                    "invitation",
                    invitation))));
    JsonNode registered =
        json(
            service.call(
                "POST",
                "/auth/register",
                null,
                Json.text(
                    Map.of(
                        "email",
                        "kim@example.org",
                        "password",
                        "kims-passphrase",
                        "invitation",
                        invitation))),
            201);
    assertTrue(registered.at("/user/emailVerified").asBoolean());
    assertEquals("user", registered.at("/user/role").asText());
    assertEquals(
        200,
        service
            .send(
                "POST",
                "/auth/login",
                null,
                Json.text(Map.of("email", "kim@example.org", "password", "kims-passphrase")),
                Map.of())
            .statusCode());
    assertEquals(
        "it works once",
        400,
        status(
            "POST",
            "/auth/register",
            null,
            Json.text(
                Map.of(
                    "email",
                    "kim@example.org",
                    "password",
                    "another-passphrase",
                    "invitation",
                    invitation))));
    assertEquals(
        409,
        status("POST", "/admin/invitations", root, Json.text(Map.of("email", "kim@example.org"))));
    assertEquals(
        400, status("POST", "/admin/invitations", root, Json.text(Map.of("email", "not-mail"))));
    JsonNode newest = json(service.call("GET", "/admin/audit?limit=1", root, null), 200);
    assertEquals("invite", newest.at("/entries/0/action").asText());
    assertEquals("kim@example.org", newest.at("/entries/0/target").asText());
  }

  @Test
  public void theLastEnabledAdministratorCannotBeDemotedDisabledOrDeleted() throws Exception {
    try (InProcessService alone = new InProcessService(TestJournals.h2())) {
      String only = alone.signedIn("solo", "admin");
      String user = alone.signedIn("usr", "user");
      assertEquals(
          409,
          alone
              .call("PUT", "/admin/users/solo/role", only, Json.text(Map.of("role", "user")))
              .statusCode());
      assertEquals(409, alone.call("POST", "/admin/users/solo/disable", only, null).statusCode());
      assertEquals(409, alone.call("DELETE", "/admin/users/solo", only, null).statusCode());
      assertEquals(200, alone.call("GET", "/admin/users", only, null).statusCode());
      alone.call("PUT", "/admin/users/usr/role", only, Json.text(Map.of("role", "admin")));
      assertEquals(
          "with a second one it may step down",
          200,
          alone
              .call("PUT", "/admin/users/solo/role", only, Json.text(Map.of("role", "user")))
              .statusCode());
      assertEquals(409, alone.call("POST", "/admin/users/usr/disable", user, null).statusCode());
    }
  }

  @Test
  public void withoutSmtpOnlyTheOperatorGetsAOneTimePasswordAndItWorksOnce() throws Exception {
    try (InProcessService plain = new InProcessService(TestJournals.h2())) {
      String admin = plain.signedIn("boss", "admin");
      plain.signedIn("gil", "user");
      assertEquals(
          "an administrator cannot read a reset token",
          503,
          plain.call("POST", "/admin/users/gil/reset-password", admin, null).statusCode());
      String operator =
          plain.tokens.issueOperator(
              Principal.OPERATOR.accountId(), Role.ADMIN, Instant.now(), Duration.ofMinutes(1));
      JsonNode issued =
          json(plain.call("POST", "/admin/users/gil/reset-password", operator, null), 200);
      assertEquals("reset-issued", issued.get("status").asText());
      assertEquals("gil", issued.at("/user/id").asText());
      String token = issued.get("token").asText();
      assertTrue(
          issued.get("link").asText(), issued.get("link").asText().endsWith("#token=" + token));
      assertTrue(Instant.parse(issued.get("expiresAt").asText()).isAfter(Instant.now()));
      assertEquals(
          404,
          plain.call("POST", "/admin/users/nobody/reset-password", operator, null).statusCode());

      String reset = Json.text(Map.of("token", token, "password", "gils-new-passphrase"));
      json(plain.call("POST", "/auth/reset-password", null, reset), 200);
      assertEquals(
          "once only", 400, plain.call("POST", "/auth/reset-password", null, reset).statusCode());
      plain.login("gil", "gils-new-passphrase");

      JsonNode audit = json(plain.call("GET", "/admin/audit?limit=1", admin, null), 200);
      assertEquals("reset-password", audit.at("/entries/0/action").asText());
      assertEquals("periscope-cli", audit.at("/entries/0/by").asText());
      assertEquals("one-time password", audit.at("/entries/0/detail").asText());
      assertFalse("the token is not in the audit log", audit.toString().contains(token));
    }
  }

  static List<String> ids(JsonNode users) {
    List<String> ids = new ArrayList<>();
    users.get("users").forEach(u -> ids.add(u.get("id").asText()));
    return ids;
  }
}
