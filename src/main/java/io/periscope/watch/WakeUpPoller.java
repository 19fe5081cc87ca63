package io.periscope.watch;

import io.periscope.entity.JsonSerializable;
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
 * <p>A tick reads the index only when something may be due: while nothing was due at its last
 * reading, it waits for the earliest due time that reading (or the projection since, {@link
 * Scheduled}) gave, reading again at least every {@link #READ_AT_LEAST_EVERY} and whenever it
 * cannot know (its first tick, after a failed reading, after a node left). An idle node's scheduler
 * then costs a timer, not a database query, each tick.
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

  /**
   * The longest a scheduler waits between two readings of the index, whatever it knows of the next
   * due time. It bounds how late a watch runs when a {@link Scheduled} is lost (its node died
   * before sending it, or a node of a release before it runs the projection during a rolling
   * upgrade), and how long a failing database goes unnoticed; an idle node reads six times a minute
   * instead of sixty.
   */
  static final Duration READ_AT_LEAST_EVERY = Duration.ofSeconds(10);

  public sealed interface Command {}

  private record Tick() implements Command {}

  /**
   * The wake-up projection wrote (and committed) {@code at} as a watch's next due time: the
   * scheduler reads the index again by then. It crosses nodes (the projection and the scheduler may
   * run on different ones).
   */
  public record Scheduled(Instant at) implements Command, JsonSerializable {}

  /** A member was removed from the cluster. */
  record NodeLeft() implements Command {}

  private record ResendAll() implements Command {}

  private record TickDone(WakeUpIndex.Reading reading, Throwable failure) implements Command {}

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

  /**
   * When the index may next hold a due watch: {@code null} while that is not known (read at the
   * next tick), {@link Instant#MAX} when it holds none.
   */
  private Instant readAgainAt;

  /** The earliest due time the projection told of while a reading was in flight. */
  private Instant scheduledWhileReading;

  /** When the index was last read (by the real clock). */
  private long lastReadNanos;

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
        .onMessage(Scheduled.class, this::onScheduled)
        .onMessage(
            NodeLeft.class,
            left -> {
              readAgainAt = null; // what the projection told on that node may be lost with it
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

  private Behavior<Command> onScheduled(Scheduled scheduled) {
    if (readAgainAt != null) readAgainAt = earlier(readAgainAt, scheduled.at());
    if (tickInFlight) scheduledWhileReading = earlier(scheduledWhileReading, scheduled.at());
    return this;
  }

  /** The earlier of two times, either of which may be {@code null} (none). */
  private static Instant earlier(Instant a, Instant b) {
    if (a == null || b == null) return a == null ? b : a;
    return b.isBefore(a) ? b : a;
  }

  private Behavior<Command> onTick() {
    if (tickInFlight) return this; // a slow query: this tick is skipped, not queued
    Instant now = clock.instant();
    if (readAgainAt != null
        && now.isBefore(readAgainAt)
        && System.nanoTime() - lastReadNanos < READ_AT_LEAST_EVERY.toNanos()) {
      return this; // nothing is due before readAgainAt
    }
    tickInFlight = true;
    scheduledWhileReading = null;
    lastReadNanos = System.nanoTime();
    getContext()
        .pipeToSelf(
            CompletableFuture.supplyAsync(
                () -> {
                  try {
                    return index.read(now, settings.batch());
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
      WakeUpIndex.Reading reading = done.reading();
      fireDue(reading.due());
      // while watches are due, every tick reads (they move on, or are sent their fire again)
      readAgainAt =
          !reading.due().isEmpty()
              ? null
              : earlier(
                  reading.next() == null ? Instant.MAX : reading.next(), scheduledWhileReading);
      lastAlert = null;
    } catch (Throwable failure) {
      readAgainAt = null;
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
