package io.periscope.run;

import io.periscope.watch.RunPipeline;
import io.periscope.watch.RunRecords;
import io.periscope.watch.Watch;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * Runs a watch only while its owner's account is enabled: the watch of a disabled (or deleted)
 * account records a skipped run, an {@code error} naming the reason, without collecting anything or
 * asking any model. Nothing of the watch is changed, so it runs again once the account is enabled.
 * Before the slots of the node, so a skipped run takes none.
 */
public final class AccountGate implements RunPipeline.Wrapper {
  public static final String ACCOUNT_DISABLED = "skipped: the account is disabled";

  private final RunPipeline runs;
  private final Function<String, CompletionStage<Boolean>> enabled;

  /**
   * @param enabled whether the account of this id is enabled now (false once deleted)
   */
  public AccountGate(RunPipeline runs, Function<String, CompletionStage<Boolean>> enabled) {
    this.runs = runs;
    this.enabled = enabled;
  }

  @Override
  public RunPipeline inner() {
    return runs;
  }

  @Override
  public CompletionStage<Outcome> run(
      Watch watch, Memory memory, String trigger, Instant startedAt) {
    return enabled
        .apply(watch.owner())
        .thenCompose(
            open ->
                !open
                    ? CompletableFuture.completedFuture(
                        new Outcome(
                            RunRecords.error(trigger, startedAt, ACCOUNT_DISABLED), List.of()))
                    : runs.run(watch, memory, trigger, startedAt));
  }
}
