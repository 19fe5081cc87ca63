package io.periscope.run;

import io.periscope.watch.RunRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;

/**
 * What an owner's recent runs collected: items collected from sources, fresh ones, and the article
 * pages fetched for them ({@code attempted} = {@code extracted} + {@code failed}). {@code
 * extractionRate} is extracted over attempted, absent when nothing was attempted.
 *
 * <p>The window: runs started in the last {@link #WINDOW}, of each watch's {@link #RUNS_PER_WATCH}
 * newest runs (the ones its entity keeps at hand), deleted watches included.
 */
public record CollectionStats(
    Instant since,
    int runs,
    int collected,
    int fresh,
    int attempted,
    int extracted,
    int failed,
    Double extractionRate) {

  public static final Duration WINDOW = Duration.ofHours(24);
  public static final int RUNS_PER_WATCH = 100;

  public static CollectionStats of(Collection<RunRecord> records, Instant now) {
    Instant since = now.minus(WINDOW);
    int runs = 0, collected = 0, fresh = 0, attempted = 0, extracted = 0, failed = 0;
    for (RunRecord r : records) {
      if (r.startedAt().isBefore(since)) continue;
      runs++;
      collected += r.collected();
      fresh += r.fresh();
      attempted += r.collection().attempted();
      extracted += r.collection().extracted();
      failed += r.collection().failed();
    }
    return new CollectionStats(
        since,
        runs,
        collected,
        fresh,
        attempted,
        extracted,
        failed,
        attempted == 0 ? null : (double) extracted / attempted);
  }
}
