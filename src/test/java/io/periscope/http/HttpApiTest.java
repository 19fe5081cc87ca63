package io.periscope.http;

import static io.periscope.testing.ApiClient.error;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import io.periscope.account.AccountEntity;
import io.periscope.entity.Asks;
import io.periscope.json.Json;
import io.periscope.runtime.ShardedEntities;
import io.periscope.testing.InProcessService;
import io.periscope.testing.TestJournals;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.Done;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/** Every status of the route layer, over real HTTP, each error a JSON {error}. */
public class HttpApiTest {
  static InProcessService service;
  static String alice;
  static String bob;
  static String root;

  static final String WATCH =
      """
      {"id": "%s", "name": "Acme", "owner": "mallory", "sources": [{"type": "search", "value": \
      "acme"}],
       "schedule": "0 0 1 1 *", "condition": "Acme sets a date", "channels": ["telegram"],
       "threshold": 0.8, "weakThreshold": 0.5, "enabled": true}\
      """;

  @BeforeClass
  public static void start() throws Exception {
    service = new InProcessService(TestJournals.h2());
    alice = service.signedIn("alice", "user");
    bob = service.signedIn("bob", "user");
    root = service.signedIn("root", "admin");
  }

  @AfterClass
  public static void stop() throws Exception {
    service.close();
  }

  static HttpResponse<String> call(String method, String path, String token, String body)
      throws Exception {
    return service.send(method, path, token, body, Map.of());
  }

  @Test
  public void publicRoutesAnswerWithoutAToken() throws Exception {
    assertEquals("{\"status\":\"ok\"}", call("GET", "/health", null, null).body());
    JsonNode status = Json.MAPPER.readTree(call("GET", "/config/status", null, null).body());
    status
        .fields()
        .forEachRemaining(
            f ->
                assertTrue(
                    f.getKey(),
                    f.getValue().isBoolean() || f.getKey().equals("identityProviders")));
    assertEquals("{\"github\":false}", status.get("identityProviders").toString());
  }

  @Test
  public void livenessAndReadinessArePublicAndSayWhy() throws Exception {
    assertEquals("{\"status\":\"alive\"}", call("GET", "/health/live", null, null).body());
    HttpResponse<String> ready = call("GET", "/health/ready", null, null);
    assertEquals(ready.body(), 200, ready.statusCode());
    JsonNode body = Json.MAPPER.readTree(ready.body());
    assertEquals("ready", body.get("status").asText());
    for (String check : new String[] {"serving", "cluster", "journal", "wakeUpProjection"})
      assertTrue(check + ": " + body, body.at("/checks/" + check).asBoolean());
  }

  @Test
  public void createAnswersTheStoredWatchOwnedByTheCaller() throws Exception {
    HttpResponse<String> r = call("POST", "/watches", alice, WATCH.formatted("created"));
    assertEquals(r.body(), 201, r.statusCode());
    JsonNode w = Json.MAPPER.readTree(r.body());
    assertEquals("alice", w.get("owner").asText());
    assertEquals(0.5, w.get("weakThreshold").asDouble(), 0);
    JsonNode list = Json.MAPPER.readTree(call("GET", "/watches", alice, null).body());
    assertTrue(
        "a 201 is in the very next list",
        list.get("watches").findValuesAsText("id").contains("created"));
    error(call("POST", "/watches", alice, WATCH.formatted("created")), 409);
  }

  @Test
  public void warningsSayWhatThisInstanceCannotServeWithoutRefusingTheSave() throws Exception {
    // this instance has no search key
    HttpResponse<String> before =
        call(
            "POST",
            "/watches/warnings",
            alice,
            "{\"sources\": [{\"type\": \"search\", \"value\": \"acme\"}], \"channels\": []}");
    assertEquals(before.body(), 200, before.statusCode());
    JsonNode warnings = Json.MAPPER.readTree(before.body()).get("warnings");
    assertEquals(List.of("no-search-key", "no-channels"), warnings.findValuesAsText("kind"));
    assertEquals(0, warnings.get(0).get("source").asInt());
    error(call("POST", "/watches/warnings", alice, "{\"sources\": 3}"), 400);

    // an API client that ignores them saves as the interface says; the answer repeats them
    HttpResponse<String> saved =
        call(
            "POST",
            "/watches",
            alice,
            WATCH.formatted("silent").replace("\"channels\": [\"telegram\"]", "\"channels\": []"));
    assertEquals(saved.body(), 201, saved.statusCode());
    assertTrue(
        saved.body(),
        Json.MAPPER
            .readTree(saved.body())
            .get("warnings")
            .findValuesAsText("kind")
            .containsAll(List.of("no-search-key", "no-channels")));
  }

