package io.periscope.runtime;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.periscope.config.DataDir;
import io.periscope.config.Profiles;
import io.periscope.config.Settings;
import io.periscope.persistence.JournalSchema;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.AddressFromURIString;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;
import org.apache.pekko.management.cluster.bootstrap.ClusterBootstrap;
import org.apache.pekko.management.javadsl.PekkoManagement;

/**
 * Starting the actor system: as a cluster node for the service, or as a local process for the
 * command line.
 */
public final class Node {
  private Node() {}

  /**
   * Whether this configuration joins other nodes (seed nodes or cluster bootstrap) rather than
   * forming a cluster of its own: then its journal and its token secret must be the ones the other
   * nodes use.
   */
  public static boolean joinsOthers(Config config) {
    return !config.getList("pekko.cluster.seed-nodes").isEmpty()
        || config.getBoolean("periscope.cluster.bootstrap");
  }

  static final String JOURNAL_POLL = "jdbc-read-journal.refresh-interval";
  static final String INDEX_GROUP_WITHIN = "periscope.scheduler.index-group-within";
  static final String JOURNAL_SEQUENCE_POLL =
      "jdbc-read-journal.journal-sequence-retrieval.query-delay";

  /**
   * The periodic work of Pekko's cluster that a node joining no one does every second or two with
   * no peer to do it with: gossip (the membership's and distributed data's: the sharding
   * coordinators' state and the receptionist's), the reaper of unreachable members, the
   * receptionist's pruning of removed members' entries, and distributed data's notice to local
   * subscribers (none of ours subscribes). They run every 10 s instead (docs/performance.md, "The
   * idle node"). So do the heartbeat and reaper of remote death watch (it watches actors of nodes
   * outside the cluster, and a node alone watches none) and the heartbeat between data centers
   * (there is one). The shard coordinators' rebalance runs every 10 minutes instead of 10 s: it
   * moves shards between regions, and a node alone has one region of each entity type. The failure
   * detector's heartbeat stays (a node that others join by its address would otherwise look dead to
   * them), as do the leader's actions (they move the starting node to Up) and sharding's retries: a
   * region registers with its coordinator again after an eighth of the retry interval when the
   * coordinator had not started yet, as at every start, and the key pools are seeded through it
   * before the node serves.
   *
   * <p>The scheduler's tick is 100 ms instead of 10: its thread wakes at every tick whether or not
   * a timer is due, and at 50 ms it was still a quarter of an idle node's CPU. A timer fires at the
   * first tick after it is due, never before, so it is at most 100 ms later (measured in
   * docs/performance.md, "The idle node"); the shortest of ours, a delivery's backoff (a random
   * half to all of a first backoff of 100 ms or more), fires within 150 ms instead of 100, and a
   * zero delay runs at once, not at a tick. The cluster's own tick goes to 100 ms with it: when the
   * system's tick is the coarser, the cluster starts a second scheduler at its own (33 ms). A
   * cluster keeps Pekko's ticks, whose failure detector and gossip run on them.
   *
   * <p>The read journal polls for the wake-up projection every 3 s instead of every second, and
   * asks for the journal's highest position (the sequence query that bounds each poll) as often:
   * each poll is two queries and a stream materialized, a third of an idle node's CPU with what the
   * JIT compiles for them. The projection gathers what a poll read for 1 s instead of 100 ms before
   * it writes the group: its timer fires that often whether or not an event came. What they cost is
   * the time a schedule's event takes to reach the wake-up index, about 7 s at most instead of 2:
   * only a watch whose next run falls within those seconds of its creation or change runs that much
   * later, once; the watch's own timers and the poller's resends do not wait for it. A setting
   * given explicitly (a test's faster schedules) stays.
   */
  static final Map<String, Object> ONE_NODE =
      Map.ofEntries(
          Map.entry("pekko.cluster.gossip-interval", "10s"),
          Map.entry("pekko.cluster.unreachable-nodes-reaper-interval", "10s"),
          Map.entry("pekko.cluster.typed.receptionist.pruning-interval", "10s"),
          Map.entry("pekko.cluster.distributed-data.gossip-interval", "10s"),
          Map.entry("pekko.cluster.distributed-data.notify-subscribers-interval", "10s"),
          Map.entry("pekko.cluster.sharding.distributed-data.gossip-interval", "10s"),
          Map.entry("pekko.cluster.sharding.distributed-data.notify-subscribers-interval", "10s"),
          Map.entry("pekko.cluster.typed.receptionist.distributed-data.gossip-interval", "10s"),
          Map.entry(
              "pekko.cluster.typed.receptionist.distributed-data.notify-subscribers-interval",
              "10s"),
          Map.entry("pekko.remote.watch-failure-detector.heartbeat-interval", "10s"),
          Map.entry("pekko.remote.watch-failure-detector.unreachable-nodes-reaper-interval", "10s"),
          Map.entry("pekko.cluster.multi-data-center.failure-detector.heartbeat-interval", "10s"),
          Map.entry("pekko.cluster.sharding.rebalance-interval", "10m"),
          Map.entry("pekko.cluster.sharded-daemon-process.sharding.rebalance-interval", "10m"),
          Map.entry("pekko.scheduler.tick-duration", "100ms"),
          Map.entry("pekko.cluster.scheduler.tick-duration", "100ms"),
          Map.entry(JOURNAL_POLL, "3s"),
          Map.entry(INDEX_GROUP_WITHIN, "1s"));

