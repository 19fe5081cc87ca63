package io.periscope.watch;

import static io.periscope.watch.WatchEntity.RUN_INTERRUPTED;
import static io.periscope.watch.WatchEntity.TYPE_KEY;
import static io.periscope.watch.WatchEntity.WATCH_NOT_FOUND;
import static io.periscope.watch.WatchEntity.tagsOf;

import io.periscope.config.Settings;
import io.periscope.entity.EntityRefusal;
import io.periscope.entity.JournaledEntity;
import io.periscope.metrics.Metrics;
import io.periscope.notify.Delivery;
import io.periscope.persistence.EventDeletes;
import io.periscope.watch.WatchEntity.AlertDelivered;
import io.periscope.watch.WatchEntity.Attempted;
import io.periscope.watch.WatchEntity.ChannelsResealed;
import io.periscope.watch.WatchEntity.Command;
import io.periscope.watch.WatchEntity.Create;
import io.periscope.watch.WatchEntity.Created;
import io.periscope.watch.WatchEntity.Delete;
import io.periscope.watch.WatchEntity.Deleted;
import io.periscope.watch.WatchEntity.DeliveriesDue;
import io.periscope.watch.WatchEntity.Delivering;
import io.periscope.watch.WatchEntity.DeliveryInterrupted;
import io.periscope.watch.WatchEntity.Event;
import io.periscope.watch.WatchEntity.Fire;
import io.periscope.watch.WatchEntity.Get;
import io.periscope.watch.WatchEntity.GetRun;
import io.periscope.watch.WatchEntity.GetRuns;
import io.periscope.watch.WatchEntity.GetVersions;
import io.periscope.watch.WatchEntity.HeldReleased;
import io.periscope.watch.WatchEntity.OweAccountNotice;
import io.periscope.watch.WatchEntity.OwesRun;
import io.periscope.watch.WatchEntity.OwnerNoticed;
import io.periscope.watch.WatchEntity.Pending;
import io.periscope.watch.WatchEntity.Recall;
import io.periscope.watch.WatchEntity.Recalled;
import io.periscope.watch.WatchEntity.ReleaseDue;
import io.periscope.watch.WatchEntity.Replace;
import io.periscope.watch.WatchEntity.Replaced;
import io.periscope.watch.WatchEntity.ResealChannels;
import io.periscope.watch.WatchEntity.RetryDue;
import io.periscope.watch.WatchEntity.Run;
import io.periscope.watch.WatchEntity.RunFinished;
import io.periscope.watch.WatchEntity.ScheduleAdvanced;
import io.periscope.watch.WatchEntity.State;
import io.periscope.watch.WatchEntity.Stop;
import io.periscope.watch.WatchEntity.TrimJournal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.PreRestart;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.typed.DeleteEventsFailed;
import org.apache.pekko.persistence.typed.RecoveryCompleted;
import org.apache.pekko.persistence.typed.SnapshotCompleted;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EffectBuilder;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.ReplyEffect;
import org.apache.pekko.persistence.typed.javadsl.RetentionCriteria;
import org.apache.pekko.persistence.typed.javadsl.SignalHandler;

/**
 * The behaviour of a watch entity ({@link WatchEntity}, which declares its state, commands and
 * events): it dispatches commands, persists events and keeps what lives in memory only (the run in
 * flight, the attempts in flight, who waits for a run). What to persist is decided by pure
 * functions over the watch's state: {@link WatchRuns} (a run's record), {@link WatchSchedule} (the
 * next fire time and the wake-up), {@link Outbox} (deliveries and their retries), {@link
 * JournalTrim} (the events a snapshot lets go), {@link HeldAlerts} and {@link OwnerNotices}; {@link
 * WatchEvents} applies the events.
 */
final class WatchBehavior extends JournaledEntity<Command, Event, State> {

  private final ActorContext<Command> context;
  private final RunPipeline pipeline;
  private final Clock clock;
  private final Passivation passivation;
  private final RunMeters meters;

  /** The event handler, given the states {@link #persistAll} worked out, not to work them twice. */
  private final ForeseenStates foreseen = new ForeseenStates();

  /** The events kept before the newest snapshot ({@link JournalTrim#retained}). */
  private final long retainedEvents;

