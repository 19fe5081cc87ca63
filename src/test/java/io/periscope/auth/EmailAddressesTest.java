package io.periscope.auth;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.periscope.account.Account;
import io.periscope.account.AccountEntity;
import io.periscope.entity.Asks;
import io.periscope.json.Json;
import io.periscope.runtime.Entities;
import io.periscope.runtime.ShardedEntities;
import io.periscope.testing.InProcessService;
import io.periscope.testing.TestJournals;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.Done;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Addresses are checked before anything is looked up, whatever a client sends, and each address's
 * entity has a digest for id, so nothing an address contains can reach a shard; addresses of
 * journals written when the entity was keyed by the address itself are still found.
 */
public class EmailAddressesTest {
  static InProcessService service;
  static Entities entities;
  static Asks asks;

  @BeforeClass
  public static void start() throws Exception {
    service = new InProcessService(TestJournals.h2());
    entities = new ShardedEntities(service.system); // the same shard regions as the service's
    asks = new Asks(service.system, Duration.ofSeconds(10));
  }

  @AfterClass
  public static void stop() throws Exception {
    service.close();
  }

  static HttpResponse<String> login(String email, String password) throws Exception {
    return service.call(
        "POST", "/auth/login", null, Json.text(Map.of("email", email, "password", password)));
  }

  @Test
  public void hostileAddressesAtLoginAre400AtOnceAndNothingRestarts() throws Exception {
    service.account("hanna", "user", "hanna's passphrase");
    List<String> hostile =
        List.of(
            "a|b",
            "a|b@",
            "not an address",
            "a\u0000b@example.org",
            "a\nb@example.org",
            "\"Mallory\" <m@example.org>",
            "m@example.org, n@example.org",
            "m@[127.0.0.1]",
            "<m@example.org>",
            "x".repeat(300) + "@example.org",
            "m@" + "d".repeat(250) + ".org",
            "m@example");
    long started = System.nanoTime();
    for (String email : hostile) {
      HttpResponse<String> r = login(email, "whatever-passphrase");
      assertEquals(email + ": " + r.body(), 400, r.statusCode());
      assertEquals("email", Json.MAPPER.readTree(r.body()).at("/issues/0/path/0").asText());
    }
    long perLogin = (System.nanoTime() - started) / 1_000_000 / hostile.size();
    assertTrue("a refused login takes " + perLogin + " ms on average", perLogin < 100);

    // An address with the persistence id's separator is an address (RFC 5322 allows it): unknown,
    // answered at once, and the e-mail shard is as well as before.
    long before = System.nanoTime();
    assertEquals(401, login("a|b@example.com", "whatever-passphrase").statusCode());
    assertTrue((System.nanoTime() - before) / 1_000_000 < 2000);
    assertEquals(200, login("hanna@example.org", "hanna's passphrase").statusCode());
  }

  @Test
  public void anAddressOfAnOldJournalIsFoundAndNeverGivenTwice() throws Exception {
    // What an earlier version wrote: the e-mail entity keyed by the address itself.
    String address = "olga@example.org";
    Boolean took =
        asks.<EmailEntity.Command, Boolean>ask(
                entities.email(address), reply -> new EmailEntity.Claim("olga", reply))
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
    assertTrue(took);
    asks.<AccountEntity.Command, Done>ask(
            entities.account("olga"),
            reply ->
                new AccountEntity.CreateAccount(
                    Account.made(
                        "olga",
                        address,
                        Role.USER,
                        Passwords.hash("olga's passphrase"),
                        Instant.now()),
                    reply))
        .toCompletableFuture()
        .get(10, TimeUnit.SECONDS);

    String root = service.signedIn("root-olga", "admin");
    HttpResponse<String> second =
        service.call(
            "POST",
            "/admin/users",
            root,
            Json.text(
                Map.of(
                    "id",
                    "olga2",
                    "email",
                    "Olga@Example.org",
                    "role",
                    "user",
                    "password",
                    "another passphrase")));
    assertEquals("the address is still taken: " + second.body(), 409, second.statusCode());
    assertEquals(200, login("OLGA@example.org", "olga's passphrase").statusCode());
    assertEquals(
        "the holding moved to the digest entity",
        "olga",
        asks.<EmailEntity.Command, String>ask(
                entities.email(EmailIndex.entityId(address)), EmailEntity.Lookup::new)
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS));
  }
}
