package io.periscope.run;

import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * Runs an owner's watches once, now, ignoring schedules; the account entity makes sure one runs at
 * a time.
 */
@FunctionalInterface
public interface RunAllWatches {
  /**
   * @param watchIds every id the owner registered, oldest first; deleted ones are left out of the
   *     result
   * @param progress told how many watches the run-all covers, then of each watch as it finishes
   */
  CompletionStage<RunAllResult> run(String accountId, List<String> watchIds, Progress progress);

  /** What a run-all reports while it goes; called from any thread. */
  interface Progress {
    /** The run-all found {@code total} watches (deleted ones left out) and starts running them. */
    void listed(int total);

    /** One watch finished (ran, failed or was skipped). */
    void finished(RunAllResult.WatchOutcome outcome);

    Progress NONE =
        new Progress() {
          @Override
          public void listed(int total) {}

          @Override
          public void finished(RunAllResult.WatchOutcome outcome) {}
        };
  }
}
