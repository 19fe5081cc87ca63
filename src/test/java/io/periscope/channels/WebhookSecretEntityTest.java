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
}
