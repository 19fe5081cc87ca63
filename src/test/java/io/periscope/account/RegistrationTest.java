package io.periscope.account;

import static io.periscope.testing.InProcessService.json;
import static io.periscope.testing.SignUps.keepSecret;
import static io.periscope.testing.SignUps.login;
import static io.periscope.testing.SignUps.post;
import static io.periscope.testing.SignUps.registered;
import static io.periscope.testing.SignUps.secrets;
import static io.periscope.testing.SignUps.withMail;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.periscope.auth.EmailEntity;
import io.periscope.testing.CapturedLogs;
import io.periscope.testing.InProcessService;
import io.periscope.testing.Mailbox;
import io.periscope.testing.MutableClock;
import io.periscope.testing.TestJournals;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Registration, verification and recovery end to end: over real HTTP against the whole service,
 * with a real SMTP server (GreenMail) whose mails the test reads the tokens out of, as a person
 * would.
 */
public class RegistrationTest {
  static Mailbox mailbox;
  static MutableClock clock;
  static InProcessService service;
  static CapturedLogs logs;

  @BeforeClass
  public static void start() throws Exception {
    mailbox = new Mailbox();
    logs = new CapturedLogs();
    clock = new MutableClock(Instant.now());
    service = new InProcessService(withMail(mailbox, TestJournals.h2()), clock);
  }

  @AfterClass
  public static void stop() throws Exception {
    service.close();
    logs.assertNoneContains(secrets());
    logs.close();
    mailbox.close();
  }

  @Test
  public void signUpIsClosedByDefaultAlikeForEveryAddressAndMailsNothing() throws Exception {
    Config closed =
        mailbox
            .smtpConfig()
            .withFallback(TestJournals.h2()); // no periscope.registration: the shipped default
    try (InProcessService closedNode = new InProcessService(closed)) {
      closedNode.account("quinn", "user", "quinns-long-passphrase");
      String known =
          json(
                  post(
                      closedNode,
                      "/auth/register",
                      Map.of("email", "quinn@example.org", "password", "another long phrase")),
                  403)
              .get("error")
              .asText();
      String unknown =
          json(
                  post(
                      closedNode,
                      "/auth/register",
                      Map.of("email", "rex@example.org", "password", "another long phrase")),
                  403)
              .get("error")
              .asText();
      assertEquals("the answer tells nothing about which addresses have accounts", known, unknown);
      assertTrue(known, known.contains("closed"));
      assertEquals(401, login(closedNode, "rex@example.org", "another long phrase").statusCode());
      assertFalse(
          json(closedNode.send("GET", "/config/status", null, null, Map.of()), 200)
              .get("registration")
              .asBoolean());
      Thread.sleep(500);
      assertTrue("no mail to either address", mailbox.to("rex@example.org").isEmpty());
      assertTrue(mailbox.to("quinn@example.org").isEmpty());
    }
  }

  @Test
  public void signUpByDomainAdmitsOnlyTheListedDomains() throws Exception {
    Config domains =
        ConfigFactory.parseMap(
                Map.of(
                    "periscope.registration.mode",
                    "domains",
                    "periscope.registration.domains",
                    "Example.org, @staff.example"))
            .withFallback(withMail(mailbox, TestJournals.h2()));
    try (InProcessService domainNode = new InProcessService(domains)) {
      registered(domainNode, mailbox, "sam@staff.example", "sams-long-passphrase");
      json(
          post(
              domainNode,
              "/auth/register",
              Map.of("email", "tess@elsewhere.example", "password", "tess-long-passphrase")),
          403);
      assertTrue(
          json(domainNode.send("GET", "/config/status", null, null, Map.of()), 200)
              .get("registration")
              .asBoolean());
    }
  }

  @Test
  public void aSignUpRuleThatIsNoneStopsTheStart() {
    assertThrows(IllegalArgumentException.class, () -> Registration.from("sometimes", ""));
    assertThrows(IllegalArgumentException.class, () -> Registration.from("domains", " , "));
    assertFalse(Registration.from("closed", "example.org").admits("a@example.org"));
    assertTrue(Registration.from("OPEN", "").admits("a@anything.example"));
  }

