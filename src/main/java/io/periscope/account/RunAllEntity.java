package io.periscope.account;

import io.periscope.entity.EntityRefusal;
import io.periscope.entity.JsonSerializable;
import io.periscope.run.RunAllJob;
import io.periscope.run.RunAllResult;
import io.periscope.run.RunAllWatches;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.UnaryOperator;
import org.apache.pekko.actor.Cancellable;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.pattern.StatusReply;

/**
 * The run-all jobs of one owner (entity id = account id): one run-all per owner at a time, a second
 * refused while the first is in flight. Each run-all is a job the owner can follow (its outcomes as
 * they come), kept for {@link RunAllJob#KEPT_FOR} after it finished. That state is in memory on
 * purpose: a node crash mid-run-all restarts the entity idle, so no owner is left refused (its jobs
 * are gone, a 404). While it holds a job the entity keeps itself from passivating, and if it is
 * stopped anyway (a shard handed over to another node) a caller waiting for the run-all hears so at
 * once instead of waiting out its timeout.
 */
public final class RunAllEntity extends AbstractBehavior<RunAllEntity.Command> {

  public static final EntityTypeKey<Command> TYPE_KEY =
      EntityTypeKey.create(Command.class, "RunAll");

  /**
   * How a service reaches this entity: an owner's run-all jobs, by account id. Sharded when
   * serving, a local actor for the command line.
   */
  @FunctionalInterface
  public interface Refs {
    RecipientRef<Command> runAll(String owner);
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

  /** A finished job's keeping time is over (sent by the entity to itself). */
  record ForgetJob(String jobId) implements Command {}

  /**
   * Sent through sharding while a run-all is in flight: only messages through the shard count as
   * activity.
   */
  record KeepAlive() implements Command {}

  public static final String RUN_ALL_IN_FLIGHT = "a run-all of this owner is already in flight";
  public static final String NO_SUCH_JOB = "no such run-all job";
  public static final String RUN_ALL_FAILED = "the run-all failed; start it again";
  public static final String RUN_ALL_INTERRUPTED =
      "the run-all was interrupted by its node stopping; start it again";

  /** Well inside the shortest passivation idle timeout a deployment would configure. */
  static final Duration KEEP_ALIVE_EVERY = Duration.ofSeconds(30);

  /** At most this many finished jobs are kept, whatever their age. */
  static final int JOBS_KEPT = 20;

  private final String owner;
  private final RunAllWatches runAll;
  private final RecipientRef<Command> viaShard;
  private final Duration keepAliveEvery;
  private final Duration jobsKeptFor;

  /** The id of the run-all in flight, if one is. */
  private String runningJob;

  /** Who waits for the run-all in flight to finish (the synchronous form). */
  private final List<ActorRef<StatusReply<RunAllJob>>> awaiting = new ArrayList<>();

  /** The run-all jobs, running and finished ones kept for {@code jobsKeptFor}, oldest first. */
  private final Map<String, RunAllJob> jobs = new LinkedHashMap<>();

  private Cancellable keepAlive;

  /**
   * @param runAll how this owner's watches are run
   * @param viaShard this entity as sharding addresses it (the entity itself where nothing
   *     passivates it)
   */
  public static Behavior<Command> create(
      String owner, RunAllWatches runAll, RecipientRef<Command> viaShard) {
    return create(owner, runAll, viaShard, KEEP_ALIVE_EVERY, RunAllJob.KEPT_FOR);
  }

  static Behavior<Command> create(
      String owner,
      RunAllWatches runAll,
      RecipientRef<Command> viaShard,
      Duration keepAliveEvery,
      Duration jobsKeptFor) {
    return Behaviors.setup(
        ctx -> new RunAllEntity(ctx, owner, runAll, viaShard, keepAliveEvery, jobsKeptFor));
  }

