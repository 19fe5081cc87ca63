package io.periscope.runtime;

import io.periscope.backtest.BacktestEntity;
import io.periscope.entity.EntityIds;
import io.periscope.run.RunAllWatches;
import io.periscope.watch.RunPipeline;
import java.time.Clock;
import java.time.Duration;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.cluster.sharding.typed.ClusterShardingSettings;
import org.apache.pekko.cluster.sharding.typed.ShardingEnvelope;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.Entity;

/**
 * Entities spread over the cluster by Pekko Cluster Sharding: one live instance of each id,
 * anywhere.
 */
public final class ShardedEntities implements Entities {
  private final ActorSystem<?> system;
  private final ClusterSharding sharding;

  /** Addresses the entities of {@code system}, which a node's {@link #start} registers. */
  public ShardedEntities(ActorSystem<?> system) {
    this.system = system;
    this.sharding = ClusterSharding.get(system);
  }

  @Override
  public void start(
      RunPipeline pipeline, RunAllWatches runAll, BacktestEntity.Runner backtests, Clock clock) {
    EntityTypes.Parts parts = new EntityTypes.Parts(pipeline, runAll, backtests, clock, this);
    for (EntityTypes.EntityType<?> type : EntityTypes.ALL) init(type, parts);
    ClusterMeters.register(system, EntityTypes.keys());
  }

  private <C> void init(EntityTypes.EntityType<C> type, EntityTypes.Parts parts) {
    Entity<C, ShardingEnvelope<C>> entity =
        Entity.of(
            type.key(),
            ctx ->
                type.factory()
                    .create(
                        ctx.getEntityId(),
                        parts,
                        new EntityTypes.Home<>() {
                          @Override
                          public RecipientRef<C> address(ActorRef<C> self) {
                            return sharding.entityRefFor(type.key(), ctx.getEntityId());
                          }

                          @Override
                          public void passivate(ActorRef<C> self) {
                            ctx.getShard().tell(new ClusterSharding.Passivate<>(self));
                          }
                        }));
    Entity<C, ShardingEnvelope<C>> tuned =
        Node.regionRetry(system.settings().config(), type)
            .map(retry -> entity.withSettings(retrying(retry)))
            .orElse(entity);
    sharding.init(type.stopMessage().map(tuned::withStopMessage).orElse(tuned));
  }

  private ClusterShardingSettings retrying(Duration retry) {
    ClusterShardingSettings settings = ClusterShardingSettings.create(system);
    return settings.withTuningParameters(settings.tuningParameters().withRetryInterval(retry));
  }

  @Override
  public <C> RecipientRef<C> ref(EntityTypes.EntityType<C> type, String id) {
    return sharding.entityRefFor(type.key(), EntityIds.checked(id));
  }
}
