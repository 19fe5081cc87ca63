package io.periscope.watch;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.typesafe.config.Config;
import io.periscope.config.Settings;
import io.periscope.history.Cursor;
import io.periscope.history.RunFilter;
import io.periscope.history.RunHistory;
import io.periscope.persistence.JournalReads;
import io.periscope.persistence.JournalSchema;
import io.periscope.testing.NeedsPostgres;
import io.periscope.testing.TestJournals;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.pattern.StatusReply;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * RUN_HISTORY_RETENTION on both journals: a watch run 5,200 times keeps its journal at the bound
 * (the newest 1,000 runs at least, at most five events a run of them plus a snapshot's worth),
 * still answers its history from what is kept, and recovers in under a second; the definition's
 * versions outlive both the trimmed create event and the watch's delete.
 */
public class RunRetentionTest {
  /**
   * More runs (an event each) than the journal retains, and two snapshots' worth: the oldest
   * events, the create among them, go.
   */
  private static final int RUNS =
      Settings.DEFAULT_RUN_HISTORY_RETENTION * JournalTrim.EVENTS_PER_RUN
          + 2 * JournalTrim.SNAPSHOT_EVERY;

  @Test
  public void aWatchRunPastItsRetentionKeepsItsJournalAtTheBoundOnH2() throws Exception {
    keepsItsJournalAtTheBound(TestJournals.h2());
  }

  @Test
  @Category(NeedsPostgres.class)
  public void aWatchRunPastItsRetentionKeepsItsJournalAtTheBoundOnPostgres() throws Exception {
    keepsItsJournalAtTheBound(TestJournals.postgres());
  }

  private void keepsItsJournalAtTheBound(Config journal) throws Exception {
    ActorTestKit testKit = ActorTestKit.create(journal);
    try {
      JournalSchema.create(testKit.system());
      String watchId = "w-" + UUID.randomUUID();
      String entityId = WatchEntity.entityId("alice", watchId);
      RunPipeline instant =
          (watch, memory, trigger, at) ->
              CompletableFuture.completedFuture(
                  new RunPipeline.Outcome(WatchRunsTest.record(RunRecord.NO_MATCH), List.of()));
      ActorRef<WatchEntity.Command> entity =
          testKit.spawn(WatchEntity.create(entityId, instant, Clock.systemUTC()));
      TestProbe<StatusReply<Watch>> created = testKit.createTestProbe();
      entity.tell(
          new WatchEntity.Create(WatchEntityTest.watch("Acme", null), null, null, created.ref()));
      assertTrue(created.receiveMessage(Duration.ofSeconds(10)).isSuccess());
      TestProbe<StatusReply<RunRecord>> ran = testKit.createTestProbe();
      String last = null;
      for (int i = 0; i < RUNS; i++) {
        entity.tell(new WatchEntity.Run(RunRecord.TRIGGER_MANUAL, ran.ref()));
        last = ran.receiveMessage(Duration.ofSeconds(10)).getValue().runId();
      }

      JournalReads reads = new JournalReads(testKit.system());
      int retention = Settings.DEFAULT_RUN_HISTORY_RETENTION;
      long bound = (long) retention * JournalTrim.EVENTS_PER_RUN + JournalTrim.SNAPSHOT_EVERY;
      long events = 0;
      long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (System.nanoTime() < deadline) {
        events = eventsOf(reads, entityId);
        if (events <= bound) break;
        Thread.sleep(200);
      }
      assertTrue("events kept: " + events + ", bound " + bound, events <= bound);
      long dueTimes =
          reads
              .foldEvents(
                  WatchEntity.TYPE_KEY.name(),
                  entityId,
                  0L,
                  (n, event) ->
                      event instanceof WatchEntity.ScheduleAdvanced
                              || event instanceof WatchEntity.Created
                          ? n + 1
                          : n)
              .toCompletableFuture()
              .get(30, TimeUnit.SECONDS);
      assertTrue("the kept journal still holds the watch's due time", dueTimes > 0);

      Thread.sleep(RunHistory.SETTLED.toMillis() + 100);
      List<RunRecord> history = new java.util.ArrayList<>();
      RunHistory.past(
              reads, new RunHistory.Selection("alice", watchId, RunFilter.ALL, Cursor.START), true)
          .runs()
          .forEachRemaining(r -> history.add(r.record()));
      assertTrue(history.size() >= retention);
      assertEquals("history answers for what is kept", last, history.get(0).runId());

      testKit.stop(entity, Duration.ofSeconds(10));
      long recovering = System.nanoTime();
      ActorRef<WatchEntity.Command> again =
          testKit.spawn(WatchEntity.create(entityId, instant, Clock.systemUTC()));
      TestProbe<StatusReply<WatchEntity.Runs>> runs = testKit.createTestProbe();
      again.tell(new WatchEntity.GetRuns(1, runs.ref()));
      String newest = runs.receiveMessage(Duration.ofSeconds(10)).getValue().runs().get(0).runId();
      long recoveredMs = (System.nanoTime() - recovering) / 1_000_000;
      assertEquals(last, newest);
      assertTrue("recovered in " + recoveredMs + " ms", recoveredMs < 1_000);
      // the definition's versions are state: recovered from the snapshot, not the old events
      TestProbe<StatusReply<WatchVersions.Kept>> kept = testKit.createTestProbe();
      again.tell(new WatchEntity.GetVersions(kept.ref()));
      List<WatchVersion> versions =
          kept.receiveMessage(Duration.ofSeconds(10)).getValue().versions();
      assertEquals(1, versions.size());
      assertEquals(WatchVersions.CREATED, versions.get(0).change());
      assertEquals(WatchEntityTest.watch("Acme", null), versions.get(0).watch());
      // GET /watches/:id/runs pages through the whole kept history, past the runs in memory
      RunPages pages =
          new RunPages(
              (o, w) -> again,
              new io.periscope.entity.Asks(testKit.system(), Duration.ofSeconds(30)),
              reads);
      List<String> paged = new java.util.ArrayList<>();
      String before = null;
      while (true) {
        WatchEntity.Runs page =
            pages
                .page("alice", watchId, 100, before)
                .toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        page.runs().forEach(r -> paged.add(r.runId()));
        if (!page.more() || page.runs().isEmpty()) break;
        before = page.runs().get(page.runs().size() - 1).runId();
      }
      assertEquals(
          "every kept run, newest first, once",
          history.stream().map(RunRecord::runId).toList(),
          paged);
      System.out.printf(
          "run-retention: %d runs, %d events kept (bound %d), recovery %d ms%n",
          RUNS, events, bound, recoveredMs);

      // the versions outlive the trimmed create event and the watch's delete, across a recovery
      assertEquals(
          "the create event was trimmed", 0, eventsOf(reads, entityId, WatchEntity.Created.class));
      TestProbe<StatusReply<org.apache.pekko.Done>> deleted = testKit.createTestProbe();
      again.tell(new WatchEntity.Delete(Actor.owner("alice"), deleted.ref()));
      assertTrue(deleted.receiveMessage(Duration.ofSeconds(10)).isSuccess());
      testKit.stop(again, Duration.ofSeconds(10));
      ActorRef<WatchEntity.Command> afterDelete =
          testKit.spawn(WatchEntity.create(entityId, instant, Clock.systemUTC()));
      afterDelete.tell(new WatchEntity.GetVersions(kept.ref()));
      List<WatchVersion> outlived =
          kept.receiveMessage(Duration.ofSeconds(10)).getValue().versions();
      assertEquals(
          List.of(WatchVersions.CREATED, WatchVersions.DELETED),
          outlived.stream().map(WatchVersion::change).toList());
      assertEquals(WatchEntityTest.watch("Acme", null), outlived.get(0).watch());
      assertEquals(Actor.owner("alice"), outlived.get(1).actor());
    } finally {
      testKit.shutdownTestKit();
    }
  }

  private static long eventsOf(JournalReads reads, String entityId) throws Exception {
    return eventsOf(reads, entityId, Object.class);
  }

  /** The events of {@code kind} the journal keeps of the watch. */
  private static long eventsOf(JournalReads reads, String entityId, Class<?> kind)
      throws Exception {
    return reads
        .foldEvents(
            WatchEntity.TYPE_KEY.name(),
            entityId,
            0L,
            (n, event) -> kind.isInstance(event) ? n + 1 : n)
        .toCompletableFuture()
        .get(30, TimeUnit.SECONDS);
  }
}
