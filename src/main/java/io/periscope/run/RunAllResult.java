package io.periscope.run;

import io.periscope.entity.JsonSerializable;
import io.periscope.watch.RunRecord;
import java.util.List;

/**
 * What a run-all did with each of an owner's watches, in the order the owner created them.
 *
 * <p>Status per watch: {@code ran} (a run was recorded with a verdict or nothing new), {@code
 * failed} (the run was recorded as an {@code error}, or did not finish at all: then {@code record}
 * is null and {@code error} says why), {@code skipped} (the watch is disabled; no record).
 */
public record RunAllResult(Summary summary, List<WatchOutcome> outcomes)
    implements JsonSerializable {
  public static final String RAN = "ran";
  public static final String FAILED = "failed";
  public static final String SKIPPED = "skipped";

  /**
   * Every counter but {@code deliveries} counts watches: {@code notified} those whose alert reached
   * at least one channel, {@code deliveries} the successful deliveries of all of them.
   */
  public record Summary(int total, int ran, int skipped, int failed, int notified, int deliveries)
      implements JsonSerializable {}

  public record WatchOutcome(String watchId, String status, RunRecord record, String error)
      implements JsonSerializable {
    static WatchOutcome skipped(String watchId) {
      return new WatchOutcome(watchId, SKIPPED, null, null);
    }

    public static WatchOutcome of(String watchId, RunRecord record) {
      return new WatchOutcome(
          watchId, record.outcome().equals(RunRecord.ERROR) ? FAILED : RAN, record, record.error());
    }

    static WatchOutcome unfinished(String watchId, String why) {
      return new WatchOutcome(watchId, FAILED, null, why);
    }
  }

  public static RunAllResult of(List<WatchOutcome> outcomes) {
    int notified =
        (int)
            outcomes.stream()
                .filter(o -> o.record() != null && o.record().notificationsSent() > 0)
                .count();
    int deliveries =
        outcomes.stream()
            .filter(o -> o.record() != null)
            .mapToInt(o -> o.record().notificationsSent())
            .sum();
    return new RunAllResult(
        new Summary(
            outcomes.size(),
            count(outcomes, RAN),
            count(outcomes, SKIPPED),
            count(outcomes, FAILED),
            notified,
            deliveries),
        List.copyOf(outcomes));
  }

  private static int count(List<WatchOutcome> outcomes, String status) {
    return (int) outcomes.stream().filter(o -> o.status().equals(status)).count();
  }
}
