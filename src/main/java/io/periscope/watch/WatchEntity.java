package io.periscope.watch;

import io.periscope.config.Settings;
import io.periscope.entity.Failures;
import io.periscope.entity.JournalFailures;
import io.periscope.entity.JsonSerializable;
import io.periscope.metrics.Metrics;
import io.periscope.persistence.EventDeletes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.PreRestart;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.typed.DeleteEventsFailed;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.RecoveryCompleted;
import org.apache.pekko.persistence.typed.SnapshotCompleted;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehaviorWithEnforcedReplies;
import org.apache.pekko.persistence.typed.javadsl.ReplyEffect;
import org.apache.pekko.persistence.typed.javadsl.RetentionCriteria;
import org.apache.pekko.persistence.typed.javadsl.SignalHandler;

/**
 * One watch of one owner, event sourced. The entity id is {@code owner:watchId}, so ids are unique
 * per owner and no owner can address another's watch. It owns the definition, the identities of the
 * items it has judged and its run history. Deleting is an event: the run history outlives the
 * definition, and the id may be created again (its history continues).
 *
 * <p>A watch runs one run at a time: a run requested while one is in flight waits (stashed) and
 * then sees the first run's items as seen, so no item is judged or alerted twice. A run's record
 * and the items it marks seen are one event, written before its alert goes out, and the deliveries
 * a second one: a node that stops between the two (a crash, or a hand-over that runs out of time)
 * has sent the alert at most once, and the watch's next incarnation records those deliveries as
 * interrupted. Alerts are at most once, never twice. On a hand-over the entity finishes the run in
 * flight, deliveries included, before it stops.
 *
 * <p>The watch owns its schedule: the next fire time is state, set when the watch is created or its
 * schedule or enabled flag changes (from the time of the change), and advanced after each scheduled
 * run from the time it was due — to the first due time after now when that is already past, so a
 * watch that missed slots while nothing ran (downtime) runs once, not once per slot. Timers would
 * die with the entity; instead the events that set the next fire time are tagged, projected into
 * the wake-up index, and the scheduler sends {@link Fire} through sharding. A fire for any other
 * time than the current next fire time is ignored, so a due time fires once however often it is
 * sent.
 */
