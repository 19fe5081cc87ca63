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
    return error(trigger, startedAt, CRASHED + " (" + failure.getClass().getSimpleName() + ")");
  }

  /** The record of a run that ended as an error saying {@code problem}, with nothing collected. */
  public static RunRecord error(String trigger, Instant startedAt, String problem) {
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
        problem,
        0,
        null,
        null,
        null);
  }

  /**
   * What the record of a run ended by its deadline says; a wall-clock duration, e.g. {@code 3m}.
   */
  public static String deadlineProblem(Duration deadline) {
    return "the run's deadline of "
        + io.periscope.config.Durations.spelled(deadline)
        + " (RUN_DEADLINE) passed; the run was ended";
  }

  /** The record of a run ended by its deadline: an error, its items left unseen. */
  public static RunRecord deadlinePassed(String trigger, Instant startedAt, Duration deadline) {
    return error(trigger, startedAt, deadlineProblem(deadline));
  }

  /**
   * Whether the run crashed, as opposed to ending in an error it foresaw (no verdict, every source
   * failed).
   */
  public static boolean isCrash(RunRecord record) {
    return record.error() != null && record.error().startsWith(CRASHED);
  }
}
