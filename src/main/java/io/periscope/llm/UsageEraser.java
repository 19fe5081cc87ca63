package io.periscope.llm;

import io.periscope.persistence.JournalErasure;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.Done;

/**
 * A deleted account's model usage is part of its run history: erased with it, kept with it. Has the
 * shape of {@code account.AccountDataEraser} without implementing it (the account package runs
 * watches, which judge with a model: this package sits below it), so the composition root hands
 * {@link #erase} over as one.
 */
public final class UsageEraser {
  private final JournalErasure erasure;

  public UsageEraser(JournalErasure erasure) {
    this.erasure = erasure;
  }

  public CompletionStage<Done> erase(
      String accountId, List<String> watchIds, boolean eraseHistory) {
    return eraseHistory
        ? erasure.erase(UsageEntity.TYPE_KEY.name(), List.of(accountId))
        : CompletableFuture.completedFuture(Done.done());
  }
}
