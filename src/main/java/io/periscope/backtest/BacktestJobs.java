package io.periscope.backtest;

import io.periscope.entity.Asks;
import io.periscope.entity.Refusal;
import io.periscope.watch.Watch;
import java.util.concurrent.CompletionStage;

/**
 * Backtests run as jobs of their owner's {@link BacktestEntity}: journaled, so a job's progress and
 * results answer from any node and after a restart.
 */
public final class BacktestJobs {
  private final BacktestEntity.Refs backtests;
  private final Asks asks;

  public BacktestJobs(BacktestEntity.Refs backtests, Asks asks) {
    this.backtests = backtests;
    this.asks = asks;
  }

  /**
   * Starts {@code candidate} on the watch's newest {@code runs} verdict runs and answers its job at
   * once; {@code CONFLICT} while the owner has one running.
   */
  public CompletionStage<BacktestJob> start(Watch candidate, int runs) {
    return asks.<BacktestEntity.Command, BacktestJob>ask(
            backtests.backtests(candidate.owner()),
            r -> new BacktestEntity.StartBacktest(candidate, runs, r))
        .exceptionally(Refusal.as(Refusal.Kind.CONFLICT));
  }

  /** The owner's job {@code id} of the watch {@code watchId}; {@code NOT_FOUND} for any other. */
  public CompletionStage<BacktestJob> job(String accountId, String watchId, String id) {
    return asks.<BacktestEntity.Command, BacktestJob>ask(
            backtests.backtests(accountId), r -> new BacktestEntity.GetBacktestJob(watchId, id, r))
        .exceptionally(Refusal.as(Refusal.Kind.NOT_FOUND));
  }
}
