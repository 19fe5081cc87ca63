package io.periscope.account;

import io.periscope.entity.Asks;
import io.periscope.entity.EntityRefusal;
import io.periscope.entity.Failures;
import io.periscope.entity.Refusal;
import io.periscope.run.EntityRunAll;
import io.periscope.run.RunAllJob;
import io.periscope.watch.RunRecord;
import io.periscope.watch.WatchEntity;
import io.periscope.watch.WatchRuns;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Runs on request, ignoring schedules: the one door the route layer (POST /watches/:id/run,
 * /watches/run-all and its jobs) and the command line's {@code run} both go through.
 */
public final class OnDemandRuns {
  private final WatchEntity.Refs watches;
  private final AccountEntity.Refs accountRefs;
  private final RunAllEntity.Refs runAlls;
  private final Asks asks;
  private final Budgets budgets;

  /** Fails when the owner may not start a run now (a budget of the month spent). */
  @FunctionalInterface
  public interface Budgets {
    CompletionStage<?> check(String accountId);

    Budgets NONE = accountId -> CompletableFuture.completedFuture(null);
  }

  /**
   * @param accountRefs where an owner's watch ids are listed for its run-all
   * @param runAlls where an owner's run-all jobs are
   * @param budgets checked before a run now starts
   */
  public OnDemandRuns(
      WatchEntity.Refs watches,
      AccountEntity.Refs accountRefs,
      RunAllEntity.Refs runAlls,
      Asks asks,
      Budgets budgets) {
    this.watches = watches;
    this.accountRefs = accountRefs;
    this.runAlls = runAlls;
    this.asks = asks;
    this.budgets = budgets;
  }

  /**
   * One watch now, enabled or not; refused when the owner spent a budget of the month (before it
   * starts) or the watch does not exist, and {@code UNAVAILABLE} when the watch stopped or
   * restarted before the run was recorded, here or with its node.
   */
  public CompletionStage<RunRecord> runNow(String accountId, String watchId) {
    return budgets.check(accountId).thenCompose(within -> askRun(accountId, watchId));
  }

  private CompletionStage<RunRecord> askRun(String accountId, String watchId) {
    return WatchRuns.askRun(
            asks,
            watches.watch(accountId, watchId),
            RunRecord.TRIGGER_MANUAL,
            EntityRunAll.RUN_TIMEOUT)
        .exceptionally(
            failure -> {
              if (WatchRuns.interrupted(failure))
                throw new Refusal(Refusal.Kind.UNAVAILABLE, WatchEntity.RUN_INTERRUPTED);
              return Failures.rethrow(failure);
            });
  }

  /**
   * Starts an owner's run-all and answers its job at once; {@code CONFLICT} while one is in flight.
   */
  public CompletionStage<RunAllJob> startRunAll(String accountId) {
    return asks.<AccountEntity.Command, AccountEntity.WatchIds>ask(
            accountRefs.account(accountId), AccountEntity.ListWatches::new)
        .thenCompose(
            ids ->
                asks.<RunAllEntity.Command, RunAllJob>ask(
                    runAlls.runAll(accountId), r -> new RunAllEntity.StartRunAll(ids.ids(), r)))
        .exceptionally(Refusal.as(Refusal.Kind.CONFLICT));
  }

  /** An owner's run-all job as it stands; {@code NOT_FOUND} for an unknown one. */
  public CompletionStage<RunAllJob> runAllJob(String accountId, String jobId) {
    return asks.<RunAllEntity.Command, RunAllJob>ask(
            runAlls.runAll(accountId), r -> new RunAllEntity.GetRunAllJob(jobId, r))
        .exceptionally(Refusal.as(Refusal.Kind.NOT_FOUND));
  }

  /**
   * The job once it finished, waiting at most {@code patience}; {@code UNAVAILABLE} when the
   * account entity stopped before it finished, here or with its node (a job just started that the
   * entity no longer knows went with it).
   */
  public CompletionStage<RunAllJob> awaitRunAllJob(
      String accountId, String jobId, Duration patience) {
    return asks.<RunAllEntity.Command, RunAllJob>askWhileOwed(
            runAlls.runAll(accountId),
            r -> new RunAllEntity.AwaitRunAllJob(jobId, r),
            patience,
            // owed while the job runs: one the entity no longer knows, or finished as interrupted
            // by an incarnation on another node after its node died, is owed no more
            asker ->
                asks.<RunAllEntity.Command, RunAllJob>ask(
                        runAlls.runAll(accountId), r -> new RunAllEntity.GetRunAllJob(jobId, r))
                    .thenApply(job -> !job.finished())
                    .exceptionally(failure -> Failures.isRefusal(failure) ? false : null),
            () -> new EntityRefusal(EntityRefusal.Code.NO_SUCH_JOB, RunAllEntity.NO_SUCH_JOB))
        .exceptionally(
            failure -> {
              if (!Failures.isRefusal(failure)) return Failures.rethrow(failure);
              throw new Refusal(
                  Refusal.Kind.UNAVAILABLE,
                  EntityRefusal.is(failure, EntityRefusal.Code.NO_SUCH_JOB)
                      ? RunAllEntity.RUN_ALL_INTERRUPTED
                      : Failures.unwrap(failure).getMessage());
            });
  }
}
