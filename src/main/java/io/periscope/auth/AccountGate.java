package io.periscope.auth;

import io.periscope.account.AccountAccess;
import io.periscope.watch.RunPipeline;
import io.periscope.watch.RunRecords;
import io.periscope.watch.Watch;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Runs a watch only while its owner's account is enabled: the watch of a disabled (or deleted)
 * account records a skipped run, an {@code error} naming the reason, without collecting anything or
 * asking any model. Nothing of the watch is changed, so it runs again once the account is enabled.
 * Before the slots of the node, so a skipped run takes none.
 */
public final class AccountGate implements RunPipeline.Wrapper {
  public static final String ACCOUNT_DISABLED = "skipped: the account is disabled";

  private final RunPipeline runs;
  private final AccountAccess access;

  public AccountGate(RunPipeline runs, AccountAccess access) {
    this.runs = runs;
    this.access = access;
  }

  @Override
  public RunPipeline inner() {
    return runs;
  }

  @Override
  public CompletionStage<Outcome> run(
      Watch watch, Memory memory, String trigger, Instant startedAt) {
    return access
        .access(watch.owner())
        .thenCompose(
            owner -> {
              boolean disabled =
                  owner.deleted() || (owner.account() != null && owner.account().disabled());
              return disabled
                  ? CompletableFuture.completedFuture(
                      new Outcome(
                          RunRecords.error(trigger, startedAt, ACCOUNT_DISABLED), List.of()))
                  : runs.run(watch, memory, trigger, startedAt);
            });
  }
}