  /** In memory only: a crash loses the run in flight, whose items then stay unseen. */
  private boolean running;

  private final Settings.DeliveryRetry retry;

  /** WATCH_FAILING_AFTER: failed runs in a row after which the owner is told (0: never). */
  private final int failingAfter;

  /** The owed deliveries ({@link Pending#key()}) with an attempt in flight. */
  private final Set<String> attempting = new HashSet<>();

  /** The run whose first attempts are in flight, and who asked for it (null for a schedule). */
  private record FirstAttempts(String runId, ActorRef<StatusReply<RunRecord>> replyTo) {}

  private FirstAttempts firstAttempts;

  /**
   * Who waits for a run of this incarnation: the asker of the run in flight and those of the runs
   * stashed behind it. Told {@link WatchEntity#RUN_INTERRUPTED} when the incarnation ends before it
   * answered them, so no asker waits for its timeout.
   */
  private final Set<ActorRef<StatusReply<RunRecord>>> waiting = new LinkedHashSet<>();

  WatchBehavior(
      ActorContext<Command> context,
      String entityId,
      RunPipeline pipeline,
      Clock clock,
      Passivation passivation) {
    super(TYPE_KEY, entityId);
    this.context = context;
    this.pipeline = pipeline;
    this.clock = clock;
    this.passivation = passivation;
    this.retainedEvents = JournalTrim.retained(context.getSystem().settings().config());
    this.meters = RunMeters.of(Metrics.get(context.getSystem()));
    this.retry = Settings.deliveryRetry(context.getSystem().settings().config());
    this.failingAfter = Settings.watchFailingAfter(context.getSystem().settings().config());
  }

  @Override
  public Set<String> tagsFor(Event event) {
    return tagsOf(event);
  }

  @Override
  public RetentionCriteria retentionCriteria() {
    return JournalTrim.RETENTION;
  }

  /** A snapshot was written: the events past the retention go ({@link JournalTrim}). */
  private ReplyEffect<Event, State> onTrimJournal(State state, TrimJournal cmd) {
    long to = JournalTrim.deleteTo(cmd.snapshotAt(), retainedEvents);
    if (to <= 0) return Effect().noReply();
    Optional<ScheduleAdvanced> dueTime = JournalTrim.keepDueTime(state);
    if (dueTime.isEmpty()) {
      EventDeletes.deleteTo(context, persistenceId(), to);
      return Effect().noReply();
    }
    return persistAll(state, List.of(dueTime.get()))
        .thenRun(s -> EventDeletes.deleteTo(context, persistenceId(), to))
        .thenNoReply();
  }

  /**
   * Persists {@code events}, followed by what keeps the wake-up index right while deliveries are
   * owed: a {@link DeliveriesDue} when the wake-up time moved or a schedule event would have set
   * the index to the next fire time alone, and the next fire time written again once nothing is
   * owed any more; and the notice to the watch's owner that these events call for, if any ({@link
   * OwnerNotices}), whose deliveries are then attempted.
   */
  private EffectBuilder<Event, State> persistAll(State state, List<Event> events) {
    List<Event> all = new ArrayList<>(events);
    List<State> states = new ArrayList<>(events.size() + 1);
    State after = state;
    for (Event e : events) states.add(after = WatchEvents.apply(after, e));
    Optional<OwnerNoticed> notice =
        OwnerNotices.due(after, failingAfter, clock.instant(), retry.retryFor());
    if (notice.isPresent()) {
      all.add(notice.get());
      states.add(after = WatchEvents.apply(after, notice.get()));
    }
    foreseen.foresee(state, List.copyOf(all), states);
    WatchSchedule.wakeUp(state, after, events).ifPresent(all::add);
    if (notice.isEmpty()) return Effect().persist(all);
    String owed = notice.get().alert().runId();
    return Effect()
        .persist(all)
        .thenRun(
            s ->
                s.outbox().stream()
                    .filter(p -> p.runId().equals(owed))
                    .forEach(this::scheduleAttempt));
  }

  @Override
  public State emptyState() {
    return State.EMPTY;
  }