  @Test
  public void registerVerifyThenSignIn() throws Exception {
    JsonNode accepted =
        json(
            post(
                service,
                "/auth/register",
                Map.of("email", "Nora@Example.org", "password", "nora's long walk home")),
            202);
    assertEquals("pending", accepted.get("status").asText());

    Mailbox.Received mail = mailbox.await("nora@example.org", 1);
    assertEquals("Verify your e-mail address for Periscope", mail.subject());
    String token = mail.token();
    assertTrue(
        "without WEB_ORIGIN the link opens the client the service serves: " + mail.text(),
        mail.text().contains("http://localhost:8080/verify-email#token=" + token));
    keepSecret(token);

    HttpResponse<String> early = login(service, "nora@example.org", "nora's long walk home");
    assertEquals("an unverified account may not sign in yet", 403, early.statusCode());
    assertTrue(early.body(), early.body().contains("verify-email/resend"));

    JsonNode verified = json(post(service, "/auth/verify-email", Map.of("token", token)), 200);
    assertEquals("verified", verified.get("status").asText());
    JsonNode user = verified.get("user");
    assertEquals("user", user.get("role").asText());
    assertEquals("nora@example.org", user.get("email").asText());
    assertTrue(user.get("emailVerified").asBoolean());
    assertTrue("a generated id: " + user, user.get("id").asText().matches("nora-[a-z2-9]{12}"));

    JsonNode session = json(login(service, "nora@example.org", "nora's long walk home"), 200);
    String jwt = session.get("token").asText();
    assertEquals(200, service.send("GET", "/watches", jwt, null, Map.of()).statusCode());
    assertFalse("no password hash in any answer", session.toString().contains("$2a$"));
  }

  @Test
  public void aTokenWorksOnceAndThenLooksUnknown() throws Exception {
    registered(service, mailbox, "olga@example.org", "olga keeps bees at dawn");
    String used = mailbox.await("olga@example.org", 1).token();
    JsonNode again = json(post(service, "/auth/verify-email", Map.of("token", used)), 400);
    JsonNode unknown =
        json(
            post(
                service,
                "/auth/verify-email",
                Map.of("token", used.substring(0, used.length() - 2) + "xx")),
            400);
    JsonNode garbage = json(post(service, "/auth/verify-email", Map.of("token", "garbage")), 400);
    assertEquals(again, unknown);
    assertEquals(again, garbage);
    assertEquals("token", again.get("issues").get(0).get("path").get(0).asText());
  }

  @Test
  public void anExpiredVerificationTokenIsRefusedAndANewOneCanBeAskedFor() throws Exception {
    json(
        post(
            service,
            "/auth/register",
            Map.of("email", "pia@example.org", "password", "pia paints the harbour")),
        202);
    String first = mailbox.await("pia@example.org", 1).token();
    keepSecret(first);
    Instant start = clock.instant();
    try {
      clock.set(start.plus(SelfService.VERIFICATION_LIFETIME).plusSeconds(1));
      json(post(service, "/auth/verify-email", Map.of("token", first)), 400);
    } finally {
      clock.set(start);
    }
    clock.set(start.plus(EmailEntity.MAIL_COOLDOWN)); // an address has a mail a minute at most
    json(post(service, "/auth/verify-email/resend", Map.of("email", "pia@example.org")), 202);
    String second = mailbox.await("pia@example.org", 2).token();
    keepSecret(second);
    assertFalse(first.equals(second));
    json(post(service, "/auth/verify-email", Map.of("token", first)), 400);
    json(post(service, "/auth/verify-email", Map.of("token", second)), 200);
  }

