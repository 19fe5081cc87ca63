package io.periscope.watch;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * What the watch entity asks of a run: collect, keep what is fresh, judge. The entity records the
 * outcome, and only then sends the alert the run hands back, so a node that dies in between loses
 * that alert instead of sending it a second time (the items are already recorded as seen).
 */
@FunctionalInterface
public interface RunPipeline {
  /**
   * @param memory what the watch remembers of its earlier runs
   * @param startedAt when the watch started the run: the record's start, so a run that waited for a
   *     slot of this node (RUNS_PER_NODE) counts the wait in its duration, not as a later start
   * @return the record, the item keys to mark seen (judged ones only when a verdict was had) and
   *     the alert to send, if any
   */
  CompletionStage<Outcome> run(Watch watch, Memory memory, String trigger, Instant startedAt);

  /**
   * What a watch remembers for its next run.
   *
   * @param seen the keys of the items it judged or set aside as old news; keys written before
   *     identities were scoped to their source are bare identities
   * @param baselines when each source (by {@code type:value}) took its baseline
   * @param baselineAt the baseline of a source that has none yet: the watch's creation for the
   *     sources of its first run, else the run's start
   */
  record Memory(Set<String> seen, Map<String, Instant> baselines, Instant baselineAt) {
    public Memory {
      seen = Set.copyOf(seen);
      baselines = Map.copyOf(baselines);
    }
  }

  /**
   * The run crashed (the pipeline failed unexpectedly); the watch recorded it as {@code record}.
   */
  default void runCrashed(Watch watch, RunRecord record) {}

  /**
   * A previous incarnation of the watch stopped while the alert of run {@code runId} was going out
   * to {@code channels}: whether it arrived is not known. Alerts are at most once, so it is not
   * sent again; this tells the operator.
   */
  default void alertInterrupted(Watch watch, String runId, List<String> channels) {}

  /**
   * A run's alert, not sent yet: {@code send} delivers it to {@code channels} and completes, never
   * exceptionally, with one delivery per channel.
   */
  record PendingAlert(
      List<String> channels, Supplier<CompletionStage<List<RunRecord.DeliveryRecord>>> send) {}

  /**
   * {@code alert} is null when the run sends nothing; then the record is final as it is. {@code
   * baselined}: the sources that took their baseline in this run, and when.
   */
  record Outcome(
      RunRecord record,
      List<String> newlySeen,
      PendingAlert alert,
      Map<String, Instant> baselined) {
    public Outcome {
      baselined = Map.copyOf(baselined);
    }

    public Outcome(RunRecord record, List<String> newlySeen) {
      this(record, newlySeen, null, Map.of());
    }
  }
}
