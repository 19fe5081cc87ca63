package io.periscope.entity;

import static org.junit.Assert.assertTrue;

import io.periscope.channels.WebhookSecretEntity;
import io.periscope.testing.EntityTestKits;
import java.time.Duration;
import java.time.Instant;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJunitResource;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.eventstream.EventStream;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.typed.PublishedEvent;
import org.junit.ClassRule;
import org.junit.Test;

/** An entity's events go to its journal and nowhere else: none is published on the event stream. */
public class EventPublishingTest {
  @ClassRule
  public static final TestKitJunitResource testKit =
      new TestKitJunitResource(EntityTestKits.config());

  @Test
  public void anEventWrittenIsNotPublished() {
    TestProbe<PublishedEvent> published = testKit.createTestProbe();
    testKit
        .system()
        .eventStream()
        .tell(new EventStream.Subscribe<>(PublishedEvent.class, published.ref()));
    ActorRef<WebhookSecretEntity.Command> entity =
        testKit.spawn(WebhookSecretEntity.create("carol"));
    TestProbe<StatusReply<WebhookSecretEntity.State>> replaced = testKit.createTestProbe();
    entity.tell(new WebhookSecretEntity.Replace("v2:abcd:sealed", Instant.EPOCH, replaced.ref()));
    assertTrue("written", replaced.receiveMessage(Duration.ofSeconds(10)).isSuccess());
    published.expectNoMessage(Duration.ofMillis(300));
  }
}