  @Test
  public void aWatchIsCheckedAsItsSaveWouldCheckItBeforeItsWarningsAndNothingIsSaved()
      throws Exception {
    // what is wrong comes first: an invalid watch is refused with every issue, no warnings
    String invalid =
        WATCH
            .formatted("checked")
            .replace("\"name\": \"Acme\"", "\"name\": \"\"")
            .replace("0 0 1 1 *", "61 * * * *")
            .replace("\"channels\": [\"telegram\"]", "\"channels\": []");
    HttpResponse<String> refused = call("POST", "/watches/check", alice, invalid);
    assertEquals(refused.body(), 400, refused.statusCode());
    JsonNode issues = Json.MAPPER.readTree(refused.body()).get("issues");
    assertEquals(2, issues.size());
    assertFalse(refused.body(), refused.body().contains("warnings"));

    // a valid one: its warnings, and nothing stored
    HttpResponse<String> valid =
        call(
            "POST",
            "/watches/check",
            alice,
            WATCH.formatted("checked").replace("\"channels\": [\"telegram\"]", "\"channels\": []"));
    assertEquals(valid.body(), 200, valid.statusCode());
    assertEquals(
        List.of("no-search-key", "no-channels"),
        Json.MAPPER.readTree(valid.body()).get("warnings").findValuesAsText("kind"));
    error(call("GET", "/watches/checked", alice, null), 404);

    // a replacement is checked against the stored watch: the path's id, its owner's only
    assertEquals(
        201, call("POST", "/watches", alice, WATCH.formatted("check-replaced")).statusCode());
    String edited = WATCH.formatted("ignored").replace("Acme sets a date", "Acme moves the date");
    HttpResponse<String> replacing = call("POST", "/watches/check-replaced/check", alice, edited);
    assertEquals(replacing.body(), 200, replacing.statusCode());
    // this instance has neither a search key nor a Telegram bot
    assertEquals(
        List.of("no-search-key", "no-telegram"),
        Json.MAPPER.readTree(replacing.body()).get("warnings").findValuesAsText("kind"));
    error(call("POST", "/watches/check-replaced/check", bob, edited), 404);
    error(
        call(
            "POST",
            "/watches/check-replaced/check",
            alice,
            edited.replace("\"threshold\": 0.8", "\"threshold\": 2")),
        400);
    assertEquals(
        "Acme sets a date",
        Json.MAPPER
            .readTree(call("GET", "/watches/check-replaced", alice, null).body())
            .get("condition")
            .asText());
  }

  @Test
  public void theSetupLinkOpensNothingOnceAnAccountExists() throws Exception {
    String body =
        "{\"token\": \"%s\", \"id\": \"late\", \"email\": \"late@example.org\","
            + " \"password\": \"a-long-late-passphrase\"}";
    error(call("POST", "/auth/setup", null, body.formatted("not-the-token")), 403);
    String link = service.app.firstRun().link("http://localhost");
    String token = link.substring(link.indexOf("token=") + "token=".length());
    error(call("POST", "/auth/setup", null, body.formatted(token)), 409);
    assertFalse(
        Json.MAPPER
            .readTree(call("GET", "/config/status", null, null).body())
            .get("setup")
            .asBoolean());
  }

  @Test
  public void usersNameTheOperatorsChatByDefaultButNoOtherChat() throws Exception {
    assertEquals(
        201, call("POST", "/watches", bob, WATCH.formatted("operators-chat")).statusCode());
    String otherChat = WATCH.formatted("other-chat").replace("\"telegram\"", "\"telegram:-1001\"");
    JsonNode refused = Json.MAPPER.readTree(call("POST", "/watches", bob, otherChat).body());
    assertEquals(refused.toString(), "[\"channels\",0]", refused.at("/issues/0/path").toString());
  }

  @Test
  public void anotherOwnersWatchIsNotFound() throws Exception {
    call("POST", "/watches", alice, WATCH.formatted("private"));
    error(call("GET", "/watches/private", bob, null), 404);
    error(call("PUT", "/watches/private", bob, WATCH.formatted("private")), 404);
    error(call("DELETE", "/watches/private", bob, null), 404);
    error(call("GET", "/watches/never", alice, null), 404);
    assertFalse(call("GET", "/watches", bob, null).body().contains("private"));
    assertEquals(200, call("GET", "/watches/private", alice, null).statusCode());
  }

