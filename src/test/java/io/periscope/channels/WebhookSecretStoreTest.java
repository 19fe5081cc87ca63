package io.periscope.channels;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.periscope.entity.Asks;
import io.periscope.keys.KeyCipher;
import io.periscope.testing.EntityTestKits;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJunitResource;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * The secret a webhook attempt is signed with: made and sealed at the first attempt to an endpoint,
 * only read at every later one; the account's own signing the endpoints without theirs.
 */
public class WebhookSecretStoreTest {
  @ClassRule
  public static final TestKitJunitResource testKit =
      new TestKitJunitResource(EntityTestKits.config());

  private static final String URL = "https://hooks.example.org/alert?token=abc";

  private final KeyCipher cipher = new KeyCipher("webhook-secret-store-test-secret-of-32-bytes");
  private final TestProbe<WebhookSecretEntity.Command> sent = testKit.createTestProbe();

  /** A store on a new owner's entity, whose commands {@link #sent} sees. */
  private WebhookSecretStore store(String owner) {
    ActorRef<WebhookSecretEntity.Command> entity =
        testKit.spawn(
            Behaviors.monitor(
                WebhookSecretEntity.Command.class, sent.ref(), WebhookSecretEntity.create(owner)));
    return new WebhookSecretStore(
        accountId -> entity,
        new Asks(testKit.system(), Duration.ofSeconds(10)),
        cipher,
        null,
        Clock.systemUTC());
  }

  private static String secret(WebhookSecretStore store, String owner) throws Exception {
    return store.secret(owner, URL).toCompletableFuture().get(10, TimeUnit.SECONDS).orElseThrow();
  }

  @Test
  public void anEndpointsSecretIsSealedAtItsFirstAttemptOnlyAndReadAfter() throws Exception {
    WebhookSecretStore store = store("alice");
    String first = secret(store, "alice");
    sent.expectMessageClass(WebhookSecretEntity.Get.class);
    sent.expectMessageClass(WebhookSecretEntity.Ensure.class);

    assertEquals("the endpoint keeps its secret", first, secret(store, "alice"));
    sent.expectMessageClass(WebhookSecretEntity.Get.class);
    sent.expectNoMessage(Duration.ofMillis(200));
    assertEquals(
        first,
        store
            .endpoint("alice", URL)
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS)
            .orElseThrow()
            .secret());
  }

  @Test
  public void theAccountsSecretSignsAnEndpointWithoutItsOwnAndNoneIsMade() throws Exception {
    WebhookSecretStore store = store("bob");
    WebhookSecretStore.Created account =
        store.create("bob").toCompletableFuture().get(10, TimeUnit.SECONDS);
    sent.expectMessageClass(WebhookSecretEntity.Replace.class);

    assertEquals(account.secret(), secret(store, "bob"));
    sent.expectMessageClass(WebhookSecretEntity.Get.class);
    sent.expectNoMessage(Duration.ofMillis(200));
    assertTrue(
        "no endpoint secret was made",
        store.status("bob").toCompletableFuture().get(10, TimeUnit.SECONDS).endpoints().isEmpty());
  }
}
