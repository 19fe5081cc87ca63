package io.periscope.testing;

import java.time.Duration;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.cluster.sharding.ShardRegion;
import org.apache.pekko.cluster.sharding.typed.ClusterShardingQuery;
import org.apache.pekko.cluster.sharding.typed.GetShardRegionState;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;

/** The entities of a type that run on one node, as its shard region reports them. */
public final class LiveEntities {
  private LiveEntities() {}

  /** The ids of the entities of {@code type} live on {@code node}. */
  public static Set<String> on(ActorSystem<?> node, EntityTypeKey<?> type) throws Exception {
    ShardRegion.CurrentShardRegionState state =
        AskPattern.<ClusterShardingQuery, ShardRegion.CurrentShardRegionState>ask(
                ClusterSharding.get(node).shardState(),
                replyTo -> new GetShardRegionState(type, replyTo),
                Duration.ofSeconds(5),
                node.scheduler())
            .toCompletableFuture()
            .get();
    return state.getShards().stream()
        .flatMap(s -> s.getEntityIds().stream())
        .collect(Collectors.toSet());
  }
}
