package io.periscope.account;

import io.periscope.entity.Failures;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.apache.pekko.Done;

/**
 * What a package keeps about an account, removed when the account is deleted. Each package that
 * keeps such data (devices, channels, feedback, model usage) erases its own; the composition root
 * hands {@link AccountAdmin} the list, which runs them one after the other once the account's
 * watches are deleted.
 */
@FunctionalInterface
public interface AccountDataEraser {
  /**
   * Removes what the account keeps here; with {@code eraseHistory}, also what is part of its run
   * history. {@code watchIds} are the account's watches, deleted by now.
   */
  CompletionStage<Done> erase(String accountId, List<String> watchIds, boolean eraseHistory);

  /**
   * Removes each item at once; done once every removal is, a refusal (already gone) counting as
   * done.
   */
  static <T> CompletionStage<Done> removeEach(
      List<T> items, Function<T, CompletionStage<Done>> remove) {
    return CompletableFuture.allOf(
            items.stream()
                .map(item -> ignoringRefusal(remove.apply(item)).toCompletableFuture())
                .toArray(CompletableFuture[]::new))
        .thenApply(v -> Done.done());
  }

  /** A refusal (already gone) counts as done. */
  static CompletionStage<Done> ignoringRefusal(CompletionStage<Done> stage) {
    return stage.exceptionally(
        failure -> {
          if (Failures.isRefusal(failure)) return Done.done();
          return Failures.rethrow(failure);
        });
  }
}
