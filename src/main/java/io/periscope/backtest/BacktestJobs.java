package io.periscope.backtest;

import io.periscope.entity.Failures;
import io.periscope.entity.Refusal;
import io.periscope.run.RunAllJob;
import io.periscope.watch.Watch;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Backtests run as jobs: held in memory by the node that runs them, one running per owner, each
 * readable for {@link RunAllJob#KEPT_FOR} after it finished. A node that stops takes its jobs with
 * it (a backtest changes nothing, so it can simply be started again).
 */
public final class BacktestJobs {
  public static final String ALREADY_RUNNING = "a backtest of this account is already running";

  private final Backtester backtester;
  private final Clock clock;
  private final Map<String, Held> jobs = new ConcurrentHashMap<>();

  private record Held(String owner, BacktestJob job) {}

  public BacktestJobs(Backtester backtester, Clock clock) {
    this.backtester = backtester;
    this.clock = clock;
  }

  /**
   * Starts {@code candidate} on the watch's newest {@code runs} verdict runs and answers its job at
   * once; {@code CONFLICT} while the owner has one running.
   */
  public synchronized BacktestJob start(Watch candidate, int runs) {
    forgetOld();
    String owner = candidate.owner();
    if (jobs.values().stream().anyMatch(h -> h.owner().equals(owner) && !h.job().finished()))
      throw new Refusal(Refusal.Kind.CONFLICT, ALREADY_RUNNING);
    String id = UUID.randomUUID().toString();
    BacktestJob job = BacktestJob.started(id, candidate.id(), clock.instant());
    jobs.put(id, new Held(owner, job));
    backtester
        .run(
            candidate,
            runs,
            new Backtester.Progress() {
              @Override
              public void listed(int total) {
                update(id, j -> j.withTotal(total));
              }

              @Override
              public void tried(Backtest.Replay run) {
                update(id, j -> j.with(run));
              }
            })
        .whenComplete(
            (result, failure) ->
                update(
                    id,
                    j ->
                        failure == null
                            ? j.done(result, clock.instant())
                            : j.failed(why(failure), clock.instant())));
    return job;
  }

  /** The owner's job {@code id} of the watch {@code watchId}; empty for any other. */
  public Optional<BacktestJob> job(String owner, String watchId, String id) {
    forgetOld();
    Held held = jobs.get(id);
    return held == null || !held.owner().equals(owner) || !held.job().watchId().equals(watchId)
        ? Optional.empty()
        : Optional.of(held.job());
  }

  private void update(String id, java.util.function.UnaryOperator<BacktestJob> change) {
    jobs.computeIfPresent(id, (k, held) -> new Held(held.owner(), change.apply(held.job())));
  }

  private static String why(Throwable failure) {
    Throwable cause = Failures.unwrap(failure);
    return cause instanceof Refusal
        ? cause.getMessage()
        : "the backtest failed (" + cause.getClass().getSimpleName() + ")";
  }

  private void forgetOld() {
    Instant before = clock.instant().minus(RunAllJob.KEPT_FOR);
    jobs.values().removeIf(h -> h.job().finished() && h.job().finishedAt().isBefore(before));
  }
}