public final class WatchEntity
    extends EventSourcedBehaviorWithEnforcedReplies<
        WatchEntity.Command, WatchEntity.Event, WatchEntity.State> {

  public static final EntityTypeKey<Command> TYPE_KEY =
      EntityTypeKey.create(Command.class, "Watch");

  /**
   * How a service reaches this entity: a watch entity, by its owner and the watch's id. Sharded
   * when serving, a local actor for the command line; a service is handed only the lookups of the
   * entities it asks.
   */
  @FunctionalInterface
  public interface Refs {
    RecipientRef<Command> watch(String owner, String watchId);
  }

  public static String entityId(String owner, String watchId) {
    return owner + ":" + watchId;
  }

  // ---- state
  // -------------------------------------------------------------------------------------

  /**
   * How many item identities a watch remembers; older ones may be judged again if a feed
   * re-publishes them.
   */
  public static final int SEEN_BOUND = 5000;

  /**
   * How many run records the entity keeps at hand; the journal keeps RUN_HISTORY_RETENTION of them
   * at least ({@link RunPages} reads past these).
   */
  public static final int RECENT_RUNS = 100;

  /**
   * {@code watch} is null before the first create and after a delete. {@code seen} holds item keys
   * oldest first; {@code recentRuns} the newest runs, newest first. {@code baselines}: when each
   * source ({@code type:value}) took its baseline; {@code createdAt}: when the watch was last
   * created (both absent from older snapshots).
   */
  public record State(
      Watch watch,
      boolean everCreated,
      List<String> seen,
      List<RunRecord> recentRuns,
      Instant nextFireAt,
      Delivering delivering,
      Map<String, Instant> baselines,
      Instant createdAt)
      implements JsonSerializable {
    static final State EMPTY =
        new State(null, false, List.of(), List.of(), null, null, Map.of(), null);

    public State {
      seen = List.copyOf(seen);
      recentRuns = List.copyOf(recentRuns);
      baselines = baselines == null ? Map.of() : Map.copyOf(baselines);
    }

    /** What the next run, starting at {@code now}, is told of the past. */
    RunPipeline.Memory memory(Instant now) {
      boolean firstRun = recentRuns.isEmpty() && baselines.isEmpty();
      return new RunPipeline.Memory(
          new HashSet<>(seen), baselines, firstRun && createdAt != null ? createdAt : now);
    }

    State created(Watch w, Instant at, Instant nextFire) {
      return new State(w, true, seen, recentRuns, nextFire, delivering, baselines, at);
    }

    public boolean exists() {
      return watch != null;
    }

    /** {@code nextFire} is null for a deleted or disabled watch. */
    State withWatch(Watch w, Instant nextFire) {
      return new State(
          w,
          everCreated || w != null,
          seen,
          recentRuns,
          nextFire,
          delivering,
          baselines,
          createdAt);
    }

    State withNextFire(Instant nextFire) {
      return new State(
          watch, everCreated, seen, recentRuns, nextFire, delivering, baselines, createdAt);
    }

    State withDelivering(Delivering d) {
      return new State(watch, everCreated, seen, recentRuns, nextFireAt, d, baselines, createdAt);
    }

    /** The run's record with its deliveries; nothing is delivering any more. */
    State withDelivered(String runId, List<RunRecord.DeliveryRecord> sent, long totalMs) {
      List<RunRecord> runs =
          recentRuns.stream()
              .map(r -> r.runId().equals(runId) ? r.withDeliveries(sent, totalMs) : r)
              .toList();
      return new State(watch, everCreated, seen, runs, nextFireAt, null, baselines, createdAt);
    }

    State withRun(RunRecord record, List<String> newlySeen, Map<String, Instant> baselined) {
      LinkedHashSet<String> ids = new LinkedHashSet<>(seen);
      ids.addAll(newlySeen);
      List<String> bounded = new ArrayList<>(ids);
      if (bounded.size() > SEEN_BOUND)
        bounded = bounded.subList(bounded.size() - SEEN_BOUND, bounded.size());
      List<RunRecord> runs = new ArrayList<>(RECENT_RUNS);
      runs.add(record);
      recentRuns.stream().limit(RECENT_RUNS - 1).forEach(runs::add);
      Map<String, Instant> sources = new HashMap<>(baselines);
      if (baselined != null) baselined.forEach(sources::putIfAbsent);
      return new State(
          watch, everCreated, bounded, runs, nextFireAt, delivering, sources, createdAt);
    }
  }

  /** The run whose alert is going out to {@code channels}: recorded, its deliveries not yet. */
  public record Delivering(String runId, List<String> channels) implements JsonSerializable {}

  /**
   * Run history, newest first; {@code more} when older kept runs follow, or may follow in the
   * journal (the page reached the end of the runs kept in memory, which were all it keeps there).
   */
  public record Runs(List<RunRecord> runs, boolean more) implements JsonSerializable {}

  // ---- commands
  // ----------------------------------------------------------------------------------

  public sealed interface Command extends JsonSerializable {}

  /** Refused when the watch exists. */
  public record Create(Watch watch, ActorRef<StatusReply<Watch>> replyTo) implements Command {}

  /** Refused when the watch does not exist. */
  public record Replace(Watch watch, ActorRef<StatusReply<Watch>> replyTo) implements Command {}

  /** Refused when the watch does not exist. */
  public record Get(ActorRef<StatusReply<Watch>> replyTo) implements Command {}

  /** Refused when the watch does not exist. */
  public record Delete(ActorRef<StatusReply<Done>> replyTo) implements Command {}

  /** Runs the watch now (schedule ignored). Refused when the watch does not exist. */
  public record Run(String trigger, ActorRef<StatusReply<RunRecord>> replyTo) implements Command {}

  /**
   * The newest {@code limit} kept runs, or with {@code before} the {@code limit} kept runs older
   * than that run; refused for a watch that never existed ({@code watch not found}), and for a
   * {@code before} that is not a kept run ({@link #NO_SUCH_RUN}).
   */
  public record GetRuns(int limit, String before, ActorRef<StatusReply<Runs>> replyTo)
      implements Command {
    public GetRuns(int limit, ActorRef<StatusReply<Runs>> replyTo) {
      this(limit, null, replyTo);
    }
  }

  public static final String NO_SUCH_RUN = "run not found";

  /**
   * What a {@link Run} is answered when the watch stopped or restarted before its run was recorded
   * (a crash, a journal failure): whether the run is in the history is not known.
   */
  public static final String RUN_INTERRUPTED =
      "the watch stopped or restarted during the run; its outcome is not known (see its run"
          + " history), try again";

  /** Whether a run was refused with {@link #RUN_INTERRUPTED}. */
  public static boolean interrupted(Throwable failure) {
    return Failures.isRefusal(failure)
        && RUN_INTERRUPTED.equals(Failures.unwrap(failure).getMessage());
  }

  /**
   * One of the {@link #RECENT_RUNS} newest runs, by id: what feedback may be given on. Refused
   * (watch not found) when the watch does not exist now, and (run not found) when the run is not
   * among them.
   */
  public record GetRun(String runId, ActorRef<StatusReply<RunRecord>> replyTo) implements Command {}

  /**
   * The scheduler's wake-up for the due time {@code due}; ignored unless it is the watch's next
   * fire time.
   */
  public record Fire(Instant due) implements Command {}

  /**
   * Sharding's stop message (passivation, hand-over): the entity stops once the run in flight, if
   * any, is recorded and delivered.
   */
  public record Stop() implements Command {}

  /**
   * The pipeline finished (sent by the entity to itself). {@code scheduledFor} is the due time of a
   * scheduled run, {@code replyTo} who asked for a run now; each null otherwise.
   */
  record RunFinished(
      RunPipeline.Outcome outcome,
      Throwable failure,
      String trigger,
      Instant startedAt,
      Instant scheduledFor,
      ActorRef<StatusReply<RunRecord>> replyTo)
      implements Command {}

  /**
   * A snapshot at {@code snapshotAt} was written: the events past the retention go (sent by the
   * entity to itself).
   */
  record TrimJournal(long snapshotAt) implements Command {}

  /** The recorded run's alert went out (sent by the entity to itself). */
  record AlertSent(
      RunRecord record,
      List<RunRecord.DeliveryRecord> deliveries,
      ActorRef<StatusReply<RunRecord>> replyTo)
      implements Command {}

  /**
   * Recovery found a run whose deliveries a previous incarnation never recorded (sent by the entity
   * to itself).
   */
  record DeliveryInterrupted(String runId) implements Command {}

  // ---- events
  // ------------------------------------------------------------------------------------

  public sealed interface Event extends JsonSerializable {}

  /** {@code nextFireAt} is null when the watch is disabled. */
  public record Created(Watch watch, Instant at, Instant nextFireAt) implements Event {}

  public record Replaced(Watch watch, Instant at, Instant nextFireAt) implements Event {}

  /**
   * The scheduled run due at {@code firedFor} was recorded; the watch is next due at {@code
   * nextFireAt}. Without {@code firedFor}: the due time written again before older events are
   * deleted.
   */
  public record ScheduleAdvanced(Instant firedFor, Instant nextFireAt) implements Event {}

  /** The tag of the events that set a watch's next fire time, which the wake-up index projects. */
  public static final String SCHEDULE_TAG = "watch-schedule";

  /**
   * The tag of the events that record runs and their deliveries, which {@code history --follow}
   * reads as they are written (events written before the tag existed carry none: past runs are read
   * by watch, not by tag).
   */
  public static final String RUN_TAG = "watch-run";

  public record Deleted(Instant at) implements Event {}

  /**
   * A run's record together with the item keys it marks seen and the sources that took their
   * baseline in it ({@code baselined} is absent from events written before baselines).
   */
  public record RunRecorded(
      RunRecord record, List<String> newlySeen, Map<String, Instant> baselined) implements Event {}

  /**
   * A run with an alert to send, recorded with the items it marks seen (and its baselines, as
   * {@link RunRecorded}) before the alert goes out to {@code channels}; its deliveries follow in
   * {@link AlertDelivered}.
   */
  public record RunJudged(
      RunRecord record,
      List<String> newlySeen,
      List<String> channels,
      Map<String, Instant> baselined)
      implements Event {}

  /**
   * The deliveries of the run {@code runId}, and how long the run took with them; after a stop in
   * between, each channel is a failed delivery saying it was interrupted.
   */
  public record AlertDelivered(
      String runId, List<RunRecord.DeliveryRecord> deliveries, long totalMs) implements Event {}

  /** What an interrupted delivery says: whether that channel got the alert is not known. */
  public static final String INTERRUPTED =
      "interrupted: the node stopped while the alert was being sent; " + "it may not have arrived";

  // ---- behaviour
  // ---------------------------------------------------------------------------------

  private final ActorContext<Command> context;
  private final RunPipeline pipeline;
  private final Clock clock;
  private final Passivation passivation;
  private final RunMeters meters;

  /**
   * The events kept before the newest snapshot: RUN_HISTORY_RETENTION × {@link #EVENTS_PER_RUN}.
   */
  private final long retainedEvents;

  /** In memory only: a crash loses the run in flight, whose items then stay unseen. */
  private boolean running;

  /**
   * Who waits for a run of this incarnation: the asker of the run in flight and those of the runs
   * stashed behind it. Told {@link #RUN_INTERRUPTED} when the incarnation ends before it answered
   * them, so no asker waits for its timeout.
   */
  private final Set<ActorRef<StatusReply<RunRecord>>> waiting = new LinkedHashSet<>();

  /**
   * How a watch asks whatever hosts it to stop it, with its next message starting it again
   * (sharding's Passivate).
   */
  @FunctionalInterface
  public interface Passivation {
    void passivate(ActorRef<Command> self);

    /** Where nothing would start the entity again (a plain actor), it stays. */
    Passivation NEVER = self -> {};
  }

  /**
   * A watch that stays in memory once created (a plain actor, a test).
   *
   * @param clock what "now" is for schedules and event times
   */
  public static Behavior<Command> create(String entityId, RunPipeline pipeline, Clock clock) {
    return create(entityId, pipeline, clock, Passivation.NEVER);
  }

  /**
   * @param passivation how the watch leaves memory once it is created (see {@link #onCreate})
   */
  public static Behavior<Command> create(
      String entityId, RunPipeline pipeline, Clock clock, Passivation passivation) {
    return Behaviors.setup(
        ctx ->
            new WatchEntity(
                ctx, PersistenceId.of(TYPE_KEY.name(), entityId), pipeline, clock, passivation));
  }

  private WatchEntity(
      ActorContext<Command> context,
      PersistenceId persistenceId,
      RunPipeline pipeline,
      Clock clock,
      Passivation passivation) {
    super(persistenceId, JournalFailures.RESTART_WITH_BACKOFF);
    this.context = context;
    this.pipeline = pipeline;
    this.clock = clock;
    this.passivation = passivation;
    this.retainedEvents =
        (long) Settings.runHistoryRetention(context.getSystem().settings().config())
            * EVENTS_PER_RUN;
    this.meters = new RunMeters(Metrics.get(context.getSystem()).registry());
  }

  @Override
  public Set<String> tagsFor(Event event) {
    return tagsOf(event);
  }

  /**
   * The tags of an event: {@link #SCHEDULE_TAG} for the wake-up index, {@link #RUN_TAG} for the
   * operator's {@code history --follow}.
   */
  public static Set<String> tagsOf(Event event) {
    if (event instanceof Created
        || event instanceof Replaced
        || event instanceof Deleted
        || event instanceof ScheduleAdvanced) return Set.of(SCHEDULE_TAG);
    if (event instanceof RunRecorded
        || event instanceof RunJudged
        || event instanceof AlertDelivered) return Set.of(RUN_TAG);
    return Set.of();
  }

  /** Events between two snapshots: a recovery replays at most this many. */
  static final int SNAPSHOT_EVERY = 100;

  /**
   * The most events one run writes: its record ({@link RunRecorded} or {@link RunJudged}), the
   * schedule advanced, the deliveries.
   */
  static final int EVENTS_PER_RUN = 3;

  // Snapshots keep recovery short as run records accumulate; old events go by RUN_HISTORY_RETENTION
  // (deleteOldEvents), not with old snapshots.
  @Override
  public RetentionCriteria retentionCriteria() {
    return RetentionCriteria.snapshotEvery(SNAPSHOT_EVERY, 2);
  }

  /**
   * Once a snapshot at {@code sequenceNr} is written, the events more than {@code retainedEvents}
   * before it go: the journal keeps at least the newest RUN_HISTORY_RETENTION runs, whatever the
   * mix of events, and at most that many events times {@link #EVENTS_PER_RUN} (plus those since the
   * snapshot). The state is in the snapshot; the wake-up projection is long past them. So that the
   * journal always holds the watch's current due time (an index rebuilt from it finds every watch),
   * a scheduled watch first writes it again ({@link ScheduleAdvanced} without {@code firedFor}).
   */
  private ReplyEffect<Event, State> onTrimJournal(State state, TrimJournal cmd) {
    long to = cmd.snapshotAt() - retainedEvents;
    if (to <= 0) return Effect().noReply();
    if (state.nextFireAt() == null) {
      EventDeletes.deleteTo(context, persistenceId(), to);
      return Effect().noReply();
    }
    return Effect()
        .persist(new ScheduleAdvanced(null, state.nextFireAt()))
        .thenRun(s -> EventDeletes.deleteTo(context, persistenceId(), to))
        .thenNoReply();
  }

  @Override
  public State emptyState() {
    return State.EMPTY;
  }

  /*
   * The handlers dispatch by hand instead of through the handler builders: a builder's cases
   * (objects, lambdas and lists) are built anew for every live entity (docs/performance.md, "A live
   * watch carried its handlers").
   */
  @Override
  public CommandHandlerWithReply<Command, Event, State> commandHandler() {
    return this::onCommand;
  }

  private ReplyEffect<Event, State> onCommand(State state, Command command) {
    if (command instanceof Get get) return onGet(state, get);
    if (command instanceof Fire fire) return onFire(state, fire);
    if (command instanceof Create create) return onCreate(state, create);
    if (command instanceof Replace replace) return onReplace(state, replace);
    if (command instanceof Delete delete) return onDelete(state, delete);
    if (command instanceof Run run) return onRun(state, run);
    if (command instanceof RunFinished done) return onRunFinished(state, done);
    if (command instanceof AlertSent sent) return onAlertSent(state, sent);
    if (command instanceof DeliveryInterrupted interrupted)
      return onDeliveryInterrupted(state, interrupted);
    if (command instanceof GetRuns getRuns) return onGetRuns(state, getRuns);
    if (command instanceof TrimJournal trim) return onTrimJournal(state, trim);
    if (command instanceof GetRun getRun) return onGetRun(state, getRun);
    if (command instanceof Stop) return running ? Effect().stash() : Effect().stop().thenNoReply();
    throw new IllegalArgumentException("unknown watch command " + command.getClass().getName());
  }

  private ReplyEffect<Event, State> onGetRuns(State state, GetRuns cmd) {
    if (!state.everCreated()) return Effect().reply(cmd.replyTo(), notFound());
    List<RunRecord> kept = state.recentRuns();
    int from = 0;
    if (cmd.before() != null) {
      int at = 0;
      while (at < kept.size() && !kept.get(at).runId().equals(cmd.before())) at++;
      if (at == kept.size()) return Effect().reply(cmd.replyTo(), StatusReply.error(NO_SUCH_RUN));
      from = at + 1;
    }
    int to = Math.min(kept.size(), from + cmd.limit());
    // With as many runs in memory as it keeps there, older ones may be in the journal.
    boolean more = to < kept.size() || kept.size() >= RECENT_RUNS;
    return Effect()
        .reply(
            cmd.replyTo(),
            StatusReply.success(new Runs(List.copyOf(kept.subList(from, to)), more)));
  }

  private ReplyEffect<Event, State> onGetRun(State state, GetRun cmd) {
    return Effect()
        .reply(
            cmd.replyTo(),
            !state.exists()
                ? notFound()
                : state.recentRuns().stream()
                    .filter(r -> r.runId().equals(cmd.runId()))
                    .findFirst()
                    .map(StatusReply::success)
                    .orElseGet(() -> StatusReply.error(NO_SUCH_RUN)));
  }

  private ReplyEffect<Event, State> onRun(State state, Run cmd) {
    waiting.add(cmd.replyTo());
    if (running) return Effect().stash();
    if (!state.exists()) {
      waiting.remove(cmd.replyTo());
      return Effect().reply(cmd.replyTo(), notFound());
    }
    startRun(state, cmd.trigger(), null, cmd.replyTo());
    return Effect().noReply();
  }

  private ReplyEffect<Event, State> onFire(State state, Fire fire) {
    if (running)
      return Effect().stash(); // after the run in flight, this fire is judged against the new state
    if (state.nextFireAt() == null || !state.nextFireAt().equals(fire.due())) {
      context
          .getLog()
          .debug(
              "event=fire-ignored watch={} due={} next={}",
              persistenceId().id(),
              fire.due(),
              state.nextFireAt());
      return Effect().noReply();
    }
    startRun(state, RunRecord.TRIGGER_SCHEDULE, fire.due(), null);
    return Effect().noReply();
  }

  private void startRun(
      State state, String trigger, Instant scheduledFor, ActorRef<StatusReply<RunRecord>> replyTo) {
    running = true;
    Instant startedAt = clock.instant();
    if (scheduledFor != null) meters.started(scheduledFor, startedAt);
    context.pipeToSelf(
        pipeline.run(state.watch(), state.memory(startedAt), trigger, startedAt),
        (outcome, failure) ->
            new RunFinished(outcome, failure, trigger, startedAt, scheduledFor, replyTo));
  }

  private ReplyEffect<Event, State> onRunFinished(State state, RunFinished done) {
    RunPipeline.Outcome outcome =
        done.failure() == null
            ? done.outcome()
            : new RunPipeline.Outcome(
                RunRecords.crashed(done.trigger(), done.startedAt(), done.failure()), List.of());
    if (done.failure() != null) {
      context.getLog().error("event=run-crashed watch={}", persistenceId().id(), done.failure());
      pipeline.runCrashed(state.watch(), outcome.record());
    }
    meters.recorded(outcome.record(), done.scheduledFor(), clock.instant());
    RunPipeline.PendingAlert alert = outcome.alert();
    List<Event> events = new ArrayList<>();
    events.add(
        alert == null
            ? new RunRecorded(outcome.record(), outcome.newlySeen(), outcome.baselined())
            : new RunJudged(
                outcome.record(), outcome.newlySeen(), alert.channels(), outcome.baselined()));
    // Unless the schedule changed during the run (then the change already set the next fire time).
    if (done.scheduledFor() != null && done.scheduledFor().equals(state.nextFireAt())) {
      events.add(
          new ScheduleAdvanced(
              done.scheduledFor(),
              CronExpressions.nextFireAfter(
                  state.watch().schedule(),
                  state.watch().scheduleZone(),
                  done.scheduledFor(),
                  clock.instant())));
    }
    if (alert != null) {
      // Still running: the next run waits until the deliveries are recorded too.
      return Effect()
          .persist(events)
          .thenRun(
              s ->
                  context.pipeToSelf(
                      alert.send().get(),
                      (sent, failure) ->
                          new AlertSent(
                              outcome.record(),
                              sent != null
                                  ? sent
                                  : alert.channels().stream()
                                      .map(
                                          c ->
                                              new RunRecord.DeliveryRecord(
                                                  c,
                                                  null,
                                                  false,
                                                  "the delivery failed unexpectedly"))
                                      .toList(),
                              done.replyTo())))
          .thenNoReply();
    }
    running = false;
    var persisted = Effect().persist(events);
    return (done.replyTo() == null
            ? persisted.thenNoReply()
            : persisted
                .thenRun(s -> waiting.remove(done.replyTo()))
                .thenReply(done.replyTo(), s -> StatusReply.success(outcome.record())))
        .thenUnstashAll();
  }

  private ReplyEffect<Event, State> onAlertSent(State state, AlertSent sent) {
    running = false;
    RunRecord run = sent.record();
    long totalMs = Duration.between(run.startedAt(), clock.instant()).toMillis();
    var persisted = Effect().persist(new AlertDelivered(run.runId(), sent.deliveries(), totalMs));
    return (sent.replyTo() == null
            ? persisted.thenNoReply()
            : persisted
                .thenRun(s -> waiting.remove(sent.replyTo()))
                .thenReply(
                    sent.replyTo(),
                    s -> StatusReply.success(run.withDeliveries(sent.deliveries(), totalMs))))
        .thenUnstashAll();
  }

  private ReplyEffect<Event, State> onDeliveryInterrupted(State state, DeliveryInterrupted cmd) {
    Delivering d = state.delivering();
    if (d == null || !d.runId().equals(cmd.runId())) return Effect().noReply();
    context
        .getLog()
        .error("event=alert-delivery-interrupted watch={} run={}", persistenceId().id(), d.runId());
    if (state.watch() != null) pipeline.alertInterrupted(state.watch(), d.runId(), d.channels());
    long totalMs =
        state.recentRuns().stream()
            .filter(r -> r.runId().equals(d.runId()))
            .mapToLong(RunRecord::durationMs)
            .findFirst()
            .orElse(0);
    return Effect()
        .persist(
            new AlertDelivered(
                d.runId(),
                d.channels().stream()
                    .map(c -> new RunRecord.DeliveryRecord(c, null, false, INTERRUPTED))
                    .toList(),
                totalMs))
        .thenNoReply();
  }

  @Override
  public SignalHandler<State> signalHandler() {
    return newSignalHandlerBuilder()
        .onSignal(
            RecoveryCompleted.instance(),
            state -> {
              if (state.delivering() != null)
                context.getSelf().tell(new DeliveryInterrupted(state.delivering().runId()));
            })
        .onSignal(
            SnapshotCompleted.class,
            (state, done) -> context.getSelf().tell(new TrimJournal(done.metadata().sequenceNr())))
        .onSignal(
            DeleteEventsFailed.class,
            (state, failed) ->
                context
                    .getLog()
                    .warn(
                        "event=old-events-not-deleted watch={} to={} problem={}",
                        persistenceId().id(),
                        failed.toSequenceNr(),
                        failed.getFailure().getClass().getSimpleName()))
        .onSignal(PostStop.instance(), state -> answerWaiting())
        .onSignal(PreRestart.instance(), state -> answerWaiting())
        .build();
  }

  /** The incarnation ends: whoever still waits for a run of it is told so. */
  private void answerWaiting() {
    if (waiting.isEmpty()) return;
    context
        .getLog()
        .warn("event=run-interrupted watch={} askers={}", persistenceId().id(), waiting.size());
    waiting.forEach(asker -> asker.tell(StatusReply.error(RUN_INTERRUPTED)));
    waiting.clear();
  }

  /*
   * A new watch leaves memory as soon as it is written: what needs it next is its first due time
   * or its owner opening it, both usually much later, and its next message starts it again from
   * the journal. Kept until the idle timeout, created watches filled the young collections under a
   * burst of creates (docs/performance.md, "created watches passivate at once").
   */
  private ReplyEffect<Event, State> onCreate(State state, Create cmd) {
    if (state.exists()) {
      return Effect()
          .reply(
              cmd.replyTo(),
              StatusReply.error("a watch with id '" + cmd.watch().id() + "' already exists"));
    }
    Instant now = clock.instant();
    return Effect()
        .persist(new Created(cmd.watch(), now, firstFire(cmd.watch(), now)))
        .thenRun(s -> passivation.passivate(context.getSelf()))
        .thenReply(cmd.replyTo(), s -> StatusReply.success(s.watch()));
  }

  private ReplyEffect<Event, State> onReplace(State state, Replace cmd) {
    if (!state.exists()) return Effect().reply(cmd.replyTo(), notFound());
    Instant now = clock.instant();
    Watch before = state.watch();
    // An unchanged schedule keeps its due time: replacing a watch must not postpone (or repeat) a
    // due run.
    boolean sameSchedule =
        before.enabled()
            && cmd.watch().enabled()
            && before.schedule().equals(cmd.watch().schedule())
            && before.timeZone().equals(cmd.watch().timeZone())
            && state.nextFireAt() != null;
    return Effect()
        .persist(
            new Replaced(
                cmd.watch(), now, sameSchedule ? state.nextFireAt() : firstFire(cmd.watch(), now)))
        .thenReply(cmd.replyTo(), s -> StatusReply.success(s.watch()));
  }

  private ReplyEffect<Event, State> onGet(State state, Get cmd) {
    return Effect()
        .reply(cmd.replyTo(), state.exists() ? StatusReply.success(state.watch()) : notFound());
  }

  private ReplyEffect<Event, State> onDelete(State state, Delete cmd) {
    if (!state.exists()) return Effect().reply(cmd.replyTo(), notFound());
    return Effect()
        .persist(new Deleted(clock.instant()))
        .thenReply(cmd.replyTo(), s -> StatusReply.ack());
  }

  /** The first due time after {@code now}; none for a disabled watch. */
  private static Instant firstFire(Watch watch, Instant now) {
    return watch.enabled()
        ? CronExpressions.nextFireAfter(watch.schedule(), watch.scheduleZone(), now, now)
        : null;
  }

  private static <T> StatusReply<T> notFound() {
    return StatusReply.error("watch not found");
  }

  /** One for all watches: applying an event needs nothing of the entity. */
  private static final EventHandler<State, Event> EVENTS = WatchEntity::apply;

  @Override
  public EventHandler<State, Event> eventHandler() {
    return EVENTS;
  }

  private static State apply(State state, Event event) {
    if (event instanceof Created e) return state.created(e.watch(), e.at(), e.nextFireAt());
    if (event instanceof Replaced e) return state.withWatch(e.watch(), e.nextFireAt());
    if (event instanceof Deleted) return state.withWatch(null, null);
    if (event instanceof ScheduleAdvanced e) return state.withNextFire(e.nextFireAt());
    if (event instanceof RunRecorded e)
      return state.withRun(e.record(), e.newlySeen(), e.baselined());
    if (event instanceof RunJudged e) {
      return state
          .withRun(e.record(), e.newlySeen(), e.baselined())
          .withDelivering(new Delivering(e.record().runId(), e.channels()));
    }
    if (event instanceof AlertDelivered e)
      return state.withDelivered(e.runId(), e.deliveries(), e.totalMs());
    throw new IllegalArgumentException("unknown watch event " + event.getClass().getName());
  }
}