  /**
   * How often a node alone's shard regions, but the key pools', retry: every 10 s instead of
   * Pekko's 2. Each region's retry timer (registering with its coordinator, asking where the shards
   * of buffered messages live) runs whether or not there is anything to retry, and the 20 regions'
   * were half the timers of an idle node and as many wakes of its dispatchers; with its coordinator
   * on the same node a registered region has nothing to retry. At start a region registers before
   * its coordinator is up and again after an eighth of the interval (1.25 s instead of 250 ms):
   * start-up waits on the key pools' region, which keeps Pekko's interval, and a message to another
   * region before it registers waits in its buffer, as at any start. A cluster, or an interval
   * given explicitly, keeps Pekko's for every region.
   */
  static final Duration REGION_RETRY = Duration.ofSeconds(10);

  /** The retry interval of {@code type}'s region on a node of {@code config}; empty for Pekko's. */
  static Optional<Duration> regionRetry(Config config, EntityTypes.EntityType<?> type) {
    if (joinsOthers(config)
        || type == EntityTypes.KEY_POOL
        || !aDefault(config, "pekko.cluster.sharding.retry-interval")) return Optional.empty();
    return Optional.of(REGION_RETRY);
  }

  /**
   * {@code config} with {@link #ONE_NODE} over the defaults (Pekko's and conf/periscope.conf's)
   * when the node joins no one, the journal's sequence query as often as its poll.
   */
  static Config alone(Config config) {
    if (joinsOthers(config)) return config;
    Map<String, Object> lowered = new HashMap<>();
    ONE_NODE.forEach(
        (key, value) -> {
          if (aDefault(config, key)) lowered.put(key, value);
        });
    if (aDefault(config, JOURNAL_SEQUENCE_POLL)) {
      lowered.put(
          JOURNAL_SEQUENCE_POLL,
          lowered.getOrDefault(JOURNAL_POLL, config.getValue(JOURNAL_POLL).unwrapped()));
    }
    return ConfigFactory.parseMap(lowered).withFallback(config);
  }

  private static boolean aDefault(Config config, String key) {
    String resource = config.getValue(key).origin().resource();
    return resource != null
        && (resource.endsWith("reference.conf") || resource.equals("periscope.conf"));
  }

  /**
   * Whether this node may form a new cluster by itself: Pekko's first seed node (its own address
   * heads the seed nodes) joins itself when no other seed node answers within {@code
   * seed-node-timeout}; under cluster bootstrap, the node of the lowest address forms one when no
   * contact point reports a cluster.
   */
  public static boolean mayFormCluster(Config config) {
    if (config.getBoolean("periscope.cluster.bootstrap")) return true;
    List<String> seeds = config.getStringList("pekko.cluster.seed-nodes");
    return !seeds.isEmpty() && AddressFromURIString.parse(seeds.get(0)).equals(self(config));
  }

  /**
   * The configuration of a node that joins the running cluster and never forms one of its own,
   * however long its peers take to answer: without itself among the seed nodes (refused when no
   * other is listed), or with bootstrap's new-cluster formation off.
   */
  public static Config joiningOthersOnly(Config config) {
    if (config.getBoolean("periscope.cluster.bootstrap")) {
      return ConfigFactory.parseMap(
              Map.of("pekko.management.cluster.bootstrap.new-cluster-enabled", false))
          .withFallback(config);
    }
    Address self = self(config);
    List<String> others =
        config.getStringList("pekko.cluster.seed-nodes").stream()
            .filter(seed -> !AddressFromURIString.parse(seed).equals(self))
            .toList();
    if (others.isEmpty()) {
      throw new IllegalStateException(
          "a cluster runs on this journal, and no seed node but this one is listed to join it by"
              + " (SEED_NODES)");
    }
    return ConfigFactory.parseMap(Map.of("pekko.cluster.seed-nodes", others)).withFallback(config);
  }