  @Test
  public void putReplacesTheWholeWatch() throws Exception {
    call("POST", "/watches", alice, WATCH.formatted("replaced"));
    String replacement =
        """
        {"id": "ignored", "owner": "bob", "name": "New", "sources": [{"type": "search", "value": \
        "acme"}],
         "schedule": "15 8 * * 1", "condition": "c", "threshold": 0.6}\
        """;
    HttpResponse<String> r = call("PUT", "/watches/replaced", alice, replacement);
    assertEquals(r.body(), 200, r.statusCode());
    JsonNode w = Json.MAPPER.readTree(call("GET", "/watches/replaced", alice, null).body());
    assertEquals("replaced", w.get("id").asText());
    assertEquals("alice", w.get("owner").asText());
    assertNull("an omitted weakThreshold is removed", w.get("weakThreshold"));
    assertEquals(0, w.get("channels").size());
    error(call("PUT", "/watches/replaced", alice, replacement.replace("15 8 * * 1", "nope")), 400);
  }

  @Test
  public void deleteRemovesFromTheList() throws Exception {
    call("POST", "/watches", alice, WATCH.formatted("deleted"));
    assertEquals(204, call("DELETE", "/watches/deleted", alice, null).statusCode());
    error(call("GET", "/watches/deleted", alice, null), 404);
    assertFalse(call("GET", "/watches", alice, null).body().contains("\"deleted\""));
    error(call("DELETE", "/watches/deleted", alice, null), 404);
    assertFalse("the owner forgot the id", watchIds("alice").contains("deleted"));
    // the same id made again is listed again
    assertEquals(201, call("POST", "/watches", alice, WATCH.formatted("deleted")).statusCode());
    assertTrue(call("GET", "/watches", alice, null).body().contains("\"deleted\""));
    assertEquals(204, call("DELETE", "/watches/deleted", alice, null).statusCode());
  }

  @Test
  public void aWatchKeepsItsTimeZoneAndOneThatNamesNoneTakesTheInstances() throws Exception {
    String berlin =
        WATCH
            .formatted("in-berlin")
            .replace("\"enabled\"", "\"timeZone\": \"Europe/Berlin\", \"enabled\"");
    assertEquals(
        "Europe/Berlin",
        InProcessService.json(call("POST", "/watches", alice, berlin), 201)
            .get("timeZone")
            .asText());
    assertEquals(
        "Europe/Berlin",
        InProcessService.json(call("GET", "/watches/in-berlin", alice, null), 200)
            .get("timeZone")
            .asText());
    assertEquals(
        "UTC",
        InProcessService.json(call("POST", "/watches", alice, WATCH.formatted("in-utc")), 201)
            .get("timeZone")
            .asText());
    JsonNode refused =
        error(call("POST", "/watches", alice, berlin.replace("Europe/Berlin", "CEST")), 400);
    assertEquals("timeZone", refused.at("/issues/0/path/0").asText());
    error(call("PUT", "/watches/in-berlin", alice, berlin.replace("Europe/Berlin", "+01:00")), 400);
    assertEquals(
        "a refused replace changes nothing",
        "Europe/Berlin",
        InProcessService.json(call("GET", "/watches/in-berlin", alice, null), 200)
            .get("timeZone")
            .asText());
  }

  @Test
  public void quietHoursAndADigestAreSavedAndBadOnesAre400sNamingTheField() throws Exception {
    String quiet =
        WATCH
            .formatted("quiet")
            .replace(
                "\"enabled\"",
                "\"quietHours\": {\"start\": \"22:00\", \"end\": \"07:00\"},"
                    + " \"digest\": \"hourly\", \"enabled\"");
    JsonNode saved = InProcessService.json(call("POST", "/watches", alice, quiet), 201);
    assertEquals("22:00", saved.at("/quietHours/start").asText());
    assertEquals("07:00", saved.at("/quietHours/end").asText());
    assertEquals("hourly", saved.get("digest").asText());
    JsonNode read = InProcessService.json(call("GET", "/watches/quiet", alice, null), 200);
    // the create's answer adds what this instance cannot serve (no search key, no Telegram here)
    ((com.fasterxml.jackson.databind.node.ObjectNode) saved).remove("warnings");
    assertEquals(saved, read);
    assertFalse(
        "a watch without them answers neither",
        InProcessService.json(call("POST", "/watches", alice, WATCH.formatted("loud")), 201)
            .has("quietHours"));

    JsonNode refused =
        error(call("PUT", "/watches/quiet", alice, quiet.replace("22:00", "10pm")), 400);
    assertEquals("quietHours", refused.at("/issues/0/path/0").asText());
    assertEquals("start", refused.at("/issues/0/path/1").asText());
    refused = error(call("PUT", "/watches/quiet", alice, quiet.replace("hourly", "weekly")), 400);
    assertEquals("digest", refused.at("/issues/0/path/0").asText());
    assertEquals(
        "a refused replace changes nothing",
        read,
        InProcessService.json(call("GET", "/watches/quiet", alice, null), 200));
  }

