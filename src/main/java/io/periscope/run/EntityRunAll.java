package io.periscope.run;

import io.periscope.entity.Asks;
import io.periscope.entity.Failures;
import io.periscope.watch.RunRecord;
import io.periscope.watch.Watch;
import io.periscope.watch.WatchEntity;
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
   * How long a caller waits for a whole run-all (POST /watches/run-all answers 503 after it). The
   * run-all itself goes on in the owner entity, refusing another, until every watch ran.
   */
  public static final Duration RUN_ALL_TIMEOUT = Duration.ofMinutes(30);

  private final ActorSystem<?> system;
  private final WatchEntity.Refs watches;
  private final Asks asks;
  private final int concurrency;

  public EntityRunAll(ActorSystem<?> system, WatchEntity.Refs watches, Asks asks, int concurrency) {
    this.system = system;
    this.watches = watches;
    this.asks = asks;
    this.concurrency = concurrency;
  }

  @Override
  public CompletionStage<RunAllResult> run(String owner, List<String> watchIds) {
    return Source.from(watchIds)
        .mapAsync(concurrency, id -> outcome(owner, id))
        .runWith(Sink.seq(), system)
        .thenApply(
            outcomes -> RunAllResult.of(outcomes.stream().flatMap(Optional::stream).toList()));
  }

  /** Empty for a deleted watch. */
  private CompletionStage<Optional<RunAllResult.WatchOutcome>> outcome(String owner, String id) {
    return asks.<WatchEntity.Command, Watch>ask(watches.watch(owner, id), WatchEntity.Get::new)
        .<Optional<RunAllResult.WatchOutcome>>thenCompose(
            watch ->
                !watch.enabled()
                    ? CompletableFuture.completedFuture(
                        Optional.of(RunAllResult.WatchOutcome.skipped(id)))
                    : asks.<WatchEntity.Command, RunRecord>ask(
                            watches.watch(owner, id),
                            r -> new WatchEntity.Run(RunRecord.TRIGGER_RUN_ALL, r),
                            RUN_TIMEOUT)
                        .thenApply(record -> Optional.of(RunAllResult.WatchOutcome.of(id, record))))
        .exceptionally(
            failure -> {
              if (Failures.isRefusal(failure))
                return Optional.empty(); // deleted before or during the run-all
              Throwable cause = Failures.unwrap(failure);
              return Optional.of(
                  RunAllResult.WatchOutcome.unfinished(
                      id, "the run did not finish (" + cause.getClass().getSimpleName() + ")"));
            });
  }
}
