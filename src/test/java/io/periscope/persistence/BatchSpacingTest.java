package io.periscope.persistence;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.micrometer.core.instrument.Timer;
import io.periscope.metrics.Metrics;
import io.periscope.persistence.PostgresJournalDaoTest.EventWriter;
import io.periscope.testing.TestJournals;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.pekko.Done;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.persistence.query.EventEnvelope;
import org.apache.pekko.persistence.query.Offset;
import org.junit.Test;

/**
 * The embedded journal's write batches spaced ({@link BatchSpacing}): a batch after a quiet spell
 * waits for nothing, one soon after another waits out the rest of the spacing, and a stream of
 * persists on the H2 file journal commits in fewer batches than persists, every one of them
 * written.
 */
public class BatchSpacingTest {
  private static final long MS = 1_000_000;

  @Test
  public void aBatchAfterAQuietSpellBeginsAtOnceAndOneSoonAfterWaitsOutTheSpacing() {
    BatchSpacing spacing = new BatchSpacing(Duration.ofMillis(50));
    assertEquals("the first batch", 0, spacing.waitNanos(1_000 * MS));
    assertEquals("10 ms after it began", 40 * MS, spacing.waitNanos(1_010 * MS));
    // that one begins at 1,050 ms: the next, ready at 1,060 ms, waits until 1,100 ms
    assertEquals(40 * MS, spacing.waitNanos(1_060 * MS));
    assertEquals("past the spacing", 0, spacing.waitNanos(1_200 * MS));
    assertEquals("long after", 0, spacing.waitNanos(9_000 * MS));
  }

  @Test
  public void noSpacingNeverWaits() {
    BatchSpacing none = new BatchSpacing(Duration.ZERO);
    assertEquals(0, none.waitNanos(5 * MS));
    assertEquals(0, none.waitNanos(5 * MS));
  }

  @Test
  public void aStreamOfPersistsCommitsInFewerBatchesEveryOneWritten() throws Exception {
    Duration spacing = Duration.ofMillis(300);
    ActorTestKit testKit =
        ActorTestKit.create(
            ConfigFactory.parseMap(Map.of(EmbeddedJournalDao.SPACING, spacing.toMillis() + "ms"))
                .withFallback(
                    TestJournals.embedded(Files.createTempDirectory("periscope-batch-spacing"))));
    try {
      JournalSchema.create(testKit.system());
      TestProbe<Done> written = testKit.createTestProbe();
      int persists = 30;
      long before = batches(testKit);
      long start = System.nanoTime();
      for (int i = 0; i < persists; i++) { // one every 10 ms, as runs ending a few at a time
        String id = "w" + i;
        testKit
            .spawn(new EventWriter(id, "every", "second"))
            .tell(new EventWriter.Write(List.of(id + "/1"), written.getRef()));
        Thread.sleep(10);
      }
      for (int i = 0; i < persists; i++)
        written.expectMessage(Duration.ofSeconds(30), Done.getInstance());
      long elapsedMs = (System.nanoTime() - start) / MS;
      long committed = batches(testKit) - before;
      // batches begin at least the spacing apart, so no more of them than that allows
      assertTrue(
          committed + " batches in " + elapsedMs + " ms",
          committed <= 1 + elapsedMs / spacing.toMillis());
      assertTrue(committed + " batches for " + persists + " persists", committed < persists);
      List<EventEnvelope> every = PostgresJournalDaoTest.byTag(testKit, "every", Offset.noOffset());
      assertEquals(persists, every.size());
    } finally {
      testKit.shutdownTestKit();
    }
  }

  /** The journal's write batches committed so far. */
  private static long batches(ActorTestKit testKit) {
    Timer ok =
        Metrics.get(testKit.system())
            .registry()
            .find("periscope.journal.write")
            .tag("result", "ok")
            .timer();
    return ok == null ? 0 : ok.count();
  }
}