  private RunAllEntity(
      ActorContext<Command> context,
      String owner,
      RunAllWatches runAll,
      RecipientRef<Command> viaShard,
      Duration keepAliveEvery,
      Duration jobsKeptFor) {
    super(context);
    this.owner = owner;
    this.runAll = runAll;
    this.viaShard = viaShard;
    this.keepAliveEvery = keepAliveEvery;
    this.jobsKeptFor = jobsKeptFor;
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(StartRunAll.class, this::onStart)
        .onMessage(AwaitRunAllJob.class, this::onAwait)
        .onMessage(
            GetRunAllJob.class,
            cmd -> {
              RunAllJob job = jobs.get(cmd.jobId());
              cmd.replyTo().tell(job == null ? noSuchJob() : StatusReply.success(job));
              return this;
            })
        .onMessage(RunAllListed.class, cmd -> progress(cmd.jobId(), j -> j.withTotal(cmd.total())))
        .onMessage(RunAllProgressed.class, cmd -> progress(cmd.jobId(), j -> j.with(cmd.outcome())))
        .onMessage(RunAllFinished.class, this::onFinished)
        .onMessage(KeepAlive.class, cmd -> this)
        .onMessage(
            ForgetJob.class,
            cmd -> {
              jobs.remove(cmd.jobId());
              keepAliveWhileNeeded();
              return this;
            })
        .onSignal(
            PostStop.class,
            stopped -> {
              awaiting.forEach(waiter -> waiter.tell(StatusReply.error(RUN_ALL_INTERRUPTED)));
              if (keepAlive != null) keepAlive.cancel();
              return this;
            })
        .build();
  }

  private Behavior<Command> onAwait(AwaitRunAllJob cmd) {
    RunAllJob job = jobs.get(cmd.jobId());
    if (job == null) cmd.replyTo().tell(noSuchJob());
    else if (job.finished()) cmd.replyTo().tell(StatusReply.success(job));
    else awaiting.add(cmd.replyTo());
    return this;
  }

  private Behavior<Command> onStart(StartRunAll cmd) {
    if (runningJob != null) {
      cmd.replyTo().tell(StatusReply.error(RUN_ALL_IN_FLIGHT));
      return this;
    }
    RunAllJob job = RunAllJob.started(UUID.randomUUID().toString(), Instant.now());
    List<String> finished =
        jobs.values().stream().filter(RunAllJob::finished).map(RunAllJob::id).toList();
    for (int i = 0; i <= finished.size() - JOBS_KEPT; i++) jobs.remove(finished.get(i));
    jobs.put(job.id(), job);
    runningJob = job.id();
    keepAliveWhileNeeded();
    ActorRef<Command> self = getContext().getSelf();
    getContext()
        .pipeToSelf(
            runAll.run(
                owner,
                cmd.watchIds(),
                new RunAllWatches.Progress() {
                  @Override
                  public void listed(int total) {
                    self.tell(new RunAllListed(job.id(), total));
                  }

                  @Override
                  public void finished(RunAllResult.WatchOutcome outcome) {
                    self.tell(new RunAllProgressed(job.id(), outcome));
                  }
                }),
            (result, failure) -> new RunAllFinished(job.id(), result, failure));
    cmd.replyTo().tell(StatusReply.success(job));
    return this;
  }

  private Behavior<Command> progress(String jobId, UnaryOperator<RunAllJob> change) {
    // The progress of a job that finished already (or was forgotten) changes nothing.
    jobs.computeIfPresent(jobId, (id, job) -> job.finished() ? job : change.apply(job));
    return this;
  }

  private Behavior<Command> onFinished(RunAllFinished done) {
    runningJob = null;
    getContext().scheduleOnce(jobsKeptFor, getContext().getSelf(), new ForgetJob(done.jobId()));
    if (done.failure() != null)
      getContext().getLog().error("event=run-all-failed owner={}", owner, done.failure());
    RunAllJob job =
        jobs.computeIfPresent(
            done.jobId(),
            (id, running) ->
                done.failure() != null
                    ? running.failed(RUN_ALL_FAILED, Instant.now())
                    : running.done(done.result(), Instant.now()));
    awaiting.forEach(waiter -> waiter.tell(job == null ? noSuchJob() : StatusReply.success(job)));
    awaiting.clear();
    return this;
  }

  private static StatusReply<RunAllJob> noSuchJob() {
    return EntityRefusal.reply(EntityRefusal.Code.NO_SUCH_JOB, NO_SUCH_JOB);
  }

  /**
   * Keeps the entity in memory (ticks through the shard) while it holds a job, running or kept, and
   * lets it passivate again once it holds none.
   */
  private void keepAliveWhileNeeded() {
    if (jobs.isEmpty() && runningJob == null) {
      if (keepAlive != null) keepAlive.cancel();
      keepAlive = null;
    } else if (keepAlive == null) {
      keepAlive =
          getContext()
              .getSystem()
              .scheduler()
              .scheduleAtFixedRate(
                  keepAliveEvery,
                  keepAliveEvery,
                  () -> viaShard.tell(new KeepAlive()),
                  getContext().getExecutionContext());
    }
  }
}