  /**
   * An id left behind (a delete cut short between the watch and its owner) is asked about by the
   * next listing, and the owner then forgets it: later listings do not wake that watch again.
   */
  @Test
  public void aListingForgetsAnIdWhoseWatchIsGone() throws Exception {
    new Asks(service.system, Duration.ofSeconds(10))
        .<AccountEntity.Command, Done>ask(
            new ShardedEntities(service.system).account("bob"),
            r -> new AccountEntity.AddWatch("left-behind", r))
        .toCompletableFuture()
        .get(10, TimeUnit.SECONDS);
    assertTrue(watchIds("bob").contains("left-behind"));
    assertFalse(call("GET", "/watches", bob, null).body().contains("left-behind"));
    for (int i = 0; i < 100 && watchIds("bob").contains("left-behind"); i++) Thread.sleep(20);
    assertFalse(watchIds("bob").contains("left-behind"));
  }

  private static List<String> watchIds(String account) throws Exception {
    return new Asks(service.system, Duration.ofSeconds(10))
        .<AccountEntity.Command, AccountEntity.WatchIds>ask(
            new ShardedEntities(service.system).account(account), AccountEntity.ListWatches::new)
        .toCompletableFuture()
        .get(10, TimeUnit.SECONDS)
        .ids();
  }

  @Test
  public void badBodiesAre4xxWithClearErrors() throws Exception {
    error(call("POST", "/watches", alice, "{\"id\": "), 400);
    JsonNode invalid = error(call("POST", "/watches", alice, "[1]"), 400);
    assertTrue(invalid.get("issues").isArray());
    JsonNode issues =
        error(
            call(
                "POST",
                "/watches",
                alice,
                WATCH.formatted("x").replace("\"search\"", "\"pigeon\"")),
            400);
    assertEquals("sources", issues.get("issues").get(0).get("path").get(0).asText());
    error(call("POST", "/watches", alice, "[".repeat(100) + "]".repeat(100)), 400);
    error(call("POST", "/watches", alice, "{\"pad\": \"" + "x".repeat(300_000) + "\"}"), 413);
    error(
        service.send("POST", "/watches", alice, "hello", Map.of("Content-Type", "text/plain")),
        415);
    error(
        service.send("POST", "/watches", alice, "", Map.of("Content-Type", "application/json")),
        400);
    error(call("POST", "/auth/login", null, "{\"email\": 12}"), 400);
  }

  @Test
  public void bodiesAreBoundedWhetherTheyArriveWholeOrStreamed() throws Exception {
    String oversized = "{\"email\": \"" + "x".repeat(20_000) + "\"}"; // /auth/* takes 16 KiB
    assertEquals(413, rawStatus(oversized, false));
    assertEquals(413, rawStatus(oversized, true));
    String wrongPassword = "{\"email\": \"alice@example.org\", \"password\": \"nope-nope\"}";
    assertEquals(
        "a body within the bound is read either way", 401, rawStatus(wrongPassword, false));
    assertEquals(401, rawStatus(wrongPassword, true));
  }

