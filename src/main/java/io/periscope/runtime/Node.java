package io.periscope.runtime;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;
import io.periscope.persistence.JournalSchema;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/** Starting the actor system: as a cluster node for the service, or as a local process for the command line. */
public final class Node {
  private Node() {}

  /**
   * A cluster node with the journal schema in place. With no seed nodes configured it joins itself, the
   * embedded single-node default, and this returns once the node is Up.
   */
  public static ActorSystem<Void> startClusterNode(Config config, Duration patience) throws InterruptedException {
    ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), "periscope", config);
    JournalSchema.create(system);
    Cluster cluster = Cluster.get(system);
    if (config.getList("pekko.cluster.seed-nodes").isEmpty()
        && !config.hasPath("pekko.management.cluster.bootstrap.contact-point-discovery.service-name")) {
      cluster.manager().tell(Join.create(cluster.selfMember().address()));
    }
    Instant deadline = Instant.now().plus(patience);
    while (cluster.selfMember().status() != MemberStatus.up() && Instant.now().isBefore(deadline)) {
      Thread.sleep(50);
    }
    return system;
  }

  /** A process without cluster or remoting, for the command line: entities run as plain local actors. */
  public static ActorSystem<Void> startLocal(Config config) {
    Config local = ConfigFactory.parseMap(Map.of(
        "pekko.actor.provider", "local",
        "pekko.coordinated-shutdown.exit-jvm", "off",
        "pekko.loglevel", "WARNING")).withFallback(config);
    ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), "periscope-cli", local);
    JournalSchema.create(system);
    return system;
  }
}