  @Test
  public void registeringAKnownAddressAnswersAlikeAndMailsItsHolderAReset() throws Exception {
    service.account("quinn", "user", "quinn's first passphrase");
    HttpResponse<String> known =
        post(
            service,
            "/auth/register",
            Map.of("email", "quinn@example.org", "password", "mallory squats here"));
    HttpResponse<String> fresh =
        post(
            service,
            "/auth/register",
            Map.of("email", "rosa@example.org", "password", "rosa sails to the cape"));
    assertEquals(known.statusCode(), fresh.statusCode());
    assertEquals(known.body(), fresh.body());

    Mailbox.Received mail = mailbox.await("quinn@example.org", 1);
    assertEquals("You already have a Periscope account", mail.subject());
    assertEquals(
        "the holder's password is untouched",
        200,
        login(service, "quinn@example.org", "quinn's first passphrase").statusCode());
    assertEquals(401, login(service, "quinn@example.org", "mallory squats here").statusCode());
    String reset = mail.token();
    keepSecret(reset);
    json(
        post(
            service,
            "/auth/reset-password",
            Map.of("token", reset, "password", "quinn's second passphrase")),
        200);
    assertEquals(
        200, login(service, "quinn@example.org", "quinn's second passphrase").statusCode());
  }

  @Test
  public void aFloodOfRequestsMailsAnAddressOnceAMinuteAndTenADay() throws Exception {
    service.account("xena", "user", "xena's old passphrase");
    long ownerEvents = journalEvents("Owner|xena");
    List<java.util.concurrent.CompletableFuture<HttpResponse<String>>> sent = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      String path = i % 4 == 0 ? "/auth/register" : "/auth/forgot-password";
      Map<String, String> request =
          i % 4 == 0
              ? Map.of("email", "xena@example.org", "password", "somebody else's try " + i)
              : Map.of("email", "xena@example.org");
      sent.add(
          java.util.concurrent.CompletableFuture.supplyAsync(
              () -> {
                try {
                  return post(service, path, request);
                } catch (Exception e) {
                  throw new java.util.concurrent.CompletionException(e);
                }
              }));
    }
    for (var r : sent) assertEquals("the same 202 for every request", 202, r.get().statusCode());
    mailbox.await("xena@example.org", 1);
    Thread.sleep(1000); // a second mail, were one on its way, would have arrived
    assertEquals("one mail for 100 requests", 1, mailbox.to("xena@example.org").size());
    assertEquals(
        "one token written to the owner's journal", ownerEvents + 1, journalEvents("Owner|xena"));

