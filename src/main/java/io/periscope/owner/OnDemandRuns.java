package io.periscope.owner;

import io.periscope.entity.Asks;
import io.periscope.run.EntityRunAll;
import io.periscope.run.RunAllResult;
import io.periscope.watch.RunRecord;
import io.periscope.watch.WatchEntity;
import java.util.concurrent.CompletionStage;

/**
 * Runs on request, ignoring schedules: the one door the route layer (POST /watches/:id/run, POST
 * /watches/run-all) and the command line's {@code run} both go through.
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

  /**
   * Every enabled watch of the owner, through the owner entity: refused while another run-all of
   * the owner is in flight.
   */
  public CompletionStage<RunAllResult> runAll(String owner) {
    return asks.ask(owners.owner(owner), OwnerEntity.RunAll::new, EntityRunAll.RUN_ALL_TIMEOUT);
  }
}
