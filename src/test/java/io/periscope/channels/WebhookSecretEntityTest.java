package io.periscope.channels;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.periscope.testing.EntityTestKits;
import java.time.Instant;
import java.util.List;
import org.apache.pekko.Done;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJunitResource;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import org.junit.ClassRule;
import org.junit.Test;

/** An owner's webhook secret: kept sealed across restarts, replaced on rotation, removable. */
public class WebhookSecretEntityTest {
  @ClassRule
  public static final TestKitJunitResource testKit =
      new TestKitJunitResource(EntityTestKits.config());

  private static final Instant MADE = Instant.parse("2026-11-25T18:00:00Z");

  private final EventSourcedBehaviorTestKit<
          WebhookSecretEntity.Command, WebhookSecretEntity.Event, WebhookSecretEntity.State>
      entity =
          EventSourcedBehaviorTestKit.create(testKit.system(), WebhookSecretEntity.create("alice"));

  private WebhookSecretEntity.State get() {
    return entity
        .<StatusReply<WebhookSecretEntity.State>>runCommand(WebhookSecretEntity.Get::new)
        .reply()
        .getValue();
  }

  @Test
  public void aSecretIsKeptAcrossRestartsReplacedByANewOneAndRemoved() {
    assertFalse(get().exists());
    var made =
        entity.<StatusReply<WebhookSecretEntity.State>>runCommand(
            r -> new WebhookSecretEntity.Replace("v2:abcd:sealed-1", MADE, r));
    assertEquals(
        List.of(new WebhookSecretEntity.SecretReplaced("v2:abcd:sealed-1", MADE)), made.events());

    entity.restart();
    assertEquals(new WebhookSecretEntity.State("v2:abcd:sealed-1", MADE), get());

    entity.<StatusReply<WebhookSecretEntity.State>>runCommand(
        r -> new WebhookSecretEntity.Replace("v2:abcd:sealed-2", MADE.plusSeconds(60), r));
    entity.restart();
    assertEquals("v2:abcd:sealed-2", get().ciphertext());

    var resealed =
        entity.<StatusReply<Done>>runCommand(
            r -> new WebhookSecretEntity.Reseal("v2:abcd:sealed-2", "v2:ef01:sealed-2", r));
    assertEquals(
        List.of(new WebhookSecretEntity.SecretResealed("v2:ef01:sealed-2")), resealed.events());
    assertTrue(
        "a reseal of a secret replaced meanwhile changes nothing",
        entity
            .<StatusReply<Done>>runCommand(
                r -> new WebhookSecretEntity.Reseal("v2:abcd:sealed-1", "v2:ef01:other", r))
            .events()
            .isEmpty());
    entity.restart();
    assertEquals(new WebhookSecretEntity.State("v2:ef01:sealed-2", MADE.plusSeconds(60)), get());

    var removed = entity.<StatusReply<Done>>runCommand(WebhookSecretEntity.Remove::new);
    assertTrue(removed.reply().isSuccess());
    entity.restart();
    assertFalse(get().exists());
    assertTrue(
        entity.<StatusReply<Done>>runCommand(WebhookSecretEntity.Remove::new).reply().isError());
  }

  private WebhookSecretEntity.EndpointSecret ensure(String endpoint, String ciphertext) {
    return entity
        .<StatusReply<WebhookSecretEntity.EndpointSecret>>runCommand(
            r ->
                new WebhookSecretEntity.Ensure(
                    endpoint, "https://hooks.example.org/" + endpoint, ciphertext, MADE, r))
        .reply()
        .getValue();
  }

  @Test
  public void eachEndpointHasItsOwnSecretMadeOnceRotatedAndResealed() {
    WebhookSecretEntity.EndpointSecret first = ensure("e1", "v2:abcd:e1-first");
    assertEquals("v2:abcd:e1-first", first.ciphertext());
    assertTrue(first.own());
    assertEquals("made once", first, ensure("e1", "v2:abcd:e1-other"));
    assertEquals("v2:abcd:e2", ensure("e2", "v2:abcd:e2").ciphertext());

    entity.<StatusReply<WebhookSecretEntity.EndpointSecret>>runCommand(
        r ->
            new WebhookSecretEntity.ReplaceEndpoint(
                "e1", "https://hooks.example.org/e1", "v2:abcd:e1-rotated", MADE, r));
    entity.<StatusReply<Done>>runCommand(
        r -> new WebhookSecretEntity.ResealEndpoint("e1", "v2:abcd:e1-rotated", "v2:ef01:e1", r));
    assertTrue(
        "a reseal of a secret rotated meanwhile changes nothing",
        entity
            .<StatusReply<Done>>runCommand(
                r -> new WebhookSecretEntity.ResealEndpoint("e2", "v2:abcd:stale", "v2:ef01:x", r))
            .events()
            .isEmpty());
    entity.restart();
    assertEquals("v2:ef01:e1", ensure("e1", "v2:abcd:unused").ciphertext());
    assertEquals("v2:abcd:e2", get().endpoints().get("e2").ciphertext());
    assertFalse("no account secret", get().exists());
  }

  @Test
  public void theAccountsSecretSignsTheEndpointsWithoutTheirOwn() {
    entity.<StatusReply<WebhookSecretEntity.State>>runCommand(
        r -> new WebhookSecretEntity.Replace("v2:abcd:account", MADE, r));
    var signing =
        entity.<StatusReply<WebhookSecretEntity.EndpointSecret>>runCommand(
            r -> new WebhookSecretEntity.Ensure("e1", "https://x.org/", "v2:abcd:new", MADE, r));
    assertTrue("nothing made", signing.events().isEmpty());
    assertEquals("v2:abcd:account", signing.reply().getValue().ciphertext());
    assertFalse(signing.reply().getValue().own());
  }
}
