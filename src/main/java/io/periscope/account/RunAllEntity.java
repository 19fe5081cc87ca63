package io.periscope.account;

import io.periscope.entity.DurableJobs;
import io.periscope.entity.EntityRefusal;
import io.periscope.entity.JournaledEntity;
import io.periscope.entity.JsonSerializable;
import io.periscope.run.RunAllJob;
import io.periscope.run.RunAllResult;
import io.periscope.run.RunAllWatches;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.ReplyEffect;
import org.apache.pekko.persistence.typed.javadsl.SignalHandler;

/**
 * The run-all jobs of one owner (entity id = account id): one run-all per owner at a time, a second
 * refused while the first is in flight. Each run-all is a job the owner can follow (its outcomes as
 * they come), kept for {@link RunAllJob#KEPT_FOR} after it finished and at most {@link #JOBS_KEPT}
 * of them. A job, its progress and its outcomes are journaled, so any node answers them after the
 * owner's node died. A job the journal holds as running that no incarnation of this entity is
 * running was interrupted (its node died, or the entity was handed over): the first command after
 * recovery finishes it, each watch it had not run yet recorded as failed with {@link
 * #RUN_ALL_INTERRUPTED}. It is not run again: the owner decides whether to start another. While a
 * run is in flight here the entity keeps itself from passivating, and if it is stopped anyway a
 * caller waiting for the run-all hears so at once instead of waiting out its timeout.
 */
