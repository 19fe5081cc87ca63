package io.periscope.entity;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.apache.pekko.actor.Cancellable;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.japi.function.Function2;

/**
 * The bookkeeping of an entity that runs durable jobs for its owner, one at a time (a run-all, a
 * backtest). The journal holds the jobs: those finished less than {@code keptFor} ago, at most
 * {@code jobsKept} of them. One incarnation runs a job and hears its progress, so while it does the
 * entity keeps itself in memory by ticks through the shard (only those count as use); a job the
 * journal holds as running that this incarnation does not run was interrupted.
 *
 * @param <C> the entity's command type
 */
public final class DurableJobs<C> {

  /** What the bookkeeping reads of a job. */
  public interface Job {
    String id();

    boolean finished();

    /** When it finished; null while it runs. */
    Instant finishedAt();
  }

  private final ActorContext<C> context;
  private final RecipientRef<C> viaShard;
  private final C keepAliveTick;
  private final Duration keepAliveEvery;
  private final Duration keptFor;
  private final int jobsKept;

  /** The id of the job this incarnation runs, if one. */
  private String runningHere;

  private Cancellable keepAlive;

  /**
   * @param viaShard the entity as sharding addresses it (the entity itself where nothing passivates
   *     it)
   * @param keepAliveTick the command sent through {@code viaShard} every {@code keepAliveEvery}
   *     while a job runs here; the entity ignores it
   */
  public DurableJobs(
      ActorContext<C> context,
      RecipientRef<C> viaShard,
      C keepAliveTick,
      Duration keepAliveEvery,
      Duration keptFor,
      int jobsKept) {
    this.context = context;
    this.viaShard = viaShard;
    this.keepAliveTick = keepAliveTick;
    this.keepAliveEvery = keepAliveEvery;
    this.keptFor = keptFor;
    this.jobsKept = jobsKept;
  }

  /** Whether this incarnation runs a job. */
  public boolean anyRunningHere() {
    return runningHere != null;
  }

  public boolean runsHere(String jobId) {
    return jobId.equals(runningHere);
  }

  /**
   * Runs the job {@code jobId} here: the entity stays in memory until {@code ended} (the command
   * its outcome makes) comes back to it and it calls {@link #endedHere}.
   */
  public <R> void runHere(String jobId, CompletionStage<R> job, Function2<R, Throwable, C> ended) {
    startedHere(jobId);
    context.pipeToSelf(job, ended);
  }

  private void startedHere(String jobId) {
    runningHere = jobId;
    if (keepAlive == null)
      keepAlive =
          context
              .getSystem()
              .scheduler()
              .scheduleAtFixedRate(
                  keepAliveEvery,
                  keepAliveEvery,
                  () -> viaShard.tell(keepAliveTick),
                  context.getExecutionContext());
  }

  /** The job running here ended: the entity passivates freely again. */
  public void endedHere() {
    runningHere = null;
    stopped();
  }

  /** The entity stopped: no more ticks. */
  public void stopped() {
    if (keepAlive != null) keepAlive.cancel();
    keepAlive = null;
  }

  /** The event of a job this incarnation runs; none for a job interrupted meanwhile. */
  public <E> List<E> ifRunningHere(String jobId, E event) {
    return runsHere(jobId) ? List.of(event) : List.of();
  }

  /** The job of {@code jobs} the journal holds as running that this incarnation does not run. */
  public <J extends Job> Optional<J> interrupted(List<J> jobs) {
    return running(jobs).filter(job -> !runsHere(job.id()));
  }

  /** Whether {@code job} can still be read: running, or finished less than keptFor ago. */
  public boolean kept(Job job) {
    return keptAt(job, Instant.now());
  }

  private boolean keptAt(Job job, Instant at) {
    return !job.finished() || job.finishedAt().plus(keptFor).isAfter(at);
  }

  /**
   * The jobs kept once {@code started} (at {@code at}) joins them: those finished less than keptFor
   * before it, the newest {@code jobsKept} of them with the new one.
   */
  public <J extends Job> List<J> keptWith(List<J> jobs, J started, Instant at) {
    List<J> kept = new ArrayList<>();
    for (J j : jobs) if (keptAt(j, at)) kept.add(j);
    kept.add(started);
    return List.copyOf(kept.subList(Math.max(0, kept.size() - jobsKept), kept.size()));
  }

  /**
   * The items of a job's result its progress did not report, in the result's order: they come after
   * those it did, so the order a follower saw (and resumes from) stays the job's order.
   */
  public static <T> List<T> unreported(List<T> reported, List<T> result, Function<T, String> key) {
    Set<String> seen = new HashSet<>();
    reported.forEach(item -> seen.add(key.apply(item)));
    return result.stream().filter(item -> seen.add(key.apply(item))).toList();
  }

  public static <J extends Job> Optional<J> running(List<J> jobs) {
    return jobs.stream().filter(j -> !j.finished()).findFirst();
  }

  public static <J extends Job> Optional<J> job(List<J> jobs, String jobId) {
    return jobs.stream().filter(j -> j.id().equals(jobId)).findFirst();
  }

  /** The jobs with a running one changed; a finished (or forgotten) job stays as it is. */
  public static <J extends Job> List<J> change(
      List<J> jobs, String jobId, UnaryOperator<J> change) {
    return jobs.stream()
        .map(j -> j.id().equals(jobId) && !j.finished() ? change.apply(j) : j)
        .toList();
  }
}
