package io.periscope.watch;

import io.periscope.metrics.Metrics;
import io.periscope.notify.AdminAlerts;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Subscribe;

/**
 * Wakes due watches: every tick it reads what the wake-up index says is due and sends each watch a
 * fire for that due time through sharding. One per cluster (a cluster singleton). A fire is sent
 * again only after {@code resendAfter} if the index still shows the same due time then — a lost
 * message or a watch whose node died — and the watch ignores a fire for a time that is no longer
 * its next, so a due time runs once.
 *
 * <p>When a node leaves the cluster (downed after a crash, or gone after a graceful leave), the
 * fires sent to its watches may be lost with it: {@link #AFTER_NODE_LEFT} later — once its shards
 * have a new home to buffer for — every watch still due is sent its fire again, instead of waiting
 * for {@code resendAfter}.
 *
 * <p>Logs one line per tick that fired any watch. A tick that fails (the database is away) is
 * logged and sends the ⚠️ scheduler-tick-crashed alert — the first of a streak, then at most every
 * {@link #ALERT_EVERY} — and the next tick runs as usual.
 */
public final class WakeUpPoller extends AbstractBehavior<WakeUpPoller.Command> {
  static final Duration ALERT_EVERY = Duration.ofMinutes(10);

  /**
   * How long after a node left the fires still due are sent again: the shard regions learn that the
   * node's shards need a new home about when this singleton learns it left, and a fire sent before
   * then would follow them out.
   */
  static final Duration AFTER_NODE_LEFT = Duration.ofSeconds(2);

  public sealed interface Command {}

  private record Tick() implements Command {}

  /** A member was removed from the cluster. */
  record NodeLeft() implements Command {}

  private record ResendAll() implements Command {}

  private record TickDone(List<WakeUpIndex.Due> due, Throwable failure) implements Command {}

  /** What the scheduler needs: the index, how to send a fire, and when it is. */
  public record Settings(Duration tick, Duration resendAfter, int batch) {}

  private final WakeUpIndex index;
  private final BiConsumer<String, Instant> fire;
  private final Clock clock;
  private final Settings settings;
  private final AdminAlerts alerts;
  private final Executor blocking;
  private final TimerScheduler<Command> timers;
  private final SchedulerMeters meters;

  /**
   * The due time last sent to each watch and when (by the real clock), until the index moves on.
   */
  private final Map<String, Sent> sent = new HashMap<>();

  private boolean tickInFlight;
  private Instant lastAlert;

  private record Sent(Instant due, long atNanos) {}

  /**
   * @param fire sends {@code Fire(due)} to the watch with that entity id
   * @param clock what "due" is measured against: tests move it by hand
   */
  public static Behavior<Command> create(
      WakeUpIndex index,
      BiConsumer<String, Instant> fire,
      Clock clock,
      Settings settings,
      AdminAlerts alerts,
      Executor blocking) {
    return Behaviors.<Command>supervise(
            Behaviors.setup(
                ctx ->
                    Behaviors.withTimers(
                        timers -> {
                          timers.startTimerWithFixedDelay(new Tick(), settings.tick());
                          Cluster.get(ctx.getSystem())
                              .subscriptions()
                              .tell(
                                  Subscribe.create(
                                      ctx.messageAdapter(
                                          ClusterEvent.MemberRemoved.class,
                                          removed -> new NodeLeft()),
                                      ClusterEvent.MemberRemoved.class));
                          return new WakeUpPoller(
                              ctx, timers, index, fire, clock, settings, alerts, blocking);
                        })))
        .onFailure(SupervisorStrategy.restart());
  }

  private WakeUpPoller(
      ActorContext<Command> context,
      TimerScheduler<Command> timers,
      WakeUpIndex index,
      BiConsumer<String, Instant> fire,
      Clock clock,
      Settings settings,
      AdminAlerts alerts,
      Executor blocking) {
    super(context);
    this.timers = timers;
    this.index = index;
    this.fire = fire;
    this.clock = clock;
    this.settings = settings;
    this.alerts = alerts;
    this.blocking = blocking;
    this.meters =
        Metrics.get(context.getSystem()).holder(SchedulerMeters.class, SchedulerMeters::new);
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Tick.class, t -> onTick())
        .onMessage(TickDone.class, this::onTickDone)
        .onMessage(
            NodeLeft.class,
            left -> {
              timers.startSingleTimer(
                  new ResendAll(), AFTER_NODE_LEFT); // a second departure restarts the wait
              return this;
            })
        .onMessage(
            ResendAll.class,
            resend -> {
              getContext()
                  .getLog()
                  .info("event=scheduler-resend reason=node-left watches={}", sent.size());
              sent.clear();
              return this;
            })
        .onSignal(
            PostStop.class,
            stop -> {
              meters.stopped();
              return this;
            })
        .build();
  }

  private Behavior<Command> onTick() {
    if (tickInFlight) return this; // a slow query: this tick is skipped, not queued
    tickInFlight = true;
    Instant now = clock.instant();
    getContext()
        .pipeToSelf(
            CompletableFuture.supplyAsync(
                () -> {
                  try {
                    return index.dueAt(now, settings.batch());
                  } catch (java.sql.SQLException e) {
                    throw new java.util.concurrent.CompletionException(e);
                  }
                },
                blocking),
            TickDone::new);
    return this;
  }

  private Behavior<Command> onTickDone(TickDone done) {
    tickInFlight = false;
    try {
      if (done.failure() != null) throw done.failure();
      fireDue(done.due());
      lastAlert = null;
    } catch (Throwable failure) {
      crashed(failure);
    }
    return this;
  }

  private void fireDue(List<WakeUpIndex.Due> due) {
    long nowNanos = System.nanoTime();
    Set<String> stillDue = new HashSet<>();
    int fired = 0;
    Duration mostLate = Duration.ZERO;
    Instant now = clock.instant();
    meters.ticked(now, due);
    for (WakeUpIndex.Due d : due) {
      stillDue.add(d.entityId());
      Sent last = sent.get(d.entityId());
      if (last != null
          && last.due().equals(d.at())
          && nowNanos - last.atNanos() < settings.resendAfter().toNanos()) {
        continue; // sent already; the index has not caught up with the run yet
      }
      fire.accept(d.entityId(), d.at());
      sent.put(d.entityId(), new Sent(d.at(), nowNanos));
      fired++;
      Duration late = Duration.between(d.at(), now);
      if (late.compareTo(mostLate) > 0) mostLate = late;
    }
    sent.keySet().retainAll(stillDue); // the others moved on to their next fire time
    if (fired > 0) {
      getContext()
          .getLog()
          .info(
              "event=scheduler-tick fired={} due={} most-late-ms={}",
              fired,
              due.size(),
              mostLate.toMillis());
    }
  }

  private void crashed(Throwable failure) {
    getContext().getLog().error("event=scheduler-tick-crashed reason=\"{}\"", failure.toString());
    Instant now = Instant.now();
    if (lastAlert == null || Duration.between(lastAlert, now).compareTo(ALERT_EVERY) >= 0) {
      lastAlert = now;
      alerts.alert(AdminAlerts.Kind.SCHEDULER_TICK_CRASHED, "a scheduler tick failed: " + failure);
    }
  }
}
