package io.periscope.testing;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;

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
}
