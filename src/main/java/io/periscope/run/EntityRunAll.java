package io.periscope.run;

import io.periscope.entity.Asks;
import io.periscope.entity.Failures;
import io.periscope.notify.AdminAlerts;
import io.periscope.notify.RepeatedAlerts;
import io.periscope.watch.RunRecord;
import io.periscope.watch.Watch;
import io.periscope.watch.WatchEntity;
import io.periscope.watch.WatchRuns;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.stream.javadsl.Sink;
import org.apache.pekko.stream.javadsl.Source;

/**
 * Run-all through the watch entities: every enabled watch, {@code concurrency} at a time (1,
 * sequential, by default). Each run goes through its entity like run-now, so a run-all racing a
 * scheduled run never judges the same items twice.
 */
public final class EntityRunAll implements RunAllWatches {
  /** How long one watch's run may take before run-all counts it as failed and goes on. */
  public static final Duration RUN_TIMEOUT = Duration.ofMinutes(5);

  /**
   * How long a caller of the synchronous run-all waits for it (POST /watches/run-all answers 503
   * with the job after it). The run-all itself goes on in the account entity, refusing another,
   * until every watch ran; its job can be followed.
   */
  public static final Duration RUN_ALL_WAIT = Duration.ofMinutes(10);

  /** How long the command line waits for a whole run-all run in its own process. */
  public static final Duration RUN_ALL_TIMEOUT = Duration.ofMinutes(30);

  private final ActorSystem<?> system;
  private final WatchEntity.Refs watches;
  private final Asks asks;
  private final int concurrency;
  private final RepeatedAlerts runAlerts;

  /**
   * @param runAlerts told of a watch whose run did not finish in time (its entity records the run,
   *     and alerts on it, only if it ever does)
   */
  public EntityRunAll(
      ActorSystem<?> system,
      WatchEntity.Refs watches,
      Asks asks,
      int concurrency,
      RepeatedAlerts runAlerts) {
    this.system = system;
    this.watches = watches;
    this.asks = asks;
    this.concurrency = concurrency;
    this.runAlerts = runAlerts;
  }

  /** How many watches are looked up at once before the runs start. */
  private static final int LOOKUPS_AT_ONCE = 8;

  @Override
  public CompletionStage<RunAllResult> run(
      String accountId, List<String> watchIds, RunAllWatches.Progress progress) {
    return Source.from(watchIds)
        .mapAsync(LOOKUPS_AT_ONCE, id -> lookUp(accountId, id))
        .runWith(Sink.seq(), system)
        .thenCompose(
            found -> {
              List<Listed> watches = found.stream().flatMap(Optional::stream).toList();
              progress.listed(watches.size());
              return Source.from(watches)
                  .mapAsync(concurrency, watch -> outcome(accountId, watch, progress))
                  .runWith(Sink.seq(), system);
            })
        .thenApply(
            outcomes -> RunAllResult.of(outcomes.stream().flatMap(Optional::stream).toList()));
  }

  /** A watch the run-all covers. */
  private record Listed(String id, boolean enabled) {}

  /** Empty for a deleted (or never created) watch. */
  private CompletionStage<Optional<Listed>> lookUp(String accountId, String id) {
    return asks.<WatchEntity.Command, Watch>ask(watches.watch(accountId, id), WatchEntity.Get::new)
        .thenApply(watch -> Optional.of(new Listed(id, watch.enabled())))
        .exceptionally(
            failure ->
                Failures.isRefusal(failure)
                    ? Optional.empty()
                    // not known to be deleted or disabled: its run says what went wrong
                    : Optional.of(new Listed(id, true)));
  }

  /** Empty for a watch deleted during the run-all. */
  private CompletionStage<Optional<RunAllResult.WatchOutcome>> outcome(
      String accountId, Listed watch, RunAllWatches.Progress progress) {
    String id = watch.id();
    CompletionStage<Optional<RunAllResult.WatchOutcome>> outcome =
        !watch.enabled()
            ? CompletableFuture.completedFuture(Optional.of(RunAllResult.WatchOutcome.skipped(id)))
            : WatchRuns.askRun(
                    asks, watches.watch(accountId, id), RunRecord.TRIGGER_RUN_ALL, RUN_TIMEOUT)
                .thenApply(record -> Optional.of(RunAllResult.WatchOutcome.of(id, record)))
                .exceptionally(
                    failure -> {
                      boolean interrupted = WatchRuns.interrupted(failure);
                      if (Failures.isRefusal(failure) && !interrupted) return Optional.empty();
                      Throwable cause = Failures.unwrap(failure);
                      String why =
                          interrupted
                              ? "the run did not finish (the watch stopped or restarted during it)"
                              : "the run did not finish (" + cause.getClass().getSimpleName() + ")";
                      runAlerts.failed(AdminAlerts.Kind.WATCH_ERRORED, accountId, id, why);
                      return Optional.of(RunAllResult.WatchOutcome.unfinished(id, why));
                    });
    return outcome.thenApply(
        o -> {
          o.ifPresent(progress::finished);
          return o;
        });
  }
}
