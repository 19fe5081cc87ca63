package io.periscope.account;

import static io.periscope.testing.InProcessService.json;
import static io.periscope.testing.SignUps.login;
import static io.periscope.testing.SignUps.post;
import static org.junit.Assert.assertEquals;

import com.typesafe.config.Config;
import io.periscope.auth.EmailEntity;
import io.periscope.testing.InProcessService;
import io.periscope.testing.Mailbox;
import io.periscope.testing.MutableClock;
import io.periscope.testing.NeedsPostgres;
import io.periscope.testing.SignUps;
import io.periscope.testing.TestJournals;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * Registration and recovery on the PostgreSQL journal, across a restart of the service: the
 * verification, the spent tokens and the ended sign-ins are in the journal, not in a process.
 */
@Category(NeedsPostgres.class)
public class RegistrationPostgresTest {
  static Mailbox mailbox;

  @BeforeClass
  public static void start() {
    mailbox = new Mailbox();
  }

  @AfterClass
  public static void stop() {
    mailbox.close();
  }

  @Test
  public void verifiedAccountsResetPasswordsAndSpentTokensSurviveARestart() throws Exception {
    Config config = SignUps.withMail(mailbox, TestJournals.postgres());
    String email = "pg-" + UUID.randomUUID().toString().substring(0, 8) + "@example.org";
    String oldToken;
    String verifyToken;
    String resetToken;
    MutableClock clock = new MutableClock(Instant.now());
    try (InProcessService first = new InProcessService(config, clock)) {
      SignUps.registered(first, mailbox, email, "a postgres passphrase");
      verifyToken = mailbox.await(email, 1).token();
      oldToken = json(login(first, email, "a postgres passphrase"), 200).get("token").asText();
      clock.set(clock.instant().plus(EmailEntity.MAIL_COOLDOWN)); // one mail a minute per address
      json(post(first, "/auth/forgot-password", Map.of("email", email)), 202);
      resetToken = mailbox.await(email, 2).token();
      json(
          post(
              first,
              "/auth/reset-password",
              Map.of("token", resetToken, "password", "another postgres phrase")),
          200);
    }
    try (InProcessService second = new InProcessService(config)) {
      assertEquals(401, second.send("GET", "/watches", oldToken, null, Map.of()).statusCode());
      assertEquals(401, login(second, email, "a postgres passphrase").statusCode());
      String fresh =
          json(login(second, email, "another postgres phrase"), 200).get("token").asText();
      assertEquals(200, second.send("GET", "/watches", fresh, null, Map.of()).statusCode());
      json(post(second, "/auth/verify-email", Map.of("token", verifyToken)), 400);
      json(
          post(
              second,
              "/auth/reset-password",
              Map.of("token", resetToken, "password", "a third phrase to try")),
          400);
    }
  }
}
