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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.pekko.Done;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.persistence.query.EventEnvelope;
import org.apache.pekko.persistence.query.Offset;
import org.junit.Test;

/**
 * The embedded journal's write batches spaced ({@link BatchSpacing}): a batch waits out the rest of
 * the spacing only after one that held several persistence ids, so a serial writer (one persist
 * pending at a time, of one entity or of several in turn) commits as fast as before, while writers
 * whose persists overlap commit in fewer batches than persists, every one of them written.
 */
public class BatchSpacingTest {
  private static final long MS = 1_000_000;

  @Test
  public void aBatchAfterOneOfSeveralIdsWaitsOutTheSpacing() {
    BatchSpacing spacing = new BatchSpacing(Duration.ofMillis(50));
    assertEquals("the first batch", 0, spacing.waitNanos(1_000 * MS, true));
    assertEquals("10 ms after it began", 40 * MS, spacing.waitNanos(1_010 * MS, true));
    // that one begins at 1,050 ms: the next, ready at 1,060 ms, waits until 1,100 ms
    assertEquals(40 * MS, spacing.waitNanos(1_060 * MS, true));
    assertEquals("past the spacing", 0, spacing.waitNanos(1_200 * MS, true));
    assertEquals("long after", 0, spacing.waitNanos(9_000 * MS, true));
  }

  @Test
  public void aSerialWritersBatchesOfOneIdNeverWait() {
    BatchSpacing spacing = new BatchSpacing(Duration.ofMillis(50));
    for (long at = 1_000; at < 1_100; at += 2)
      assertEquals("a batch ready at " + at + " ms", 0, spacing.waitNanos(at * MS, false));
  }

  @Test
  public void theSpacingLapsesAfterABatchOfOneId() {
    BatchSpacing spacing = new BatchSpacing(Duration.ofMillis(50));
    assertEquals("writers overlap", 0, spacing.waitNanos(1_000 * MS, true));
    assertEquals("the batch after them, of one id", 40 * MS, spacing.waitNanos(1_010 * MS, false));
    assertEquals("after a batch of one id", 0, spacing.waitNanos(1_052 * MS, false));
    assertEquals("overlapping again", 0, spacing.waitNanos(1_054 * MS, true));
    assertEquals(48 * MS, spacing.waitNanos(1_056 * MS, true));
  }

  @Test
  public void noSpacingNeverWaits() {
    BatchSpacing none = new BatchSpacing(Duration.ZERO);
    assertEquals(0, none.waitNanos(5 * MS, true));
    assertEquals(0, none.waitNanos(5 * MS, true));
  }

  @Test
  public void writersEndingAFewAtATimeCommitInFewerBatchesEveryOneWritten() throws Exception {
    Duration spacing = Duration.ofMillis(300);
    ActorTestKit testKit = spacedJournal(spacing);
    try {
      TestProbe<Done> written = testKit.createTestProbe();
      int writers = 30;
      List<ActorRef<EventWriter.Write>> spawned = writers(testKit, "w", writers);
      Thread.sleep(1_000); // recovered, so each persists as its write arrives
      long before = batches(testKit);
      long start = System.nanoTime();
      for (int i = 0; i < writers; i++) { // three every 10 ms, as runs ending a few at a time
        spawned.get(i).tell(new EventWriter.Write(List.of("w" + i + "/1"), written.getRef()));
        if (i % 3 == 2) Thread.sleep(10);
      }
      for (int i = 0; i < writers; i++)
        written.expectMessage(Duration.ofSeconds(30), Done.getInstance());
      long elapsedMs = (System.nanoTime() - start) / MS;
      long committed = batches(testKit) - before;
      // the persists overlapped, so a batch waited out the spacing: unspaced, the last of them
      // would be written about 100 ms after the first
      assertTrue("spaced: " + elapsedMs + " ms", elapsedMs >= spacing.toMillis());
      // a batch or two of one id may come before the first of several; after it, the spaced
      // batches gather the rest
      assertTrue(
          committed + " batches for " + writers + " persists in " + elapsedMs + " ms",
          committed <= writers / 3);
      List<EventEnvelope> every = PostgresJournalDaoTest.byTag(testKit, "every", Offset.noOffset());
      assertEquals(writers, every.size());
    } finally {
      testKit.shutdownTestKit();
    }
  }

  @Test
  public void aSerialWriterCommitsEachPersistAtOnce() throws Exception {
    ActorTestKit testKit = spacedJournal(Duration.ofSeconds(1));
    try {
      TestProbe<Done> written = testKit.createTestProbe();
      // four entities written in turn, one persist pending at a time, as a judged run writes
      // its quota, usage, watch and keys, or an import one watch after another
      List<ActorRef<EventWriter.Write>> entities = writers(testKit, "s", 4);
      int persists = 20;
      long before = batches(testKit);
      long start = System.nanoTime();
      for (int i = 0; i < persists; i++) {
        entities.get(i % 4).tell(new EventWriter.Write(List.of("s/" + i), written.getRef()));
        written.expectMessage(Duration.ofSeconds(30), Done.getInstance());
      }
      long elapsedMs = (System.nanoTime() - start) / MS;
      // the last batch's timer may be recorded just after its persist is acknowledged
      for (int tries = 0; tries < 50 && batches(testKit) - before < persists; tries++)
        Thread.sleep(20);
      assertEquals("a batch each", persists, batches(testKit) - before);
      // spaced, they would take the spacing each: 19 s
      assertTrue(persists + " persists in " + elapsedMs + " ms", elapsedMs < 5_000);
    } finally {
      testKit.shutdownTestKit();
    }
  }

  /** {@code count} entities, {@code prefix} and a number their ids, tagging every event "every". */
  private static List<ActorRef<EventWriter.Write>> writers(
      ActorTestKit testKit, String prefix, int count) {
    List<ActorRef<EventWriter.Write>> spawned = new ArrayList<>();
    for (int i = 0; i < count; i++)
      spawned.add(testKit.spawn(new EventWriter(prefix + i, "every", "second")));
    return spawned;
  }

  private static ActorTestKit spacedJournal(Duration spacing) throws Exception {
    ActorTestKit testKit =
        ActorTestKit.create(
            ConfigFactory.parseMap(Map.of(EmbeddedJournalDao.SPACING, spacing.toMillis() + "ms"))
                .withFallback(
                    TestJournals.embedded(Files.createTempDirectory("periscope-batch-spacing"))));
    JournalSchema.create(testKit.system());
    return testKit;
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