  /**
   * The status of POST /auth/login with {@code body} over a raw connection: written with its head
   * in one piece (the server has it whole), or chunked in two writes (the server reads it as a
   * stream).
   */
  private static int rawStatus(String body, boolean chunked) throws Exception {
    java.net.URI base = service.uri("/");
    try (java.net.Socket socket = new java.net.Socket(base.getHost(), base.getPort())) {
      socket.setSoTimeout(30_000);
      var out = socket.getOutputStream();
      String head =
          "POST /auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
              + "Connection: close\r\n";
      if (chunked) {
        int half = body.length() / 2;
        out.write(
            (head + "Transfer-Encoding: chunked\r\n\r\n" + chunk(body.substring(0, half)))
                .getBytes());
        out.flush();
        Thread.sleep(50);
        out.write((chunk(body.substring(half)) + "0\r\n\r\n").getBytes());
      } else {
        out.write((head + "Content-Length: " + body.length() + "\r\n\r\n" + body).getBytes());
      }
      out.flush();
      String statusLine =
          new java.io.BufferedReader(new java.io.InputStreamReader(socket.getInputStream()))
              .readLine();
      return Integer.parseInt(statusLine.split(" ")[1]);
    }
  }

  private static String chunk(String part) {
    return Integer.toHexString(part.length()) + "\r\n" + part + "\r\n";
  }

  @Test
  public void tokensAreRequiredAndChecked() throws Exception {
    error(call("GET", "/watches", null, null), 401);
    error(call("GET", "/no-such-route", null, null), 401);
    error(call("GET", "/watches", "garbage.token.here", null), 401);
    error(
        service.send("GET", "/watches", null, null, Map.of("Authorization", "Basic YWxpY2U6cHc=")),
        401);
  }

  @Test
  public void wrongPasswordAndUnknownEmailLookTheSame() throws Exception {
    JsonNode wrong =
        error(
            call(
                "POST",
                "/auth/login",
                null,
                "{\"email\":\"alice@example.org\",\"password\":\"nope-nope\"}"),
            401);
    JsonNode unknown =
        error(
            call(
                "POST",
                "/auth/login",
                null,
                "{\"email\":\"nobody@example.org\",\"password\":\"nope-nope\"}"),
            401);
    assertEquals(wrong, unknown);
  }

  @Test
  public void creatingAnExistingAccountAgainLeavesItIntact() throws Exception {
    String body =
        "{\"id\":\"dave\",\"email\":\"dave@example.org\",\"role\":\"user\",\"password\":\"dave-pa"
            + "ssphrase\"}";
    assertEquals(201, call("POST", "/admin/users", root, body).statusCode());
    error(call("POST", "/admin/users", root, body), 409);
    assertTrue(
        "the first account still signs in", service.login("dave", "dave-passphrase").length() > 20);
    String mallory =
        "{\"id\":\"mallory\",\"email\":\"dave@example.org\",\"role\":\"user\",\"password\":\"mall"
            + "ory-pass\"}";
    error(call("POST", "/admin/users", root, mallory), 409);
  }

  @Test
  public void withoutSmtpTheMailedAccountRoutesAre503() throws Exception {
    // sign-up is closed by default (REGISTRATION), which answers before the missing SMTP does
    error(
        call(
            "POST",
            "/auth/register",
            null,
            "{\"email\":\"new@example.org\",\"password\":\"a fine long phrase\"}"),
        403);
    error(call("POST", "/auth/forgot-password", null, "{\"email\":\"alice@example.org\"}"), 503);
    error(
        call("POST", "/auth/verify-email/resend", null, "{\"email\":\"alice@example.org\"}"), 503);
    error(call("GET", "/auth/github", null, null), 404);
  }

  @Test
  public void aPublicPathWithTheWrongMethodIs405() throws Exception {
    error(call("GET", "/auth/login", null, null), 405);
    error(call("POST", "/health", null, "{}"), 405);
  }

  @Test
  public void rolesAndMethodsAndUnknownPaths() throws Exception {
    error(call("GET", "/admin/keys", alice, null), 403);
    error(call("POST", "/admin/users", alice, "{}"), 403);
    assertEquals(200, call("GET", "/admin/keys", root, null).statusCode());
    error(call("PATCH", "/watches", alice, "{}"), 405);
    error(call("GET", "/no-such-route", alice, null), 404);
  }

  @Test
  public void adminsCreateAccountsOnceByIdAndByEmail() throws Exception {
    String body =
        "{\"id\":\"%s\",\"email\":\"%s\",\"role\":\"user\",\"password\":\"long-enough-pw\"}";
    assertEquals(
        201,
        call("POST", "/admin/users", root, body.formatted("carol", "carol@example.org"))
            .statusCode());
    error(call("POST", "/admin/users", root, body.formatted("carol", "carol2@example.org")), 409);
    error(call("POST", "/admin/users", root, body.formatted("carol2", "Carol@Example.org")), 409);
    error(call("POST", "/admin/users", root, body.formatted("bad id", "x@example.org")), 400);
    assertTrue(service.login("carol", "long-enough-pw").length() > 20);
  }

