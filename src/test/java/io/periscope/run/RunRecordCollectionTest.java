package io.periscope.run;

import static org.junit.Assert.assertEquals;

import io.periscope.testing.EntityTestKits;
import io.periscope.watch.RunRecord;
import java.nio.charset.StandardCharsets;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJunitResource;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.Serializer;
import org.junit.ClassRule;
import org.junit.Test;

/** The run record's collection counts through the journal's Jackson binding, old and new. */
public class RunRecordCollectionTest {
  @ClassRule
  public static final TestKitJunitResource testKit =
      new TestKitJunitResource(EntityTestKits.config());

  @Test
  public void recoveredGoesThroughTheBindingAndOlderRecordsReadAsZero() {
    Serialization serialization = SerializationExtension.get(testKit.system());
    RunRecord.Collection now = new RunRecord.Collection(1, 2, 3, 4, 5);
    Serializer serializer = serialization.findSerializerFor(now);
    String manifest = org.apache.pekko.serialization.Serializers.manifestFor(serializer, now);
    byte[] bytes = serialization.serialize(now).get();
    assertEquals(now, serialization.deserialize(bytes, serializer.identifier(), manifest).get());

    byte[] before =
        "{\"attempted\":1,\"collected\":2,\"extracted\":3,\"failed\":4}"
            .getBytes(StandardCharsets.UTF_8);
    assertEquals(
        new RunRecord.Collection(1, 2, 3, 4, 0),
        serialization.deserialize(before, serializer.identifier(), manifest).get());
  }
}
