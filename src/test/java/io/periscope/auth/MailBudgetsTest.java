package io.periscope.auth;

import static io.periscope.testing.InProcessService.json;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import io.periscope.account.Account;
import io.periscope.account.UnverifiedAccounts;
import io.periscope.testing.InProcessService;
import io.periscope.testing.Mailbox;
import io.periscope.testing.MutableClock;
import io.periscope.testing.SignUps;
import io.periscope.testing.TestJournals;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The mail budgets against a real SMTP server (GreenMail): an account's confirmation mails and
 * address changes a day, the instance's mails an hour (with the operator's alert), each reached
 * answering 429 with JSON that names it, and no more mail sent; and unverified accounts purged.
 */
public class MailBudgetsTest {
  static Mailbox mailbox;
  static MutableClock clock;
  static InProcessService service;

  @BeforeClass
  public static void start() throws Exception {
    mailbox = new Mailbox();
    clock = new MutableClock(Instant.now());
    service =
        new InProcessService(
            ConfigFactory.parseMap(
                    Map.of(
                        "periscope.mail.per-hour", 7,
                        "periscope.mail.confirmations-per-account-day", 3,
                        "periscope.mail.address-changes-per-account-day", 4,
                        "periscope.notify.admin-channels", "email:ops@example.org"))
                .withFallback(SignUps.withMail(mailbox, TestJournals.h2())),
            clock);
  }

  @AfterClass
  public static void stop() throws Exception {
    service.close();
    mailbox.close();
  }

  static HttpResponse<String> ask(String token, String address) throws Exception {
    return service.call(
        "POST", "/channels/email-addresses", token, "{\"address\": \"" + address + "\"}");
  }

  static void spent(HttpResponse<String> answer, String quota, int limit) throws Exception {
    JsonNode body = json(answer, 429);
    assertEquals(body.toString(), quota, body.get("quota").asText());
    assertEquals(body.toString(), limit, body.get("limit").asInt());
    assertTrue(body.toString(), body.get("error").isTextual());
  }

  @Test
  public void eachBudgetReachedAnswers429AndSendsNoMore() throws Exception {
    // an unverified account, for the purge at the end (1 mail of the instance's 7)
    assertEquals(
        202,
        service
            .call(
                "POST",
                "/auth/register",
                null,
                "{\"email\": \"stale@example.org\", \"password\": \"a long enough pass phrase 1\"}")
            .statusCode());
    mailbox.await("stale@example.org", 1);

    // the account's confirmation mails of the day: 3 (4 of 7)
    String dave = service.signedIn("dave", "user");
    for (int i = 1; i <= 3; i++) {
      assertEquals(202, ask(dave, "d" + i + "@example.org").statusCode());
      mailbox.await("d" + i + "@example.org", 1);
    }
    spent(ask(dave, "d4@example.org"), "confirmationMailsPerDay", 3);

    // its address changes of the day: 3 added, 1 removed, then no more
    assertEquals(
        204,
        service
            .call("DELETE", "/channels/email-addresses/d1@example.org", dave, null)
            .statusCode());
    spent(
        service.call("DELETE", "/channels/email-addresses/d2@example.org", dave, null),
        "addressChangesPerDay",
        4);
    assertEquals(
        List.of("d2@example.org", "d3@example.org"),
        json(service.call("GET", "/channels/email-addresses", dave, null), 200)
            .get("addresses")
            .findValuesAsText("address"));

    // the instance's mails of the hour: 7, then 429 for anyone, and the operator hears of it once
    String erin = service.signedIn("erin", "user");
    for (int i = 1; i <= 3; i++) {
      assertEquals(202, ask(erin, "e" + i + "@example.org").statusCode());
      mailbox.await("e" + i + "@example.org", 1);
    }
    String frank = service.signedIn("frank", "user");
    spent(ask(frank, "f1@example.org"), "mailsPerHour", 7);
    spent(
        service.call(
            "POST",
            "/auth/register",
            null,
            "{\"email\": \"late@example.org\", \"password\": \"a long enough pass phrase 2\"}"),
        "mailsPerHour",
        7);
    spent(
        service.call("POST", "/auth/forgot-password", null, "{\"email\": \"dave@example.org\"}"),
        "mailsPerHour",
        7);
    Mailbox.Received alert = mailbox.await("ops@example.org", 1);
    assertTrue(alert.text(), alert.text().contains("mail-budget-reached"));

    Thread.sleep(500);
    for (String nobody :
        List.of("d4@example.org", "f1@example.org", "late@example.org", "dave@example.org"))
      assertEquals(nobody + " got no mail", List.of(), mailbox.to(nobody));
    assertEquals("one alert an hour", 1, mailbox.to("ops@example.org").size());

    // a week and a day later, the account whose address was never proven goes; the others stay
    clock.set(clock.instant().plus(Duration.ofDays(8)));
    List<String> purged =
        new UnverifiedAccounts(
                service.app.accounts(), service.app.accountAdmin(), Duration.ofDays(7), clock)
            .purge()
            .toCompletableFuture()
            .get(30, TimeUnit.SECONDS);
    assertEquals(1, purged.size());
    List<Account.View> left =
        service.app.accounts().list().toCompletableFuture().get(30, TimeUnit.SECONDS);
    assertFalse(left.stream().anyMatch(a -> a.email().equals("stale@example.org")));
    assertEquals(3, left.size());
  }
}