  @Test
  public void theAuthWindowAllowsTwentyThenAnswers429() throws Exception {
    // Its own service, on a clock held 10 s into a window: the window is per process, and other
    // tests log in.
    Clock still = Clock.fixed(Instant.parse("2026-11-22T12:00:10Z"), ZoneOffset.UTC);
    try (InProcessService limited = new InProcessService(TestJournals.h2(), still)) {
      for (int i = 0; i < 20; i++) {
        assertEquals(
            401,
            limited
                .send(
                    "POST",
                    "/auth/login",
                    null,
                    // an address each: one address's failed sign-ins have a limit of their own
                    "{\"email\":\"x" + i + "@example.org\",\"password\":\"wrong\"}",
                    Map.of())
                .statusCode());
      }
      HttpResponse<String> refused =
          limited.send(
              "POST",
              "/auth/login",
              null,
              "{\"email\":\"x@example.org\",\"password\":\"wrong\"}",
              Map.of());
      error(refused, 429);
      assertEquals("50", refused.headers().firstValue("Retry-After").orElse(null));
    }
  }

  @Test
  public void repeatedFailedSignInsToOneAddressWaitWhateverThePassword() throws Exception {
    Clock still = Clock.fixed(Instant.parse("2026-11-22T12:00:10Z"), ZoneOffset.UTC);
    try (InProcessService limited = new InProcessService(TestJournals.h2(), still)) {
      limited.account("erin", "user", "erins-long-passphrase");
      String wrong = "{\"email\":\"erin@example.org\",\"password\":\"not-it\"}";
      for (int i = 0; i < 5; i++) {
        assertEquals(401, limited.send("POST", "/auth/login", null, wrong, Map.of()).statusCode());
      }
      HttpResponse<String> waiting =
          limited.send(
              "POST",
              "/auth/login",
              null,
              "{\"email\":\"ERIN@example.org\",\"password\":\"erins-long-passphrase\"}",
              Map.of());
      assertTrue(error(waiting, 429).get("error").asText().contains("failed sign-ins"));
      assertEquals("60", waiting.headers().firstValue("Retry-After").orElse(null));
      assertEquals(
          "an address without an account waits the same way",
          401,
          limited
              .send(
                  "POST",
                  "/auth/login",
                  null,
                  "{\"email\":\"nobody@example.org\",\"password\":\"x\"}",
                  Map.of())
              .statusCode());
    }
  }

  @Test
  public void aLockoutFromOtherNetworksDoesNotKeepTheOwnerOutOfTheirUsualNetwork()
      throws Exception {
    Clock still = Clock.fixed(Instant.parse("2026-11-22T12:00:10Z"), ZoneOffset.UTC);
    try (InProcessService service =
        new InProcessService(
            ConfigFactory.parseMap(Map.of("periscope.http.trusted-proxies", "127.0.0.1"))
                .withFallback(TestJournals.h2()),
            still)) {
      service.account("olga", "user", "olgas-long-passphrase");
      String right = "{\"email\":\"olga@example.org\",\"password\":\"olgas-long-passphrase\"}";
      String wrong = "{\"email\":\"olga@example.org\",\"password\":\"not-it\"}";
      assertEquals(200, signIn(service, "198.51.100.7", right).statusCode());

      // one attacker's network first, then many
      for (int i = 0; i < 5; i++)
        assertEquals(401, signIn(service, "203.0.113." + (10 + i), wrong).statusCode());
      assertEquals(
          "the attacker's network waits, whatever the password",
          429,
          signIn(service, "203.0.113.99", right).statusCode());
      int refused = 0;
      for (int i = 0; i < 20; i++)
        if (signIn(service, "192.0." + (100 + i) + ".9", wrong).statusCode() == 429) refused++;
      assertTrue("failures from many networks make the address wait", refused > 0);
      assertEquals(
          "a network that never signed in waits too",
          429,
          signIn(service, "192.0.2.5", right).statusCode());

      HttpResponse<String> owner = signIn(service, "198.51.100.8", right);
      assertEquals("the owner's usual network still signs in", 200, owner.statusCode());
      assertTrue(InProcessService.json(owner, 200).has("token"));
    }
  }

