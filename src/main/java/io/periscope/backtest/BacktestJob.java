package io.periscope.backtest;

import io.periscope.entity.DurableJobs;
import io.periscope.entity.JsonSerializable;
import io.periscope.llm.ModelUsage;
import io.periscope.run.RunAllJob;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A backtest as its owner follows it, with run-all's statuses ({@link RunAllJob#RUNNING}, {@link
 * RunAllJob#DONE}, {@link RunAllJob#FAILED}): the runs tried so far, newest first once done, then
 * the summary and usage, or the error. {@code total} is 0 until the runs are looked up.
 */
public record BacktestJob(
    String id,
    String watchId,
    String status,
    Instant startedAt,
    Instant finishedAt,
    int total,
    List<Backtest.Replay> runs,
    Backtest.Summary summary,
    ModelUsage usage,
    String error)
    implements JsonSerializable, DurableJobs.Job {
  public BacktestJob {
    runs = List.copyOf(runs);
  }

  static BacktestJob started(String id, String watchId, Instant at) {
    return new BacktestJob(
        id, watchId, RunAllJob.RUNNING, at, null, 0, List.of(), null, null, null);
  }

  @Override
  public boolean finished() {
    return !status.equals(RunAllJob.RUNNING);
  }

  BacktestJob withTotal(int listed) {
    return new BacktestJob(
        id, watchId, status, startedAt, finishedAt, listed, runs, summary, usage, error);
  }

  BacktestJob with(Backtest.Replay run) {
    List<Backtest.Replay> more = new ArrayList<>(runs);
    more.add(run);
    return new BacktestJob(
        id, watchId, status, startedAt, finishedAt, total, more, summary, usage, error);
  }

  /** Done: the runs tried so far are all of them, in the job's order. */
  BacktestJob done(Backtest.Summary summary, ModelUsage spent, Instant at) {
    return new BacktestJob(
        id, watchId, RunAllJob.DONE, startedAt, at, runs.size(), runs, summary, spent, null);
  }

  BacktestJob failed(String why, Instant at) {
    return new BacktestJob(
        id, watchId, RunAllJob.FAILED, startedAt, at, total, runs, null, null, why);
  }
}
