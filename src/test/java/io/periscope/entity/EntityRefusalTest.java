package io.periscope.entity;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.periscope.testing.EntityTestKits;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJunitResource;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.Serializers;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * A refusal keeps its code where it crosses the cluster: an entity's error reply, serialized as
 * remoting does and read back, is the same refusal.
 */
public class EntityRefusalTest {
  @ClassRule
  public static final TestKitJunitResource testKit =
      new TestKitJunitResource(EntityTestKits.config());

  @Test
  public void anErrorReplyKeepsItsCodeAndMessageOverTheWire() {
    StatusReply<Object> sent = EntityRefusal.reply(EntityRefusal.Code.NO_SUCH_RUN, "run not found");
    Serialization serialization = SerializationExtension.get(testKit.system());
    var serializer = serialization.findSerializerFor(sent);
    byte[] bytes = serializer.toBinary(sent);
    StatusReply<?> received =
        (StatusReply<?>)
            serialization
                .deserialize(
                    bytes, serializer.identifier(), Serializers.manifestFor(serializer, sent))
                .get();

    assertTrue(received.isError());
    assertEquals(sent.getError(), received.getError());
    EntityRefusal refusal = (EntityRefusal) received.getError();
    assertEquals(EntityRefusal.Code.NO_SUCH_RUN, refusal.code());
    assertEquals("run not found", refusal.getMessage());
    assertTrue(EntityRefusal.is(refusal, EntityRefusal.Code.NO_SUCH_RUN));
  }

  @Test
  public void aRefusalInWordsAloneHasNoCodeToActOn() {
    EntityRefusal refusal = new EntityRefusal("no such watch");
    assertEquals(EntityRefusal.Code.REFUSED, refusal.code());
    assertTrue(!EntityRefusal.is(refusal, EntityRefusal.Code.NO_SUCH_RUN));
  }
}
