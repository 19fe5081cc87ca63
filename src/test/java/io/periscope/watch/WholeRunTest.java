package io.periscope.watch;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import io.periscope.entity.Asks;
import io.periscope.entity.Failures;
import io.periscope.llm.Judged;
import io.periscope.llm.JudgedItem;
import io.periscope.persistence.JournalReads;
import io.periscope.persistence.JournalSchema;
import io.periscope.testing.FakePipeline;
import io.periscope.testing.TestJournals;
import io.periscope.testing.TestWatches;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.pattern.StatusReply;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * A run's whole record: the watch holds its newest runs without their judged items, which stay in
 * the run's event; {@link RunPages#whole} joins them, for the runs in memory and for older ones the
 * journal alone keeps.
 */
public class WholeRunTest {
  private static ActorTestKit testKit;

  @BeforeClass
  public static void start() {
    testKit = ActorTestKit.create(TestJournals.h2());
    JournalSchema.create(testKit.system());
  }

  @AfterClass
  public static void stop() {
    testKit.shutdownTestKit();
  }

  /** A run that judged one item, named by its run's number. */
  private static RunRecord judged(int n) {
    return FakePipeline.record(RunRecord.NO_MATCH)
        .withJudged(
            new Judged(
                List.of(
                    new JudgedItem(
                        "rss:feed item-" + n,
                        "Item " + n,
                        "https://example.org/" + n,
                        "rss:feed",
                        "official",
                        null,
                        "text of item " + n,
                        false)),
                List.of(new Judged.SetAside("rss:feed old-" + n, Judged.OLD_NEWS))));
  }

  @Test
  public void aRunIsWholeInMemoryOrOnlyInTheJournalAndAnUnknownOneIsNoRun() throws Exception {
    String watchId = "w-" + UUID.randomUUID();
    String entityId = WatchEntity.entityId("alice", watchId);
    int[] runs = {0};
    FakePipeline judging =
        new FakePipeline().answers(call -> new RunPipeline.Outcome(judged(++runs[0]), List.of()));
    ActorRef<WatchEntity.Command> entity =
        testKit.spawn(WatchEntity.create(entityId, judging, Clock.systemUTC()));
    TestProbe<StatusReply<Watch>> created = testKit.createTestProbe();
    entity.tell(new WatchEntity.Create(TestWatches.acme("Acme", null), null, null, created.ref()));
    // the first write opens the journal: give it the time a loaded machine takes
    assertTrue(created.receiveMessage(Duration.ofSeconds(10)).isSuccess());
    TestProbe<StatusReply<RunRecord>> ran = testKit.createTestProbe();
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < WatchEntity.RECENT_RUNS + 2; i++) {
      entity.tell(new WatchEntity.Run(RunRecord.TRIGGER_MANUAL, ran.ref()));
      ids.add(ran.receiveMessage(Duration.ofSeconds(10)).getValue().runId());
    }

    TestProbe<StatusReply<RunRecord>> held = testKit.createTestProbe();
    entity.tell(new WatchEntity.GetRun(ids.get(ids.size() - 1), held.ref()));
    assertNull("the watch holds its runs lean", held.receiveMessage().getValue().judged());

    RunPages pages =
        new RunPages(
            (o, w) -> entity,
            new Asks(testKit.system(), Duration.ofSeconds(30)),
            new JournalReads(testKit.system()));
    RunRecord newest =
        pages
            .whole("alice", watchId, ids.get(ids.size() - 1))
            .toCompletableFuture()
            .get(30, TimeUnit.SECONDS);
    assertEquals(judged(WatchEntity.RECENT_RUNS + 2).judged(), newest.judged());
    RunRecord first =
        pages.whole("alice", watchId, ids.get(0)).toCompletableFuture().get(30, TimeUnit.SECONDS);
    assertEquals("past the runs in memory, from the journal", ids.get(0), first.runId());
    assertEquals(judged(1).judged(), first.judged());

    try {
      pages.whole("alice", watchId, "no-such-run").toCompletableFuture().get(30, TimeUnit.SECONDS);
      throw new AssertionError("an unknown run was found");
    } catch (ExecutionException e) {
      assertEquals(WatchEntity.NO_SUCH_RUN, Failures.unwrap(e).getMessage());
    }

    TestProbe<StatusReply<org.apache.pekko.Done>> deleted = testKit.createTestProbe();
    entity.tell(new WatchEntity.Delete(null, deleted.ref()));
    assertTrue(deleted.receiveMessage().isSuccess());
    assertEquals(
        "a deleted watch's run is still whole",
        judged(2).judged(),
        pages
            .whole("alice", watchId, ids.get(1))
            .toCompletableFuture()
            .get(30, TimeUnit.SECONDS)
            .judged());
  }
}
