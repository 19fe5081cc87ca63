package io.periscope.runtime;

import io.periscope.backtest.BacktestEntity;
import io.periscope.entity.EntityIds;
import io.periscope.run.RunAllWatches;
import io.periscope.watch.RunPipeline;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.RecipientRef;

/**
 * Entities as plain actors of one process, for the command line when no service runs: the process
 * holds the data-directory lock, so it is the only writer of every entity it starts.
 */
public final class LocalEntities implements Entities {
  private final ActorSystem<?> system;
  private final Map<String, ActorRef<?>> started = new ConcurrentHashMap<>();
  private volatile EntityTypes.Parts parts = EntityTypes.Parts.notStarted(this);

  public LocalEntities(ActorSystem<?> system) {
    this.system = system;
  }

  /** The entities without a run (all but watches and owners) start on their first message. */
  @Override
  public void start(
      RunPipeline pipeline, RunAllWatches runAll, BacktestEntity.Runner backtests, Clock clock) {
    this.parts = new EntityTypes.Parts(pipeline, runAll, backtests, clock, this);
  }

  /** Nothing passivates a local actor: the actor is its own address, and stays. */
  private static final class Resident<C> implements EntityTypes.Home<C> {
    @Override
    public RecipientRef<C> address(ActorRef<C> self) {
      return self;
    }

    @Override
    public void passivate(ActorRef<C> self) {}
  }

  @Override
  public <C> RecipientRef<C> ref(EntityTypes.EntityType<C> type, String id) {
    return spawn(type, id);
  }

  @SuppressWarnings("unchecked")
  <C> ActorRef<C> spawn(EntityTypes.EntityType<C> type, String id) {
    EntityIds.checked(id);
    String name = type.key().name() + "-" + URLEncoder.encode(id, StandardCharsets.UTF_8);
    return (ActorRef<C>)
        started.computeIfAbsent(
            name,
            n ->
                system.systemActorOf(
                    type.factory().create(id, parts, new Resident<>()), n, Props.empty()));
  }
}
