package io.periscope.watch;

import io.periscope.notify.Alert;
import io.periscope.notify.Delivery;
import io.periscope.source.PageSnapshot;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * What the watch entity asks of a run: collect, keep what is fresh, judge; and of an alert: deliver
 * it to one channel. The entity records the outcome with the alert the run hands back, and only
 * then delivers it, one attempt at a time per channel, until each is delivered or fails for good
 * (the items are already recorded as seen, so no later run alerts them again).
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
   * @param pages what it last saw of each page source, by {@code type:value}
   */
  record Memory(
      Set<String> seen,
      Map<String, Instant> baselines,
      Instant baselineAt,
      Map<String, PageSnapshot> pages) {
    public Memory {
      seen = SeenKeys.frozen(seen);
      baselines = Map.copyOf(baselines);
      pages = pages == null ? Map.of() : Map.copyOf(pages);
    }

    public Memory(Set<String> seen, Map<String, Instant> baselines, Instant baselineAt) {
      this(seen, baselines, baselineAt, Map.of());
    }
  }

  /**
   * The run crashed (the pipeline failed unexpectedly); the watch recorded it as {@code record}.
   */
  default void runCrashed(Watch watch, RunRecord record) {}

  /**
   * A previous incarnation of the watch stopped while the alert of run {@code runId} was going out
   * to {@code channels}, as journals written before the outbox record it (without the alert, which
   * cannot be sent again): whether it arrived is not known; this tells the operator.
   */
  default void alertInterrupted(Watch watch, String runId, List<String> channels) {}

  /**
   * One attempt to deliver {@code alert} to {@code channel}: completes, never exceptionally, with
   * one delivery (one per device for {@code push}) that says whether a failure is retryable. This
   * default, for runtimes that send nothing, fails it for good.
   */
  default CompletionStage<List<Delivery>> deliver(String channel, Alert alert) {
    return CompletableFuture.completedFuture(
        List.of(Delivery.failed(channel, "this runtime sends no alerts")));
  }

  /**
   * The delivery of {@code alert} to {@code channel} failed for good ({@code reason}): permanently,
   * or its retries ran out. Called once per delivery, not per attempt: the operator hears of it.
   */
  default void deliveryFailed(Alert alert, String channel, String reason) {}

  /**
   * A pipeline that changes how runs run and hands everything else to the one it wraps, {@link
   * #inner()}: the operator's alerts and the deliveries.
   */
  interface Wrapper extends RunPipeline {
    RunPipeline inner();

    @Override
    default void runCrashed(Watch watch, RunRecord record) {
      inner().runCrashed(watch, record);
    }

    @Override
    default void alertInterrupted(Watch watch, String runId, List<String> channels) {
      inner().alertInterrupted(watch, runId, channels);
    }

    @Override
    default CompletionStage<List<Delivery>> deliver(String channel, Alert alert) {
      return inner().deliver(channel, alert);
    }

    @Override
    default void deliveryFailed(Alert alert, String channel, String reason) {
      inner().deliveryFailed(alert, channel, reason);
    }
  }

  /** A run's alert, not sent yet, to {@code channels}. */
  record PendingAlert(List<String> channels, Alert alert) {}

  /**
   * {@code alert} is null when the run sends nothing; then the record is final as it is. {@code
   * baselined}: the sources that took their baseline in this run, and when. {@code pages}: what the
   * run saw of the page sources whose changes are all judged (null when none), by {@code
   * type:value}.
   */
  record Outcome(
      RunRecord record,
      List<String> newlySeen,
      PendingAlert alert,
      Map<String, Instant> baselined,
      Map<String, PageSnapshot> pages) {
    public Outcome {
      baselined = Map.copyOf(baselined);
      pages = pages == null || pages.isEmpty() ? null : Map.copyOf(pages);
    }

    public Outcome(
        RunRecord record,
        List<String> newlySeen,
        PendingAlert alert,
        Map<String, Instant> baselined) {
      this(record, newlySeen, alert, baselined, null);
    }

    public Outcome(RunRecord record, List<String> newlySeen) {
      this(record, newlySeen, null, Map.of());
    }
  }
}
