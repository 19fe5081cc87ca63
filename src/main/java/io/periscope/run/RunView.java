package io.periscope.run;

import io.periscope.source.SourceError;
import java.time.Instant;
import java.util.List;

/** A run as the interface answers it: the run result of run-now and run-all, and each item of run history. */
public record RunView(
    String watchId,
    String runId,
    String trigger,
    Instant startedAt,
    long durationMs,
    String outcome,
    String summary,
    Double confidence,
    List<RunRecord.Evidence> evidence,
    String reasoning,
    List<SourceError> sourceErrors,
    int collected,
    int fresh,
    RunRecord.Collection collection,
    List<String> models,
    String trustTier,
    List<RunRecord.DeliveryRecord> deliveries,
    int notificationsSent,
    RunRecord.Trimmed trimmed,
    String error) {

  public static RunView of(String watchId, RunRecord r) {
    return new RunView(watchId, r.runId(), r.trigger(), r.startedAt(), r.durationMs(), r.outcome(), r.summary(),
        r.confidence(), r.evidence(), r.reasoning(), r.sourceErrors(), r.collected(), r.fresh(), r.collection(),
        r.models(), r.trustTier(), r.deliveries(), r.notificationsSent(), r.trimmed(), r.error());
  }
}