  /*
   * The handlers dispatch by hand instead of through the handler builders: a builder's cases
   * (objects, lambdas and lists) are built anew for every live entity (docs/performance-log.md, "A live
   * watch carried its handlers").
   */
  @Override
  public CommandHandlerWithReply<Command, Event, State> commandHandler() {
    return this::onCommand;
  }

  private ReplyEffect<Event, State> onCommand(State state, Command command) {
    if (command instanceof Get get) return onGet(state, get);
    if (command instanceof Recall recall)
      return Effect()
          .reply(
              recall.replyTo(),
              state.exists()
                  ? StatusReply.success(new Recalled(state.watch(), state.memory(clock.instant())))
                  : notFound());
    if (command instanceof Fire fire) return onFire(state, fire);
    if (command instanceof Create create) return onCreate(state, create);
    if (command instanceof Replace replace) return onReplace(state, replace);
    if (command instanceof ResealChannels reseal)
      // channels changed meanwhile are left as they are
      return state.exists() && state.watch().channels().equals(reseal.previous())
          ? persistAll(state, List.of(new ChannelsResealed(reseal.channels())))
              .thenReply(reseal.replyTo(), s -> StatusReply.ack())
          : Effect().reply(reseal.replyTo(), StatusReply.ack());
    if (command instanceof Delete delete) return onDelete(state, delete);
    if (command instanceof Run run) return onRun(state, run);
    if (command instanceof OwesRun owes)
      return Effect().reply(owes.replyTo(), StatusReply.success(waiting.contains(owes.asker())));
    if (command instanceof RunFinished done) return onRunFinished(state, done);
    if (command instanceof Attempted attempted) return onAttempted(state, attempted);
    if (command instanceof RetryDue due) return onRetryDue(state, due);
    if (command instanceof ReleaseDue) return release(state).thenNoReply();
    if (command instanceof DeliveryInterrupted interrupted)
      return onDeliveryInterrupted(state, interrupted);
    if (command instanceof GetRuns getRuns) return onGetRuns(state, getRuns);
    if (command instanceof GetVersions get)
      return Effect()
          .reply(
              get.replyTo(),
              state.everCreated()
                  ? StatusReply.success(new WatchVersions.Kept(state.versions()))
                  : notFound());
    if (command instanceof TrimJournal trim) return onTrimJournal(state, trim);
    if (command instanceof GetRun getRun) return onGetRun(state, getRun);
    if (command instanceof OweAccountNotice owe) return onOweAccountNotice(state, owe);
    if (command instanceof Stop)
      return running || !attempting.isEmpty() ? Effect().stash() : Effect().stop().thenNoReply();
    throw new IllegalArgumentException("unknown watch command " + command.getClass().getName());
  }

  private ReplyEffect<Event, State> onOweAccountNotice(State state, OweAccountNotice cmd) {
    if (!state.exists()) return Effect().reply(cmd.replyTo(), notFound());
    Optional<OwnerNoticed> notice =
        OwnerNotices.ofAccount(state, cmd, clock.instant(), retry.retryFor());
    if (notice.isEmpty()) return Effect().reply(cmd.replyTo(), StatusReply.ack());
    String owed = notice.get().alert().runId();
    return persistAll(state, List.of(notice.get()))
        .thenRun(
            s ->
                s.outbox().stream()
                    .filter(p -> p.runId().equals(owed) && !attempting.contains(p.key()))
                    .forEach(this::scheduleAttempt))
        .thenReply(cmd.replyTo(), s -> StatusReply.ack());
  }

  private ReplyEffect<Event, State> onGetRuns(State state, GetRuns cmd) {
    if (!state.everCreated()) return Effect().reply(cmd.replyTo(), notFound());
    return Effect().reply(cmd.replyTo(), WatchRuns.page(state, cmd.limit(), cmd.before()));
  }

