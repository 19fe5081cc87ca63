package io.periscope.llm;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Counts a model call of an account before it is made: the stage fails (with the quota's refusal)
 * when the account may make no more today, and then no call is made.
 */
@FunctionalInterface
public interface ModelCallMeter {
  CompletionStage<?> use(String accountId);

  /** Every call allowed, none counted. */
  ModelCallMeter UNMETERED = accountId -> CompletableFuture.completedFuture(null);
}
