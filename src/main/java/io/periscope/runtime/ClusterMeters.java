package io.periscope.runtime;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.periscope.metrics.Metrics;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.StreamSupport;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.sharding.typed.GetShardRegionState;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.cluster.typed.Cluster;

/**
 * The cluster as this node sees it: members by status ({@code up}, {@code joining}...), the
 * unreachable ones, and the entities live on this node by type (asked of the node's shard regions
 * before each scrape). Labels: a member status or an entity type; never an address or an id.
 */
final class ClusterMeters {
  static final List<MemberStatus> STATUSES =
      List.of(
          MemberStatus.joining(),
          MemberStatus.weaklyUp(),
          MemberStatus.up(),
          MemberStatus.leaving(),
          MemberStatus.exiting(),
          MemberStatus.down());

  static final Duration ASK_TIMEOUT = Duration.ofSeconds(2);

  private final Map<String, AtomicLong> live = new ConcurrentHashMap<>();

  private ClusterMeters(MeterRegistry registry) {}

  /** The cluster gauges of {@code system} and the live entities of {@code types}. */
  static void register(ActorSystem<?> system, List<EntityTypeKey<?>> types) {
    Metrics metrics = Metrics.get(system);
    MeterRegistry registry = metrics.registry();
    ClusterMeters meters = metrics.holder(ClusterMeters.class, ClusterMeters::new);
    Cluster cluster = Cluster.get(system);
    for (MemberStatus status : STATUSES) {
      Gauge.builder(
              "periscope.cluster.members", cluster, c -> count(c.state().getMembers(), status))
          .description("Members of the cluster as this node sees them, by status")
          .tag("status", status.toString().toLowerCase(java.util.Locale.ROOT))
          .register(registry);
    }
    Gauge.builder("periscope.cluster.unreachable", cluster, c -> c.state().getUnreachable().size())
        .description("Members this node cannot reach")
        .register(registry);
    for (EntityTypeKey<?> type : types) {
      Gauge.builder("periscope.entities.live", meters.value(type.name()), AtomicLong::get)
          .description("Entities live (in memory) on this node, by type")
          .tag("type", type.name())
          .register(registry);
    }
    ClusterSharding sharding = ClusterSharding.get(system);
    metrics.beforeScrape(() -> meters.refresh(system, sharding, types));
  }

  private CompletionStage<?> refresh(
      ActorSystem<?> system, ClusterSharding sharding, List<EntityTypeKey<?>> types) {
    return CompletableFuture.allOf(
        types.stream()
            .map(
                type ->
                    AskPattern
                        .<org.apache.pekko.cluster.sharding.typed.ClusterShardingQuery,
                            org.apache.pekko.cluster.sharding.ShardRegion.CurrentShardRegionState>
                            ask(
                                sharding.shardState(),
                                reply -> new GetShardRegionState(type, reply),
                                ASK_TIMEOUT,
                                system.scheduler())
                        .thenAccept(
                            state ->
                                value(type.name())
                                    .set(
                                        state.getShards().stream()
                                            .mapToLong(s -> s.getEntityIds().size())
                                            .sum()))
                        .toCompletableFuture())
            .toArray(CompletableFuture[]::new));
  }

  private AtomicLong value(String type) {
    return live.computeIfAbsent(type, t -> new AtomicLong());
  }

  private static long count(Iterable<Member> members, MemberStatus status) {
    return StreamSupport.stream(members.spliterator(), false)
        .filter(m -> m.status().equals(status))
        .count();
  }
}