  private ReplyEffect<Event, State> onGetRun(State state, GetRun cmd) {
    return Effect()
        .reply(
            cmd.replyTo(),
            !state.exists()
                ? notFound()
                : WatchRuns.kept(state, cmd.runId())
                    .map(StatusReply::success)
                    .orElseGet(WatchRuns::noSuchRun));
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
    if (HeldAlerts.release(state.held(), clock.instant(), retry.retryFor()).isPresent())
      return release(state).thenRun(s -> context.getSelf().tell(fire)).thenNoReply();
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
            : WatchRuns.crashed(done.trigger(), done.startedAt(), done.failure());
    if (done.failure() != null) {
      context.getLog().error("event=run-crashed watch={}", persistenceId().id(), done.failure());
      pipeline.runCrashed(state.watch(), outcome.record());
    }
    meters.recorded(outcome.record(), done.scheduledFor(), clock.instant());
    RunPipeline.PendingAlert alert = outcome.alert();
    Instant heldUntil = WatchRuns.heldUntil(state, outcome, clock.instant());
    List<Event> events = new ArrayList<>();
    events.add(WatchRuns.recorded(outcome, heldUntil, retry.retryFor()));
    WatchSchedule.advanced(state, done.scheduledFor(), clock.instant()).ifPresent(events::add);
    if (alert != null && heldUntil == null) {
      // Still running: the next run waits until the first attempts are recorded too.
      String runId = outcome.record().runId();
      return persistAll(state, events)
          .thenRun(
              s -> {
                firstAttempts = new FirstAttempts(runId, done.replyTo());
                attemptFirst(s, runId);
              })
          .thenNoReply();
    }
    running = false;
    // persistAll: a schedule advanced while deliveries are owed or alerts held keeps their wake-up
    // the record as written: a held alert's shows its deliveries held
    RunRecord recorded = WatchRuns.recordOf(events.get(0), outcome);
    var persisted = persistAll(state, events);
    if (heldUntil != null) persisted = persisted.thenRun(s -> scheduleRelease(heldUntil));
    return (done.replyTo() == null
            ? persisted.thenNoReply()
            : persisted
                .thenRun(s -> waiting.remove(done.replyTo()))
                .thenReply(done.replyTo(), s -> StatusReply.success(recorded)))
        .thenUnstashAll();
  }

  // ---- held alerts
  // -------------------------------------------------------------------------------

  /** A timer for the release at {@code at}, while the watch stays in memory. */
  private void scheduleRelease(Instant at) {
    tellSelfAt(at, new ReleaseDue());
  }

  /** Sends {@code command} to this incarnation at {@code at}, at once when it is past. */
  private void tellSelfAt(Instant at, Command command) {
    Duration wait = Duration.between(clock.instant(), at);
    context.scheduleOnce(wait.isNegative() ? Duration.ZERO : wait, context.getSelf(), command);
  }

  /** Releases the held alerts due now into the outbox, and schedules their attempts. */
  private EffectBuilder<Event, State> release(State state) {
    HeldReleased released =
        HeldAlerts.release(state.held(), clock.instant(), retry.retryFor()).orElse(null);
    if (released == null) return Effect().none();
    context
        .getLog()
        .info(
            "event=held-alerts-released watch={} runs={}",
            persistenceId().id(),
            released.runIds().size());
    return persistAll(state, List.of(released))
        .thenRun(s -> released.owed().forEach(this::scheduleAttempt));
  }

  // ---- the outbox
  // --------------------------------------------------------------------------------

