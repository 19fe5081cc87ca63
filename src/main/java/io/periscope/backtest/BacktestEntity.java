package io.periscope.backtest;

import io.periscope.entity.DurableJobs;
import io.periscope.entity.EntityRefusal;
import io.periscope.entity.Failures;
import io.periscope.entity.JournaledEntity;
import io.periscope.entity.JsonSerializable;
import io.periscope.entity.Refusal;
import io.periscope.llm.ModelUsage;
import io.periscope.run.RunAllJob;
import io.periscope.watch.Watch;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
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
 * The backtest jobs of one owner (entity id = account id): one running at a time, a second refused
 * while the first runs. A job's start, each run it tried and its end are journaled, so any node
 * answers its progress and results, also after a restart; finished jobs are kept for {@link
 * RunAllJob#KEPT_FOR} and at most {@link #JOBS_KEPT} of them. A job the journal holds as running
 * that no incarnation of this entity runs was interrupted (its node stopped, or the entity moved):
 * the first command after recovery finishes it as failed with {@link #INTERRUPTED}, the runs it
 * tried kept. It is not run again: a backtest changes nothing, so its owner may simply start
 * another. While one runs here the entity keeps itself from passivating.
 */
public final class BacktestEntity
    extends JournaledEntity<BacktestEntity.Command, BacktestEntity.Event, BacktestEntity.State> {

  public static final EntityTypeKey<Command> TYPE_KEY =
      EntityTypeKey.create(Command.class, "Backtest");

  /** How a service reaches an owner's backtest jobs, by account id. */
  @FunctionalInterface
  public interface Refs {
    RecipientRef<Command> backtests(String accountId);
  }

  /** How a backtest runs: {@link Backtester#run}. */
  @FunctionalInterface
  public interface Runner {
    CompletionStage<Backtest> run(Watch candidate, int runs, Backtester.Progress progress);
  }

  public sealed interface Command extends JsonSerializable {}

  /**
   * Starts {@code candidate} (a watch of this owner with the judgement to try) on its newest {@code
   * runs} verdict runs and answers the job at once; refused with {@link #ALREADY_RUNNING} while one
   * runs.
   */
  public record StartBacktest(Watch candidate, int runs, ActorRef<StatusReply<BacktestJob>> replyTo)
      implements Command {}

  /**
   * The job {@code jobId} of the watch {@code watchId}, running or kept; else {@link #NO_SUCH_JOB}.
   */
  public record GetBacktestJob(
      String watchId, String jobId, ActorRef<StatusReply<BacktestJob>> replyTo)
      implements Command {}

  /** The job running here found its runs (sent by the entity to itself). */
  record Listed(String jobId, int total) implements Command {}

  /** The job running here tried one run (sent by the entity to itself). */
  record Tried(String jobId, Backtest.Replay run) implements Command {}

  /** The job running here ended (sent by the entity to itself). */
  record Ended(String jobId, Backtest result, Throwable failure) implements Command {}

  /** Sent through sharding while a job runs here: only messages through the shard count as use. */
  record KeepAlive() implements Command {}

  public sealed interface Event extends JsonSerializable {}

  public record JobStarted(String jobId, String watchId, Instant at) implements Event {}

  public record JobListed(String jobId, int total) implements Event {}

  /** One run tried, in the order of the job's runs (newest first). */
  public record RunTried(String jobId, Backtest.Replay run) implements Event {}

  /** The job ended: done with {@code summary} and {@code usage}, or failed with {@code error}. */
  public record JobFinished(
      String jobId, Instant at, Backtest.Summary summary, ModelUsage usage, String error)
      implements Event {}

  /** The kept jobs, oldest first; at most one running. */
  public record State(List<BacktestJob> jobs) implements JsonSerializable {
    public State {
      jobs = jobs == null ? List.of() : List.copyOf(jobs);
    }

    Optional<BacktestJob> job(String jobId) {
      return DurableJobs.job(jobs, jobId);
    }
  }

  public static final String ALREADY_RUNNING = "a backtest of this account is already running";
  public static final String NO_SUCH_JOB = "backtest job not found";
  public static final String INTERRUPTED =
      "the backtest was interrupted by its node stopping; start it again";

  /** At most this many jobs are kept, whatever their age. */
  static final int JOBS_KEPT = 5;

  /** Well inside the shortest passivation idle timeout a deployment would configure. */
  static final Duration KEEP_ALIVE_EVERY = Duration.ofSeconds(30);

  private final ActorContext<Command> context;
  private final Runner runner;
  private final DurableJobs<Command> jobs;

  /**
   * @param viaShard this entity as sharding addresses it (the entity itself where nothing
   *     passivates it)
   */
  public static Behavior<Command> create(
      String accountId, Runner runner, RecipientRef<Command> viaShard) {
    return create(accountId, runner, viaShard, RunAllJob.KEPT_FOR);
  }

  static Behavior<Command> create(
      String accountId, Runner runner, RecipientRef<Command> viaShard, Duration keptFor) {
    return Behaviors.setup(ctx -> new BacktestEntity(ctx, accountId, runner, viaShard, keptFor));
  }

  private BacktestEntity(
      ActorContext<Command> context,
      String accountId,
      Runner runner,
      RecipientRef<Command> viaShard,
      Duration keptFor) {
    super(TYPE_KEY, accountId);
    this.context = context;
    this.runner = runner;
    this.jobs =
        new DurableJobs<>(context, viaShard, new KeepAlive(), KEEP_ALIVE_EVERY, keptFor, JOBS_KEPT);
  }

  @Override
  public State emptyState() {
    return new State(List.of());
  }

  @Override
  public SignalHandler<State> signalHandler() {
    return newSignalHandlerBuilder()
        .onSignal(
            PostStop.instance(),
            state -> {
              jobs.stopped();
            })
        .build();
  }

  @Override
  public CommandHandlerWithReply<Command, Event, State> commandHandler() {
    return newCommandHandlerWithReplyBuilder()
        .forAnyState()
        .onCommand(StartBacktest.class, this::onStart)
        .onCommand(
            GetBacktestJob.class,
            (state, cmd) ->
                Effect()
                    .persist(interrupted(state))
                    .thenReply(cmd.replyTo(), s -> answer(s, cmd.watchId(), cmd.jobId())))
        .onCommand(
            Listed.class,
            (state, cmd) ->
                Effect()
                    .persist(
                        jobs.ifRunningHere(cmd.jobId(), new JobListed(cmd.jobId(), cmd.total())))
                    .thenNoReply())
        .onCommand(
            Tried.class,
            (state, cmd) ->
                Effect()
                    .persist(jobs.ifRunningHere(cmd.jobId(), new RunTried(cmd.jobId(), cmd.run())))
                    .thenNoReply())
        .onCommand(Ended.class, this::onEnded)
        .onCommand(KeepAlive.class, (state, cmd) -> Effect().noReply())
        .build();
  }

  /** The event that ends a job the journal holds as running that this incarnation does not run. */
  private List<Event> interrupted(State state) {
    return jobs.interrupted(state.jobs())
        .<List<Event>>map(
            job -> List.of(new JobFinished(job.id(), Instant.now(), null, null, INTERRUPTED)))
        .orElse(List.of());
  }

  private StatusReply<BacktestJob> answer(State state, String watchId, String jobId) {
    return state
        .job(jobId)
        .filter(j -> j.watchId().equals(watchId))
        .filter(jobs::kept)
        .map(StatusReply::success)
        .orElseGet(
            () -> EntityRefusal.reply(EntityRefusal.Code.NO_SUCH_JOB, BacktestEntity.NO_SUCH_JOB));
  }

  private ReplyEffect<Event, State> onStart(State state, StartBacktest cmd) {
    if (jobs.anyRunningHere())
      return Effect().reply(cmd.replyTo(), StatusReply.error(ALREADY_RUNNING));
    String jobId = UUID.randomUUID().toString();
    List<Event> events = new ArrayList<>(interrupted(state));
    events.add(new JobStarted(jobId, cmd.candidate().id(), Instant.now()));
    return Effect()
        .persist(events)
        .thenRun(s -> run(jobId, cmd.candidate(), cmd.runs()))
        .thenReply(cmd.replyTo(), s -> StatusReply.success(s.job(jobId).orElseThrow()));
  }

  private void run(String jobId, Watch candidate, int runs) {
    ActorRef<Command> self = context.getSelf();
    jobs.runHere(
        jobId,
        runner.run(
            candidate,
            runs,
            new Backtester.Progress() {
              @Override
              public void listed(int total) {
                self.tell(new Listed(jobId, total));
              }

              @Override
              public void tried(Backtest.Replay run) {
                self.tell(new Tried(jobId, run));
              }
            }),
        (result, failure) -> new Ended(jobId, result, failure));
  }

  private ReplyEffect<Event, State> onEnded(State state, Ended ended) {
    if (!jobs.runsHere(ended.jobId())) return Effect().noReply();
    List<Event> events = new ArrayList<>();
    if (ended.failure() != null) {
      events.add(new JobFinished(ended.jobId(), Instant.now(), null, null, why(ended.failure())));
    } else {
      List<Backtest.Replay> reported = state.job(ended.jobId()).orElseThrow().runs();
      for (Backtest.Replay run :
          DurableJobs.unreported(reported, ended.result().runs(), Backtest.Replay::runId))
        events.add(new RunTried(ended.jobId(), run));
      events.add(
          new JobFinished(
              ended.jobId(),
              Instant.now(),
              ended.result().summary(),
              ended.result().usage(),
              null));
    }
    return Effect().persist(events).thenRun(s -> jobs.endedHere()).thenNoReply();
  }

  /** What the owner reads of a failure: a refusal's words (a spent quota), else its kind. */
  private String why(Throwable failure) {
    Throwable cause = Failures.unwrap(failure);
    if (cause instanceof Refusal) return cause.getMessage();
    context.getLog().error("event=backtest-failed", cause);
    return "the backtest failed (" + cause.getClass().getSimpleName() + ")";
  }

  @Override
  public EventHandler<State, Event> eventHandler() {
    return newEventHandlerBuilder()
        .forAnyState()
        .onEvent(
            JobStarted.class,
            (state, e) ->
                new State(
                    jobs.keptWith(
                        state.jobs(), BacktestJob.started(e.jobId(), e.watchId(), e.at()), e.at())))
        .onEvent(
            JobListed.class,
            (state, e) ->
                new State(DurableJobs.change(state.jobs(), e.jobId(), j -> j.withTotal(e.total()))))
        .onEvent(
            RunTried.class,
            (state, e) ->
                new State(DurableJobs.change(state.jobs(), e.jobId(), j -> j.with(e.run()))))
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
                                : j.done(e.summary(), e.usage(), e.at()))))
        .build();
  }
}
