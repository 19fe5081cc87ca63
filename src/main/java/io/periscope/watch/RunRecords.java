package io.periscope.watch;

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

  private static final String CRASHED = "the run failed unexpectedly";

  /** The record of a run whose pipeline failed unexpectedly: an error, its items left unseen. */
  public static RunRecord crashed(String trigger, Instant startedAt, Throwable failure) {
    return new RunRecord(
        newRunId(),
        trigger,
        startedAt,
        Duration.between(startedAt, Instant.now()).toMillis(),
        RunRecord.ERROR,
        null,
        null,
        List.of(),
        null,
        List.of(),
        0,
        0,
        new RunRecord.Collection(0, 0, 0, 0),
        List.of(),
        null,
        List.of(),
        0,
        new RunRecord.Trimmed(0, 0),
        CRASHED + " (" + failure.getClass().getSimpleName() + ")",
        0,
        null);
  }

  /**
   * Whether the run crashed, as opposed to ending in an error it foresaw (no verdict, every source
   * failed).
   */
  public static boolean isCrash(RunRecord record) {
    return record.error() != null && record.error().startsWith(CRASHED);
  }
}
