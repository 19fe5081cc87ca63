package io.periscope.run;

import io.periscope.entity.DurableJobs;
import io.periscope.entity.JsonSerializable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A run-all as its owner follows it: {@code running} with the outcomes of the watches finished so
 * far, then {@code done} with the summary, or {@code failed} with an error. {@code total} is the
 * number of watches it covers, 0 until it has looked them up. Journaled by the run-all entity, kept
 * for {@link #KEPT_FOR} after it finished.
 */
public record RunAllJob(
    String id,
    String status,
    Instant startedAt,
    Instant finishedAt,
    int total,
    List<RunAllResult.WatchOutcome> outcomes,
    RunAllResult.Summary summary,
    String error)
    implements JsonSerializable, DurableJobs.Job {
  public static final String RUNNING = "running";
  public static final String DONE = "done";
  public static final String FAILED = "failed";

  /** How long a finished job can still be read. */
  public static final java.time.Duration KEPT_FOR = java.time.Duration.ofDays(1);

  public RunAllJob {
    outcomes = List.copyOf(outcomes);
  }

  public static RunAllJob started(String id, Instant at) {
    return new RunAllJob(id, RUNNING, at, null, 0, List.of(), null, null);
  }

  @Override
  public boolean finished() {
    return !status.equals(RUNNING);
  }

  public RunAllJob withTotal(int covered) {
    return new RunAllJob(id, status, startedAt, finishedAt, covered, outcomes, summary, error);
  }

  public RunAllJob with(RunAllResult.WatchOutcome outcome) {
    List<RunAllResult.WatchOutcome> more = new ArrayList<>(outcomes);
    more.add(outcome);
    return new RunAllJob(id, status, startedAt, finishedAt, total, more, summary, error);
  }

  /** Done with the outcomes gathered on the way, in the order they came. */
  public RunAllJob done(RunAllResult.Summary summary, Instant at) {
    return new RunAllJob(id, DONE, startedAt, at, summary.total(), outcomes, summary, null);
  }

  public RunAllJob failed(String why, Instant at) {
    return new RunAllJob(id, FAILED, startedAt, at, total, outcomes, null, why);
  }

  public RunAllResult result() {
    return new RunAllResult(summary, outcomes);
  }
}
