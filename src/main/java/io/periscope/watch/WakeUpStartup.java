package io.periscope.watch;

import com.typesafe.config.Config;
import io.periscope.notify.AdminAlerts;
import io.periscope.persistence.SchemaLock;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.cluster.sharding.typed.ShardedDaemonProcessSettings;
import org.apache.pekko.cluster.sharding.typed.javadsl.ShardedDaemonProcess;
import org.apache.pekko.cluster.typed.ClusterSingleton;
import org.apache.pekko.cluster.typed.SingletonActor;
import org.apache.pekko.projection.ProjectionBehavior;
import org.apache.pekko.projection.eventsourced.EventEnvelope;
import org.apache.pekko.projection.jdbc.javadsl.JdbcProjection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.concurrent.ExecutionContextExecutor;

/**
 * Starts what makes schedules fire on a serving node: the projection's offset tables, the wake-up
 * index's projection (one instance in the cluster, run by a sharded daemon process so it moves when
 * its node leaves), the scheduler (a cluster singleton), and a minutely look at the statistics the
 * projection's query plan depends on.
 */
public final class WakeUpStartup {
  private static final Logger log = LoggerFactory.getLogger(WakeUpStartup.class);

  /** How often each node looks at the statistics the projection's query depends on. */
  static final Duration STATISTICS_EVERY = Duration.ofMinutes(1);

  private WakeUpStartup() {}

  /**
   * @return the node's readiness checks this part owns, by name: the journal's database answers,
   *     the wake-up projection is not failing here
   */
  public static Map<String, Supplier<Boolean>> start(
      ActorSystem<?> system,
      Config config,
      WatchEntity.Refs watches,
      Clock clock,
      AdminAlerts alerts)
      throws Exception {
    Config c = config.getConfig("periscope.scheduler");
    int projectionConnections =
        config.getInt(
            "pekko.projection.jdbc.blocking-jdbc-dispatcher.thread-pool-executor.fixed-pool-size");
    WakeUpIndex index = WakeUpIndex.open(config, projectionConnections);
    system.getWhenTerminated().thenRun(index::close);
    SchemaLock.during(
        config,
        () ->
            JdbcProjection.createTablesIfNotExists(index::session, system)
                .toCompletableFuture()
                .get(60, TimeUnit.SECONDS));

    ExecutionContextExecutor blocking = system.dispatchers().lookup(DispatcherSelector.blocking());
    system
        .scheduler()
        .scheduleWithFixedDelay(
            STATISTICS_EVERY,
            STATISTICS_EVERY,
            () -> {
              try {
                List<String> analyzed = index.refreshStaleStatistics();
                if (!analyzed.isEmpty())
                  log.info("event=journal-statistics-refreshed tables={}", analyzed);
              } catch (SQLException e) {
                log.warn("event=journal-statistics-failed message=\"{}\"", e.getMessage());
              }
            },
            blocking);

    WakeUpPoller.Settings settings =
        new WakeUpPoller.Settings(
            c.getDuration("tick"), c.getDuration("resend-after"), c.getInt("batch"));
    ActorRef<WakeUpPoller.Command> scheduler =
        ClusterSingleton.get(system)
            .init(
                SingletonActor.of(
                    WakeUpPoller.create(
                        index,
                        (entityId, due) -> {
                          int colon = entityId.indexOf(':');
                          watches
                              .watch(entityId.substring(0, colon), entityId.substring(colon + 1))
                              .tell(new WatchEntity.Fire(due));
                        },
                        clock,
                        settings,
                        alerts,
                        blocking),
                    "scheduler"));
    ProjectionHealth<EventEnvelope<WatchEntity.Event>> projection = new ProjectionHealth<>();
    ShardedDaemonProcess.get(system)
        .init(
            ProjectionBehavior.Command.class,
            "wakeup-index",
            1,
            i ->
                ProjectionBehavior.create(
                    WakeUpProjection.create(
                        system,
                        index,
                        projection,
                        // the system's: a node alone groups for longer (Node.alone)
                        system
                            .settings()
                            .config()
                            .getDuration("periscope.scheduler.index-group-within"),
                        at -> scheduler.tell(new WakeUpPoller.Scheduled(at)))),
            ShardedDaemonProcessSettings.create(system),
            Optional.of(ProjectionBehavior.stopMessage()));

    return Map.of("journal", index::answers, "wakeUpProjection", projection::healthy);
  }
}