  private static HttpResponse<String> signIn(InProcessService service, String from, String body)
      throws Exception {
    return service.send("POST", "/auth/login", null, body, Map.of("X-Forwarded-For", from));
  }

  @Test
  public void forwardedAddressesCountOnlyFromTrustedProxiesInTheirOneHeader() throws Exception {
    Clock still = Clock.fixed(Instant.parse("2026-11-22T12:00:10Z"), ZoneOffset.UTC);
    Map<String, String> first = Map.of("X-Forwarded-For", "203.0.113.7");
    Map<String, String> second = Map.of("X-Forwarded-For", "198.51.100.9, 10.1.2.3");
    try (InProcessService behindProxy =
        new InProcessService(
            ConfigFactory.parseMap(
                    Map.of("periscope.http.trusted-proxies", "127.0.0.1/32, 10.0.0.0/8"))
                .withFallback(TestJournals.h2()),
            still)) {
      for (int i = 0; i < 20; i++) {
        assertEquals(404, behindProxy.send("GET", "/auth/nothing", null, null, first).statusCode());
      }
      assertEquals(429, behindProxy.send("GET", "/auth/nothing", null, null, first).statusCode());
      for (String spoofed : List.of("for=198.51.100.77", "for=\"[2001:db8::7]\"")) {
        assertEquals(
            "a client's own Forwarded header, passed through by the proxy, is not read",
            429,
            behindProxy
                .send(
                    "GET",
                    "/auth/nothing",
                    null,
                    null,
                    Map.of("X-Forwarded-For", "203.0.113.7", "Forwarded", spoofed))
                .statusCode());
      }
      assertEquals(
          "another client behind the same proxy has a window of its own",
          404,
          behindProxy.send("GET", "/auth/nothing", null, null, second).statusCode());
    }
    try (InProcessService direct = new InProcessService(TestJournals.h2(), still)) {
      for (int i = 0; i < 20; i++) {
        assertEquals(404, direct.send("GET", "/auth/nothing", null, null, first).statusCode());
      }
      assertEquals(
          "without TRUSTED_PROXIES a forwarded header is anyone's to write",
          429,
          direct.send("GET", "/auth/nothing", null, null, second).statusCode());
    }
  }

  @Test
  public void corsFollowsTheAllowList() throws Exception {
    try (InProcessService cors =
        new InProcessService(
            ConfigFactory.parseMap(Map.of("periscope.web-origin", "http://app.example"))
                .withFallback(TestJournals.h2()))) {
      HttpResponse<String> listed =
          cors.send("GET", "/health", null, null, Map.of("Origin", "http://app.example"));
      assertEquals(
          "http://app.example",
          listed.headers().firstValue("Access-Control-Allow-Origin").orElse(null));
      HttpResponse<String> preflight =
          cors.send(
              "OPTIONS",
              "/watches/x",
              null,
              null,
              Map.of(
                  "Origin",
                  "http://app.example",
                  "Access-Control-Request-Method",
                  "PUT",
                  "Access-Control-Request-Headers",
                  "authorization, content-type"));
      assertTrue(preflight.statusCode() == 200 || preflight.statusCode() == 204);
      assertTrue(
          preflight
              .headers()
              .firstValue("Access-Control-Allow-Methods")
              .orElse("")
              .contains("PUT"));
      assertTrue(
          preflight
              .headers()
              .firstValue("Access-Control-Allow-Headers")
              .orElse("")
              .toLowerCase()
              .contains("authorization"));
      // an unlisted origin is answered as without one: no CORS headers, and no 403 for API clients
      HttpResponse<String> other =
          cors.send("GET", "/health", null, null, Map.of("Origin", "http://evil.example"));
      assertEquals(200, other.statusCode());
      assertTrue(
          other.headers().map().keySet().stream()
              .noneMatch(h -> h.toLowerCase().startsWith("access-control-")));
      String token = cors.signedIn("cors-api-client", "user");
      HttpResponse<String> api =
          cors.send("GET", "/watches", token, null, Map.of("Origin", "http://evil.example"));
      assertEquals(200, api.statusCode());
      assertTrue(api.headers().firstValue("Access-Control-Allow-Origin").isEmpty());
    }
    HttpResponse<String> none =
        service.send("GET", "/health", null, null, Map.of("Origin", "http://app.example"));
    assertTrue(
        none.headers().map().keySet().stream()
            .noneMatch(h -> h.toLowerCase().startsWith("access-control-")));
  }
}