  /** The first attempt of each channel of run {@code runId}, at once; one answer for all. */
  private void attemptFirst(State state, String runId) {
    Instant at = clock.instant();
    List<Pending> owed = state.outbox().stream().filter(p -> p.runId().equals(runId)).toList();
    List<CompletableFuture<List<Delivery>>> sends = new ArrayList<>();
    for (Pending p : owed) sends.add(send(p));
    context.pipeToSelf(
        CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new))
            .thenApply(all -> sends.stream().flatMap(f -> f.join().stream()).toList()),
        (results, failure) ->
            new Attempted(
                runId,
                owed.stream().map(Pending::channel).toList(),
                results == null ? List.of() : results,
                at,
                true));
  }

  /** One attempt of one owed delivery; never fails (a failure is an unexpected, retryable one). */
  private CompletableFuture<List<Delivery>> send(Pending p) {
    attempting.add(p.key());
    List<Delivery> broke = List.of(Delivery.retryable(p.channel(), Outbox.ATTEMPT_FAILED, null));
    try {
      return pipeline
          .deliver(p.channel(), p.alert())
          .toCompletableFuture()
          .exceptionally(e -> broke)
          .thenApply(ds -> ds == null || ds.isEmpty() ? broke : ds);
    } catch (RuntimeException e) {
      return CompletableFuture.completedFuture(broke);
    }
  }

  /** Schedules the attempt of an owed delivery at its due time (at once when it is past). */
  private void scheduleAttempt(Pending p) {
    tellSelfAt(p.dueAt(), new RetryDue(p.runId(), p.channel(), p.dueAt()));
  }

  private ReplyEffect<Event, State> onRetryDue(State state, RetryDue due) {
    Pending p = state.owed(due.runId(), due.channel()).orElse(null);
    if (p == null || !p.dueAt().equals(due.dueAt()) || attempting.contains(p.key()))
      return Effect().noReply(); // delivered, ended, moved on or in flight meanwhile
    Instant now = clock.instant();
    if (now.isAfter(p.retryUntil())) {
      // Out of time before the attempt (the watch was not running when it was due): ended.
      RunRecord.DeliveryRecord before = p.recordSoFar();
      return recordAttempts(
          state,
          p.runId(),
          List.of(before.failedForGood(Outbox.gaveUp(before.error(), retry.retryFor()))),
          -1,
          List.of(p),
          null);
    }
    context.pipeToSelf(
        send(p),
        (results, failure) ->
            new Attempted(
                p.runId(),
                List.of(p.channel()),
                results == null ? List.of() : results,
                now,
                false));
    return Effect().noReply();
  }

  private ReplyEffect<Event, State> onAttempted(State state, Attempted cmd) {
    List<RunRecord.DeliveryRecord> records = new ArrayList<>();
    List<Pending> ended = new ArrayList<>();
    for (Pending p : state.outbox()) {
      if (!p.runId().equals(cmd.runId())
          || !cmd.channels().contains(p.channel())
          || !attempting.remove(p.key())) continue;
      List<Delivery> mine =
          cmd.results().stream().filter(d -> d.channel().equals(p.channel())).toList();
      List<RunRecord.DeliveryRecord> now =
          Outbox.afterAttempt(p, mine, cmd.at(), clock.instant(), retry);
      records.addAll(now);
      if (now.stream().noneMatch(RunRecord.DeliveryRecord::pending)
          && now.stream().noneMatch(RunRecord.DeliveryRecord::ok)) ended.add(p);
    }
    long totalMs =
        cmd.first()
            ? state.recentRuns().stream()
                .filter(r -> r.runId().equals(cmd.runId()))
                .findFirst()
                .map(r -> Duration.between(r.startedAt(), clock.instant()).toMillis())
                .orElse(-1L)
            : -1;
    FirstAttempts first =
        cmd.first() && firstAttempts != null && firstAttempts.runId().equals(cmd.runId())
            ? firstAttempts
            : null;
    if (records.isEmpty() && first == null) return Effect().noReply();
    return recordAttempts(state, cmd.runId(), records, totalMs, ended, first);
  }

  /**
   * Persists the deliveries of run {@code runId} as they now stand; then tells the operator of each
   * delivery that {@code ended} in failure (once: the event is written once), schedules the
   * retries, and answers the run's asker when these were its first attempts.
   */
  private ReplyEffect<Event, State> recordAttempts(
      State state,
      String runId,
      List<RunRecord.DeliveryRecord> records,
      long totalMs,
      List<Pending> ended,
      FirstAttempts first) {
    var persisted =
        persistAll(state, List.of(new AlertDelivered(OwnerNotices.runOf(runId), records, totalMs)))
            .thenRun(
                s -> {
                  for (Pending p : ended) {
                    String reason =
                        records.stream()
                            .filter(r -> r.channel().equals(p.channel()))
                            .map(RunRecord.DeliveryRecord::error)
                            .findFirst()
                            .orElse(null);
                    context
                        .getLog()
                        .warn("event=delivery-failed watch={} run={}", persistenceId().id(), runId);
                    pipeline.deliveryFailed(p.alert(), p.channel(), reason);
                  }
                  s.outbox().stream()
                      .filter(p -> p.runId().equals(runId) && !attempting.contains(p.key()))
                      .forEach(this::scheduleAttempt);
                  if (first != null) {
                    firstAttempts = null;
                    running = false;
                  }
                });
    if (first == null || first.replyTo() == null) return persisted.thenNoReply().thenUnstashAll();
    return persisted
        .thenRun(s -> waiting.remove(first.replyTo()))
        .thenReply(
            first.replyTo(),
            s -> WatchRuns.kept(s, runId).map(StatusReply::success).orElseGet(WatchRuns::noSuchRun))
        .thenUnstashAll();
  }

  private ReplyEffect<Event, State> onDeliveryInterrupted(State state, DeliveryInterrupted cmd) {
    Delivering d = state.delivering();
    if (d == null || !d.runId().equals(cmd.runId())) return Effect().noReply();
    context
        .getLog()
        .error("event=alert-delivery-interrupted watch={} run={}", persistenceId().id(), d.runId());
    if (state.watch() != null) pipeline.alertInterrupted(state.watch(), d.runId(), d.channels());
    return Effect().persist(Outbox.interrupted(state, d)).thenNoReply();
  }

  @Override
  public SignalHandler<State> signalHandler() {
    return newSignalHandlerBuilder()
        .onSignal(
            RecoveryCompleted.instance(),
            state -> {
              if (state.delivering() != null)
                context.getSelf().tell(new DeliveryInterrupted(state.delivering().runId()));
              // what a previous incarnation owed, it owes still: each at its due time
              state.outbox().forEach(this::scheduleAttempt);
              state.held().stream()
                  .map(HeldAlert::releaseAt)
                  .distinct()
                  .forEach(this::scheduleRelease);
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
    waiting.forEach(
        asker ->
            asker.tell(EntityRefusal.reply(EntityRefusal.Code.RUN_INTERRUPTED, RUN_INTERRUPTED)));
    waiting.clear();
  }

  /*
   * A new watch leaves memory as soon as it is written: what needs it next is its first due time
   * or its owner opening it, both usually much later, and its next message starts it again from
   * the journal. Kept until the idle timeout, created watches filled the young collections under a
   * burst of creates (docs/performance-log.md, "created watches passivate at once").
   */
  private ReplyEffect<Event, State> onCreate(State state, Create cmd) {
    if (state.exists()) {
      return Effect()
          .reply(
              cmd.replyTo(),
              StatusReply.error("a watch with id '" + cmd.watch().id() + "' already exists"));
    }
    Instant now = clock.instant();
    return persistAll(
            state,
            List.of(
                new Created(
                    cmd.watch(),
                    now,
                    WatchSchedule.firstFire(cmd.watch(), now),
                    cmd.actor(),
                    cmd.restoring())))
        .thenRun(s -> passivation.passivate(context.getSelf()))
        .thenReply(cmd.replyTo(), s -> StatusReply.success(s.watch()));
  }

  private ReplyEffect<Event, State> onReplace(State state, Replace cmd) {
    if (!state.exists()) return Effect().reply(cmd.replyTo(), notFound());
    Instant now = clock.instant();
    return persistAll(
            state,
            List.of(
                new Replaced(
                    cmd.watch(),
                    now,
                    WatchSchedule.nextFireOnReplace(state, cmd.watch(), now),
                    cmd.actor(),
                    cmd.restoring())))
        .thenReply(cmd.replyTo(), s -> StatusReply.success(s.watch()));
  }

  private ReplyEffect<Event, State> onGet(State state, Get cmd) {
    return Effect()
        .reply(cmd.replyTo(), state.exists() ? StatusReply.success(state.watch()) : notFound());
  }

  private ReplyEffect<Event, State> onDelete(State state, Delete cmd) {
    if (!state.exists()) return Effect().reply(cmd.replyTo(), notFound());
    // deliveries already owed go on: the alert was decided while the watch existed
    return persistAll(state, List.of(new Deleted(clock.instant(), cmd.actor())))
        .thenReply(cmd.replyTo(), s -> StatusReply.ack());
  }

  private static <T> StatusReply<T> notFound() {
    return StatusReply.error(WATCH_NOT_FOUND);
  }

  @Override
  public EventHandler<State, Event> eventHandler() {
    return foreseen;
  }
}