  private static Address self(Config config) {
    return new Address(
        "pekko",
        Profiles.SYSTEM_NAME,
        config.getString("pekko.remote.artery.canonical.hostname"),
        config.getInt("pekko.remote.artery.canonical.port"));
  }

  /**
   * Nodes of one cluster share the journal, the token secret and the encryption keys: a node that
   * joins others with its own H2 file or secrets of its own would split the data, refuse every
   * other node's tokens or fail to read their stored keys, so it does not start.
   */
  public static void requireSharedState(Config config, Settings settings) {
    if (!joinsOthers(config)) return;
    if (!settings.database().configured()) {
      throw new IllegalStateException(
          "a cluster node needs DATABASE_URL: the nodes share one PostgreSQL journal");
    }
    if (settings.jwtSecret().isBlank()) {
      throw new IllegalStateException(
          "a cluster node needs AUTH_JWT_SECRET: every node signs and verifies tokens "
              + "with the same secret");
    }
    if (config.getString("periscope.encryption.keys").isBlank()) {
      throw new IllegalStateException(
          "a cluster node needs ENCRYPTION_KEY: every node reads the keys the others stored");
    }
  }

  /**
   * A cluster node with the journal schema in place, returned once it is Up. Pekko Management
   * starts first when the profile turns it on (cluster bootstrap probes it). A node that joins no
   * one joins itself, the embedded single-node default; one that cannot join within {@code
   * patience} is stopped and this fails.
   */
  public static ActorSystem<Void> startClusterNode(Config config, Duration patience)
      throws Exception {
    ActorSystem<Void> system =
        ActorSystem.create(Behaviors.empty(), Profiles.SYSTEM_NAME, alone(config));
    try {
      JournalSchema.create(system);
      DataDir.restrict(dataDir(config));
      if (config.getBoolean("periscope.management.enabled")) {
        PekkoManagement.get(Adapter.toClassic(system))
            .start()
            .toCompletableFuture()
            .get(30, TimeUnit.SECONDS);
      }
      Cluster cluster = Cluster.get(system);
      if (config.getBoolean("periscope.cluster.bootstrap")) {
        ClusterBootstrap.get(Adapter.toClassic(system)).start();
      } else if (!joinsOthers(config)) {
        cluster.manager().tell(Join.create(cluster.selfMember().address()));
      } // else Pekko joins the configured seed nodes by itself
      CompletableFuture<Void> up = new CompletableFuture<>();
      org.apache.pekko.cluster.Cluster.get(Adapter.toClassic(system))
          .registerOnMemberUp(() -> up.complete(null));
      system
          .getWhenTerminated()
          .thenRun(
              () ->
                  up.completeExceptionally(
                      new IllegalStateException("the node stopped before it joined the cluster")));
      up.get(patience.toMillis(), TimeUnit.MILLISECONDS);
      return system;
    } catch (TimeoutException e) {
      system.terminate();
      throw new IllegalStateException(
          "the node did not join the cluster within " + patience.toSeconds() + " s");
    } catch (ExecutionException e) {
      system.terminate();
      throw (Exception) e.getCause();
    } catch (Exception e) {
      system.terminate();
      throw e;
    }
  }

  /**
   * A process without cluster or remoting, for the command line: entities run as plain local
   * actors.
   */
  public static ActorSystem<Void> startLocal(Config config) {
    Config local =
        ConfigFactory.parseMap(
                Map.of(
                    "pekko.actor.provider", "local",
                    "pekko.coordinated-shutdown.exit-jvm", "off",
                    "pekko.loglevel", "WARNING"))
            .withFallback(config);
    ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), "periscope-cli", local);
    JournalSchema.create(system);
    try {
      DataDir.restrict(dataDir(config));
    } catch (java.io.IOException e) {
      system.terminate();
      throw new java.io.UncheckedIOException(e);
    }
    return system;
  }

  private static java.nio.file.Path dataDir(Config config) throws java.io.IOException {
    java.nio.file.Path dir = java.nio.file.Path.of(config.getString("periscope.data-dir-absolute"));
    DataDir.create(dir);
    return dir;
  }
}
