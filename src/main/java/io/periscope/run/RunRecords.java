package io.periscope.run;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** Building run records for the cases every pipeline shares. */
public final class RunRecords {
  private RunRecords() {}

  public static String newRunId() {
    return UUID.randomUUID().toString();
  }

  /** The record of a run whose pipeline failed unexpectedly: an error, its items left unseen. */
  public static RunRecord crashed(String trigger, Instant startedAt, Throwable failure) {
    return new RunRecord(newRunId(), trigger, startedAt, Duration.between(startedAt, Instant.now()).toMillis(),
        RunRecord.ERROR, null, null, List.of(), null, List.of(), 0, 0, new RunRecord.Collection(0, 0, 0, 0),
        List.of(), null, List.of(), 0, new RunRecord.Trimmed(0, 0),
        "the run failed unexpectedly (" + failure.getClass().getSimpleName() + ")");
  }
}
