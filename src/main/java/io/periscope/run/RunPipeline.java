package io.periscope.run;

import io.periscope.watch.Watch;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionStage;

/** What the watch entity asks of a run: collect, keep what is fresh, judge, notify; the entity records it. */
@FunctionalInterface
public interface RunPipeline {
  /**
   * @param seen the identities this watch has already judged
   * @return the record, and the identities to mark seen (none when no verdict was had)
   */
  CompletionStage<Outcome> run(Watch watch, Set<String> seen, String trigger);

  record Outcome(RunRecord record, List<String> newlySeen) {}
}
