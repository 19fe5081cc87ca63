package io.periscope.testing;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.nio.charset.StandardCharsets;
import java.util.function.UnaryOperator;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.SerializerWithStringManifest;

/**
 * The configuration for EventSourcedBehaviorTestKit tests: the in-memory journal of the persistence
 * testkit, with the service's own serialization bindings, so every command, event and state really
 * round-trips through Jackson as it would through the journal and the cluster.
 */
public final class EntityTestKits {
  private EntityTestKits() {}

  public static Config config() {
    return ConfigFactory.parseString(
            "pekko.actor.provider = local\npekko.coordinated-shutdown.exit-jvm = off")
        .withFallback(EventSourcedBehaviorTestKit.config())
        .withFallback(ConfigFactory.parseResources("periscope.conf"))
        .resolve();
  }

  /**
   * A Jackson-bound message as the journal keeps it — its serializer's manifest and JSON — read
   * back after {@code edit} changed the JSON (to stand for what an older version wrote).
   */
  public static Object roundTrip(ActorSystem<?> system, Object message, UnaryOperator<String> edit)
      throws Exception {
    var serializer =
        (SerializerWithStringManifest)
            SerializationExtension.get(system).findSerializerFor(message);
    String json = new String(serializer.toBinary(message), StandardCharsets.UTF_8);
    return serializer.fromBinary(
        edit.apply(json).getBytes(StandardCharsets.UTF_8), serializer.manifest(message));
  }
}
