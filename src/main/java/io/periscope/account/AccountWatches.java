package io.periscope.account;

import io.periscope.entity.Asks;
import io.periscope.entity.Failures;
import io.periscope.watch.Watch;
import io.periscope.watch.WatchEntity;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * An owner's watches as they are now: the account entity's ids, each watch asked. An id whose watch
 * is not there (deleted after it was listed, or left behind by a delete cut short) is skipped, and
 * the owner is asked to check and forget it ({@link AccountEntity.ForgetWatchIfGone}), so the next
 * listing does not wake that watch again.
 */
public final class AccountWatches {
  private final AccountEntity.Refs accountRefs;
  private final WatchEntity.Refs watches;
  private final Asks asks;

  public AccountWatches(AccountEntity.Refs accountRefs, WatchEntity.Refs watches, Asks asks) {
    this.accountRefs = accountRefs;
    this.watches = watches;
    this.asks = asks;
  }

  /** The owner's watches, in creation order. */
  public CompletionStage<List<Watch>> live(String accountId) {
    return asks.<AccountEntity.Command, AccountEntity.WatchIds>ask(
            accountRefs.account(accountId), AccountEntity.ListWatches::new)
        .thenCompose(
            ids -> {
              List<CompletableFuture<Watch>> reads =
                  ids.ids().stream()
                      .map(
                          id ->
                              asks.<WatchEntity.Command, Watch>ask(
                                      watches.watch(accountId, id), WatchEntity.Get::new)
                                  .exceptionally(e -> gone(accountId, id, e))
                                  .toCompletableFuture())
                      .toList();
              return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new))
                  .thenApply(
                      all ->
                          reads.stream()
                              .map(CompletableFuture::join)
                              .filter(Objects::nonNull)
                              .toList());
            });
  }

  /**
   * For an ask of a listed watch that failed: null for a refusal (the watch is not there), after
   * asking the owner to forget the id; any other failure stays what it is.
   */
  public <T> T gone(String accountId, String watchId, Throwable failure) {
    if (!Failures.isRefusal(failure)) return Failures.rethrow(failure);
    accountRefs.account(accountId).tell(new AccountEntity.ForgetWatchIfGone(watchId));
    return null;
  }
}