    Instant start = clock.instant();
    try {
      for (int minute = 1; minute <= 12; minute++) {
        clock.set(start.plus(EmailEntity.MAIL_COOLDOWN.multipliedBy(minute)));
        json(post(service, "/auth/forgot-password", Map.of("email", "xena@example.org")), 202);
        Thread.sleep(200);
      }
      Thread.sleep(1000);
      assertEquals(
          "ten mails a day at most",
          EmailEntity.MAILS_PER_DAY,
          mailbox.to("xena@example.org").size());
    } finally {
      clock.set(start);
    }
  }

  /** How many events the journal holds for {@code persistenceId}. */
  static long journalEvents(String persistenceId) throws Exception {
    String url =
        service
            .system
            .settings()
            .config()
            .getString("pekko-persistence-jdbc.shared-databases.periscope.db.url");
    try (var c = java.sql.DriverManager.getConnection(url, "sa", "");
        var q =
            c.prepareStatement(
                "SELECT COUNT(*) FROM \"event_journal\" WHERE \"persistence_id\" = ?")) {
      q.setString(1, persistenceId);
      try (var r = q.executeQuery()) {
        r.next();
        return r.getLong(1);
      }
    }
  }

  @Test
  public void forgotPasswordAnswersAlikeForKnownAndUnknownAddresses() throws Exception {
    service.account("sven", "user", "sven's old passphrase");
    HttpResponse<String> known =
        post(service, "/auth/forgot-password", Map.of("email", "sven@example.org"));
    HttpResponse<String> unknown =
        post(service, "/auth/forgot-password", Map.of("email", "nobody-here@example.org"));
    assertEquals(202, known.statusCode());
    assertEquals(known.statusCode(), unknown.statusCode());
    assertEquals(known.body(), unknown.body());
    assertEquals("Reset your Periscope password", mailbox.await("sven@example.org", 1).subject());
    Thread.sleep(300);
    assertEquals(
        "nothing is mailed to an address without an account",
        0,
        mailbox.to("nobody-here@example.org").size());
  }

  @Test
  public void aResetSetsANewPasswordUnderThePolicyAndEndsEarlierSignIns() throws Exception {
    service.account("tove", "user", "tove's old passphrase");
    String before =
        json(login(service, "tove@example.org", "tove's old passphrase"), 200)
            .get("token")
            .asText();
    json(post(service, "/auth/forgot-password", Map.of("email", "tove@example.org")), 202);
    String token = mailbox.await("tove@example.org", 1).token();
    keepSecret(token);

    JsonNode common =
        json(
            post(
                service,
                "/auth/reset-password",
                Map.of("token", token, "password", "Password123!")),
            400);
    assertEquals("password", common.get("issues").get(0).get("path").get(0).asText());
    json(
        post(service, "/auth/reset-password", Map.of("token", token, "password", "tove2024!")),
        400);
    json(post(service, "/auth/reset-password", Map.of("token", token, "password", "short")), 400);

    JsonNode done =
        json(
            post(
                service,
                "/auth/reset-password",
                Map.of("token", token, "password", "tove's brand new passphrase")),
            200);
    assertEquals("password-reset", done.get("status").asText());
    assertEquals(
        "the token works once",
        400,
        post(
                service,
                "/auth/reset-password",
                Map.of("token", token, "password", "tove's third passphrase"))
            .statusCode());

    assertEquals(
        "a token signed before the reset is refused",
        401,
        service.send("GET", "/watches", before, null, Map.of()).statusCode());
    assertEquals(401, login(service, "tove@example.org", "tove's old passphrase").statusCode());
    String after =
        json(login(service, "tove@example.org", "tove's brand new passphrase"), 200)
            .get("token")
            .asText();
    assertEquals(200, service.send("GET", "/watches", after, null, Map.of()).statusCode());
  }

  @Test
  public void anExpiredResetTokenIsRefused() throws Exception {
    service.account("ulla", "user", "ulla's old passphrase");
    json(post(service, "/auth/forgot-password", Map.of("email", "ulla@example.org")), 202);
    String token = mailbox.await("ulla@example.org", 1).token();
    keepSecret(token);
    Instant start = clock.instant();
    try {
      clock.set(start.plus(SelfService.RESET_LIFETIME).plus(Duration.ofSeconds(1)));
      json(
          post(
              service,
              "/auth/reset-password",
              Map.of("token", token, "password", "ulla's new passphrase")),
          400);
    } finally {
      clock.set(start);
    }
    assertEquals(200, login(service, "ulla@example.org", "ulla's old passphrase").statusCode());
  }

  @Test
  public void badRegistrationsAre400WithEveryIssue() throws Exception {
    JsonNode both =
        json(
            post(service, "/auth/register", Map.of("email", "not-an-address", "password", "x")),
            400);
    assertEquals(1, both.get("issues").size()); // the address first: the policy needs it
    JsonNode common =
        json(
            post(
                service,
                "/auth/register",
                Map.of("email", "vera@example.org", "password", "qwerty123")),
            400);
    assertTrue(
        common.toString(), common.get("issues").get(0).get("message").asText().contains("common"));
    JsonNode personal =
        json(
            post(
                service,
                "/auth/register",
                Map.of("email", "wilhelmina@example.org", "password", "Wilhelmina1!")),
            400);
    assertTrue(
        personal.toString(),
        personal.get("issues").get(0).get("message").asText().contains("e-mail"));
    JsonNode missing = json(service.send("POST", "/auth/register", null, "{}", Map.of()), 400);
    assertEquals(2, missing.get("issues").size());
    json(service.send("POST", "/auth/register", null, "[]", Map.of()), 400);
    json(service.send("POST", "/auth/forgot-password", null, "{\"email\": 7}", Map.of()), 400);
    json(service.send("POST", "/auth/reset-password", null, "{\"token\": \"x\"}", Map.of()), 400);
    assertEquals(0, mailbox.to("vera@example.org").size());
  }

  @Test
  public void theMailedRoutesWantPost() throws Exception {
    for (String path :
        List.of(
            "/auth/register",
            "/auth/verify-email",
            "/auth/verify-email/resend",
            "/auth/forgot-password",
            "/auth/reset-password")) {
      assertEquals(path, 405, service.send("GET", path, null, null, Map.of()).statusCode());
    }
    assertEquals(
        404, service.send("GET", "/auth/no-such-thing", null, null, Map.of()).statusCode());
  }
}
