package io.periscope.testing;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.nio.file.Path;
import java.util.Map;

/** A node whose schedules a test can watch fire in seconds rather than minutes. */
public final class FastSchedules {
  private FastSchedules() {}

  /**
   * A node on a file journal under {@code dataDir} whose scheduler and wake-up index follow within
   * 100 ms and whose entities passivate after a second, with {@code more} settings.
   */
  public static Config config(Path dataDir, Map<String, Object> more) {
    return ConfigFactory.parseMap(more)
        .withFallback(
            ConfigFactory.parseMap(
                Map.of(
                    "periscope.scheduler.tick", "100ms",
                    "jdbc-read-journal.refresh-interval", "100ms",
                    "periscope.scheduler.index-group-within", "100ms",
                    "periscope.quotas.min-interval", "1m", // schedules of every minute
                    "pekko.cluster.sharding.passivation.default-idle-strategy.idle-entity.timeout",
                        "1s",
                    "periscope.fetch.allow-private-networks", true)))
        .withFallback(TestJournals.embedded(dataDir))
        .resolve();
  }
}
