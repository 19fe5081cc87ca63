package io.periscope.testing;

import io.periscope.llm.Judged;
import io.periscope.watch.RunRecord;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A run record for a test, told only what the test is about. Unless told otherwise it is a manual
 * run started now that took 5 ms and ended as nothing new, one item collected and fresh; no
 * verdict, evidence, deliveries or judged items; nothing trimmed, set aside or failed.
 */
public final class RunRecordBuilder {
  private String runId = UUID.randomUUID().toString();
  private String trigger = RunRecord.TRIGGER_MANUAL;
  private Instant startedAt = Instant.now();
  private String outcome = RunRecord.NOTHING_NEW;
  private String summary;
  private Double confidence;
  private List<RunRecord.Evidence> evidence = List.of();
  private String reasoning;
  private int collected = 1;
  private int fresh = 1;
  private RunRecord.Collection collection = new RunRecord.Collection(1, 1, 1, 0);
  private List<RunRecord.DeliveryRecord> deliveries = List.of();
  private int notificationsSent;
  private String error;
  private String decision;
  private Judged judged;

  public RunRecordBuilder runId(String runId) {
    this.runId = runId;
    return this;
  }

  public RunRecordBuilder trigger(String trigger) {
    this.trigger = trigger;
    return this;
  }

  public RunRecordBuilder startedAt(Instant startedAt) {
    this.startedAt = startedAt;
    return this;
  }

  public RunRecordBuilder outcome(String outcome) {
    this.outcome = outcome;
    return this;
  }

  /** The verdict's summary and confidence. */
  public RunRecordBuilder verdict(String summary, Double confidence) {
    this.summary = summary;
    this.confidence = confidence;
    return this;
  }

  public RunRecordBuilder evidence(List<RunRecord.Evidence> evidence) {
    this.evidence = evidence;
    return this;
  }

  public RunRecordBuilder reasoning(String reasoning) {
    this.reasoning = reasoning;
    return this;
  }

  /** {@code collected} items, {@code fresh} of them not seen before, and the page fetches. */
  public RunRecordBuilder collected(int collected, int fresh, RunRecord.Collection collection) {
    this.collected = collected;
    this.fresh = fresh;
    this.collection = collection;
    return this;
  }

  public RunRecordBuilder deliveries(List<RunRecord.DeliveryRecord> deliveries) {
    this.deliveries = deliveries;
    return this;
  }

  public RunRecordBuilder notificationsSent(int notificationsSent) {
    this.notificationsSent = notificationsSent;
    return this;
  }

  public RunRecordBuilder error(String error) {
    this.error = error;
    return this;
  }

  public RunRecordBuilder decision(String decision) {
    this.decision = decision;
    return this;
  }

  /** The items the run put before the model, and those it set aside. */
  public RunRecordBuilder judged(Judged judged) {
    this.judged = judged;
    return this;
  }

  public RunRecord build() {
    return new RunRecord(
        runId,
        trigger,
        startedAt,
        5,
        outcome,
        summary,
        confidence,
        evidence,
        reasoning,
        List.of(),
        collected,
        fresh,
        collection,
        List.of(),
        null,
        deliveries,
        notificationsSent,
        new RunRecord.Trimmed(0, 0),
        error,
        0,
        decision,
        judged,
        null);
  }
}
