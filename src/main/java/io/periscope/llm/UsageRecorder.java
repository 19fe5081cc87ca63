package io.periscope.llm;

import java.util.function.Consumer;

/**
 * Where the model calls made for an account, and a watch where there is one, report what each took:
 * as {@link PooledModel#ask(StructuredPrompt, java.util.function.Function, Consumer, Consumer)}
 * tells it, each call as it is answered.
 */
@FunctionalInterface
public interface UsageRecorder {
  /** The calls of {@code accountId} for {@code watchId} (null: for no watch). */
  Consumer<ModelUsage> recorder(String accountId, String watchId);

  /** Nothing kept (the command line, where no account is asked for). */
  UsageRecorder NONE = (accountId, watchId) -> used -> {};
}
