package io.periscope.owner;

import io.periscope.entity.Asks;
import io.periscope.run.EntityRunAll;
import io.periscope.run.RunAllJob;
import io.periscope.watch.RunRecord;
import io.periscope.watch.WatchEntity;
import java.time.Duration;
import java.util.concurrent.CompletionStage;

/**
 * Runs on request, ignoring schedules: the one door the route layer (POST /watches/:id/run,
 * /watches/run-all and its jobs) and the command line's {@code run} both go through.
 */
public final class OnDemandRuns {
  private final WatchEntity.Refs watches;
  private final OwnerEntity.Refs owners;
  private final Asks asks;

  public OnDemandRuns(WatchEntity.Refs watches, OwnerEntity.Refs owners, Asks asks) {
    this.watches = watches;
    this.owners = owners;
    this.asks = asks;
  }

  /** One watch now, enabled or not; refused when the watch does not exist. */
  public CompletionStage<RunRecord> runNow(String owner, String watchId) {
    return asks.ask(
        watches.watch(owner, watchId),
        r -> new WatchEntity.Run(RunRecord.TRIGGER_MANUAL, r),
        EntityRunAll.RUN_TIMEOUT);
  }

  /** Starts an owner's run-all and answers its job at once (refused while one is in flight). */
  public CompletionStage<RunAllJob> startRunAll(String owner) {
    return asks.ask(owners.owner(owner), OwnerEntity.StartRunAll::new);
  }

  /** An owner's run-all job as it stands; refused for an unknown one. */
  public CompletionStage<RunAllJob> runAllJob(String owner, String jobId) {
    return asks.ask(owners.owner(owner), r -> new OwnerEntity.GetRunAllJob(jobId, r));
  }

  /** The job once it finished, waiting at most {@code patience}. */
  public CompletionStage<RunAllJob> awaitRunAllJob(String owner, String jobId, Duration patience) {
    return asks.ask(owners.owner(owner), r -> new OwnerEntity.AwaitRunAllJob(jobId, r), patience);
  }
}
