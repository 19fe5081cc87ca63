package io.periscope.run;

import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * Runs an owner's watches once, now, ignoring schedules; the owner entity makes sure one runs at a
 * time.
 */
@FunctionalInterface
public interface RunAllWatches {
  /**
   * @param watchIds every id the owner registered, oldest first; deleted ones are left out of the
   *     result
   */
  CompletionStage<RunAllResult> run(String owner, List<String> watchIds);
}
