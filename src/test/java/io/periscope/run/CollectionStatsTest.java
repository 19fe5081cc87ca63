package io.periscope.run;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import io.periscope.testing.RunRecordBuilder;
import io.periscope.watch.RunRecord;
import java.time.Instant;
import java.util.List;
import org.junit.Test;

public class CollectionStatsTest {
  private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");

  private static RunRecord run(Instant startedAt, int collected, int attempted, int extracted) {
    return new RunRecordBuilder()
        .startedAt(startedAt)
        .outcome(RunRecord.NO_MATCH)
        .collected(
            collected,
            attempted,
            new RunRecord.Collection(attempted, collected, extracted, attempted - extracted))
        .build();
  }

  @Test
  public void sumsTheRunsOfTheLastDayAndRatesExtraction() {
    CollectionStats stats =
        CollectionStats.of(
            List.of(
                run(NOW.minusSeconds(60), 10, 4, 3),
                run(NOW.minus(CollectionStats.WINDOW).plusSeconds(1), 5, 4, 1),
                run(NOW.minus(CollectionStats.WINDOW).minusSeconds(1), 100, 100, 100)),
            NOW);
    assertEquals(
        new CollectionStats(NOW.minus(CollectionStats.WINDOW), 2, 15, 8, 8, 4, 4, 0.5), stats);
  }

  @Test
  public void withoutPageFetchesThereIsNoExtractionRate() {
    CollectionStats stats = CollectionStats.of(List.of(run(NOW, 3, 0, 0)), NOW);
    assertEquals(3, stats.collected());
    assertNull(stats.extractionRate());
  }
}