public final class RunAllEntity
    extends JournaledEntity<RunAllEntity.Command, RunAllEntity.Event, RunAllEntity.State> {

  public static final EntityTypeKey<Command> TYPE_KEY =
      EntityTypeKey.create(Command.class, "RunAll");

  /**
   * How a service reaches this entity: an owner's run-all jobs, by account id. Sharded when
   * serving, a local actor for the command line.
   */
  @FunctionalInterface
  public interface Refs {
    RecipientRef<Command> runAll(String accountId);
  }

  public sealed interface Command extends JsonSerializable {}

  /**
   * Starts a run of the owner's watches {@code watchIds} (every id it registered, oldest first) now
   * and answers its job at once; refused with {@link #RUN_ALL_IN_FLIGHT} while one is in flight.
   */
  public record StartRunAll(List<String> watchIds, ActorRef<StatusReply<RunAllJob>> replyTo)
      implements Command {
    public StartRunAll {
      watchIds = List.copyOf(watchIds);
    }
  }

  /**
   * Answers the job once it finished (done or failed), at once when it has; refused with {@link
   * #NO_SUCH_JOB}, and with {@link #RUN_ALL_INTERRUPTED} when the entity stops first.
   */
  public record AwaitRunAllJob(String jobId, ActorRef<StatusReply<RunAllJob>> replyTo)
      implements Command {}

  /** A job of this owner's, running or kept; refused with {@link #NO_SUCH_JOB}. */
  public record GetRunAllJob(String jobId, ActorRef<StatusReply<RunAllJob>> replyTo)
      implements Command {}

  /** The run-all in flight looked its watches up (sent by the entity to itself). */
  record RunAllListed(String jobId, int total) implements Command {}

  /** One watch of the run-all in flight finished (sent by the entity to itself). */
  record RunAllProgressed(String jobId, RunAllResult.WatchOutcome outcome) implements Command {}

  /** The run-all finished (sent by the entity to itself). */
  record RunAllFinished(String jobId, RunAllResult result, Throwable failure) implements Command {}

  /**
   * Sent through sharding while a run-all is in flight: only messages through the shard count as
   * activity.
   */
  record KeepAlive() implements Command {}

  public sealed interface Event extends JsonSerializable {}

  /** A run-all of {@code watchIds} started at {@code at}. */
  public record JobStarted(String jobId, Instant at, List<String> watchIds) implements Event {
    public JobStarted {
      watchIds = List.copyOf(watchIds);
    }
  }

  /** The run-all looked its watches up: it covers {@code total}. */
  public record JobListed(String jobId, int total) implements Event {}

  /** One watch of the run-all finished (or, interrupted, never will). */
  public record OutcomeRecorded(String jobId, RunAllResult.WatchOutcome outcome) implements Event {}

  /** The run-all finished: done with {@code summary}, or failed with {@code error}. */
  public record JobFinished(String jobId, Instant at, RunAllResult.Summary summary, String error)
      implements Event {}

  /**
   * @param jobs the kept jobs, oldest first; at most one running
   * @param runningWatchIds the watches the running job covers (empty when none runs)
   */
  public record State(List<RunAllJob> jobs, List<String> runningWatchIds)
      implements JsonSerializable {
    public State {
      jobs = jobs == null ? List.of() : List.copyOf(jobs);
      runningWatchIds = runningWatchIds == null ? List.of() : List.copyOf(runningWatchIds);
    }

    Optional<RunAllJob> job(String jobId) {
      return DurableJobs.job(jobs, jobId);
    }
  }

  public static final String RUN_ALL_IN_FLIGHT = "a run-all of this owner is already in flight";
  public static final String NO_SUCH_JOB = "no such run-all job";
  public static final String RUN_ALL_FAILED = "the run-all failed; start it again";
  public static final String RUN_ALL_INTERRUPTED =
      "the run-all was interrupted by its node stopping; start it again";

  /** Well inside the shortest passivation idle timeout a deployment would configure. */
  static final Duration KEEP_ALIVE_EVERY = Duration.ofSeconds(30);

  /** At most this many jobs are kept, whatever their age. */
  static final int JOBS_KEPT = 5;

  private final ActorContext<Command> context;
  private final String accountId;
  private final RunAllWatches runAll;
  private final DurableJobs<Command> jobs;

  /** Who waits for the run-all in flight to finish (the synchronous form). */
  private final List<ActorRef<StatusReply<RunAllJob>>> awaiting = new ArrayList<>();

  /**
   * @param runAll how this owner's watches are run
   * @param viaShard this entity as sharding addresses it (the entity itself where nothing
   *     passivates it)
   */
  public static Behavior<Command> create(
      String accountId, RunAllWatches runAll, RecipientRef<Command> viaShard) {
    return create(accountId, runAll, viaShard, KEEP_ALIVE_EVERY, RunAllJob.KEPT_FOR);
  }

  static Behavior<Command> create(
      String accountId,
      RunAllWatches runAll,
      RecipientRef<Command> viaShard,
      Duration keepAliveEvery,
      Duration jobsKeptFor) {
    return Behaviors.setup(
        ctx -> new RunAllEntity(ctx, accountId, runAll, viaShard, keepAliveEvery, jobsKeptFor));
  }

  private RunAllEntity(
      ActorContext<Command> context,
      String accountId,
      RunAllWatches runAll,
      RecipientRef<Command> viaShard,
      Duration keepAliveEvery,
      Duration jobsKeptFor) {
    super(TYPE_KEY, accountId);
    this.context = context;
    this.accountId = accountId;
    this.runAll = runAll;
    this.jobs =
        new DurableJobs<>(
            context, viaShard, new KeepAlive(), keepAliveEvery, jobsKeptFor, JOBS_KEPT);
  }

  @Override
  public State emptyState() {
    return new State(List.of(), List.of());
  }

  @Override
  public SignalHandler<State> signalHandler() {
    return newSignalHandlerBuilder()
        .onSignal(
            PostStop.instance(),
            state -> {
              awaiting.forEach(waiter -> waiter.tell(StatusReply.error(RUN_ALL_INTERRUPTED)));
              jobs.stopped();
            })
        .build();
  }

  @Override
  public CommandHandlerWithReply<Command, Event, State> commandHandler() {
    return newCommandHandlerWithReplyBuilder()
        .forAnyState()
        .onCommand(StartRunAll.class, this::onStart)
        .onCommand(AwaitRunAllJob.class, this::onAwait)
        .onCommand(
            GetRunAllJob.class,
            (state, cmd) ->
                Effect()
                    .persist(interrupted(state))
                    .thenReply(cmd.replyTo(), s -> answer(s, cmd.jobId())))
        .onCommand(
            RunAllListed.class,
            (state, cmd) ->
                Effect()
                    .persist(
                        jobs.ifRunningHere(cmd.jobId(), new JobListed(cmd.jobId(), cmd.total())))
                    .thenNoReply())
        .onCommand(
            RunAllProgressed.class,
            (state, cmd) ->
                Effect()
                    .persist(
                        jobs.ifRunningHere(
                            cmd.jobId(), new OutcomeRecorded(cmd.jobId(), cmd.outcome())))
                    .thenNoReply())
        .onCommand(RunAllFinished.class, this::onFinished)
        .onCommand(KeepAlive.class, (state, cmd) -> Effect().noReply())
        .build();
  }

  /**
   * The events that finish a job the journal holds as running that this incarnation does not run:
   * each watch not run yet recorded as interrupted, then the job failed.
   */
  private List<Event> interrupted(State state) {
    Optional<RunAllJob> interrupted = jobs.interrupted(state.jobs());
    if (interrupted.isEmpty()) return List.of();
    RunAllJob job = interrupted.get();
    Set<String> ran = new HashSet<>();
    job.outcomes().forEach(o -> ran.add(o.watchId()));
    List<Event> events = new ArrayList<>();
    List<RunAllResult.WatchOutcome> outcomes = new ArrayList<>(job.outcomes());
    for (String watchId : state.runningWatchIds()) {
      if (ran.contains(watchId)) continue;
      var unrun =
          new RunAllResult.WatchOutcome(watchId, RunAllResult.FAILED, null, RUN_ALL_INTERRUPTED);
      outcomes.add(unrun);
      events.add(new OutcomeRecorded(job.id(), unrun));
    }
    events.add(new JobFinished(job.id(), Instant.now(), null, RUN_ALL_INTERRUPTED));
    return events;
  }

  private StatusReply<RunAllJob> answer(State state, String jobId) {
    return state
        .job(jobId)
        .filter(jobs::kept)
        .map(StatusReply::success)
        .orElseGet(RunAllEntity::noSuchJob);
  }

  private ReplyEffect<Event, State> onAwait(State state, AwaitRunAllJob cmd) {
    Optional<RunAllJob> job = state.job(cmd.jobId());
    if (job.isPresent() && !job.get().finished() && jobs.runsHere(job.get().id())) {
      awaiting.add(cmd.replyTo());
      return Effect().noReply();
    }
    return Effect()
        .persist(interrupted(state))
        .thenReply(cmd.replyTo(), s -> answer(s, cmd.jobId()));
  }

  private ReplyEffect<Event, State> onStart(State state, StartRunAll cmd) {
    if (jobs.anyRunningHere())
      return Effect().reply(cmd.replyTo(), StatusReply.error(RUN_ALL_IN_FLIGHT));
    String jobId = UUID.randomUUID().toString();
    List<Event> events = new ArrayList<>(interrupted(state));
    events.add(new JobStarted(jobId, Instant.now(), cmd.watchIds()));
    return Effect()
        .persist(events)
        .thenRun(s -> run(jobId, cmd.watchIds()))
        .thenReply(cmd.replyTo(), s -> StatusReply.success(s.job(jobId).orElseThrow()));
  }

  private void run(String jobId, List<String> watchIds) {
    ActorRef<Command> self = context.getSelf();
    jobs.runHere(
        jobId,
        runAll.run(
            accountId,
            watchIds,
            new RunAllWatches.Progress() {
              @Override
              public void listed(int total) {
                self.tell(new RunAllListed(jobId, total));
              }

              @Override
              public void finished(RunAllResult.WatchOutcome outcome) {
                self.tell(new RunAllProgressed(jobId, outcome));
              }
            }),
        (result, failure) -> new RunAllFinished(jobId, result, failure));
  }

  private ReplyEffect<Event, State> onFinished(State state, RunAllFinished done) {
    if (!jobs.runsHere(done.jobId())) return Effect().noReply();
    if (done.failure() != null)
      context.getLog().error("event=run-all-failed owner={}", accountId, done.failure());
    List<Event> events = new ArrayList<>();
    if (done.failure() != null) {
      events.add(new JobFinished(done.jobId(), Instant.now(), null, RUN_ALL_FAILED));
    } else {
      List<RunAllResult.WatchOutcome> reported = state.job(done.jobId()).orElseThrow().outcomes();
      for (RunAllResult.WatchOutcome o :
          DurableJobs.unreported(
              reported, done.result().outcomes(), RunAllResult.WatchOutcome::watchId))
        events.add(new OutcomeRecorded(done.jobId(), o));
      events.add(new JobFinished(done.jobId(), Instant.now(), done.result().summary(), null));
    }
    return Effect()
        .persist(events)
        .thenRun(
            s -> {
              jobs.endedHere();
              // who waited hears the job however short it is kept
              StatusReply<RunAllJob> reply =
                  s.job(done.jobId()).map(StatusReply::success).orElseGet(RunAllEntity::noSuchJob);
              awaiting.forEach(waiter -> waiter.tell(reply));
              awaiting.clear();
            })
        .thenNoReply();
  }

  @Override
  public EventHandler<State, Event> eventHandler() {
    return newEventHandlerBuilder()
        .forAnyState()
        .onEvent(
            JobStarted.class,
            (state, e) ->
                new State(
                    jobs.keptWith(state.jobs(), RunAllJob.started(e.jobId(), e.at()), e.at()),
                    e.watchIds()))
        .onEvent(
            JobListed.class,
            (state, e) ->
                new State(
                    DurableJobs.change(state.jobs(), e.jobId(), j -> j.withTotal(e.total())),
                    state.runningWatchIds()))
        .onEvent(
            OutcomeRecorded.class,
            (state, e) ->
                new State(
                    DurableJobs.change(state.jobs(), e.jobId(), j -> j.with(e.outcome())),
                    state.runningWatchIds()))
        .onEvent(
            JobFinished.class,
            (state, e) ->
                new State(
                    DurableJobs.change(
                        state.jobs(),
                        e.jobId(),
                        j ->
                            e.error() != null
                                ? j.failed(e.error(), e.at())
                                : j.done(e.summary(), e.at())),
                    List.of()))
        .build();
  }

  private static StatusReply<RunAllJob> noSuchJob() {
    return EntityRefusal.reply(EntityRefusal.Code.NO_SUCH_JOB, NO_SUCH_JOB);
  }
}
