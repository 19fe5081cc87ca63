package io.periscope.history;

import static io.periscope.history.WatchEvents.delivered;
import static io.periscope.history.WatchEvents.judged;
import static io.periscope.history.WatchEvents.quiet;
import static io.periscope.history.WatchEvents.recorded;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.typesafe.config.Config;
import io.periscope.persistence.JournalReads;
import io.periscope.persistence.JournalSchema;
import io.periscope.testing.NeedsPostgres;
import io.periscope.testing.TestJournals;
import io.periscope.watch.RunRecord;
import io.periscope.watch.WatchEntity;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * The replay on the real journals: watches longer than a page merged in start order both ways, each
 * judged run with its deliveries, a deleted watch's runs, and the read starting at the asked time
 * (the per-watch ranges the journal answers) rather than at each watch's first event.
 */
public class RunHistoryTest {
  @Test(timeout = 180_000)
  public void onH2() throws Exception {
    replays(TestJournals.h2());
  }

  @Test(timeout = 180_000)
  @Category(NeedsPostgres.class)
  public void onPostgres() throws Exception {
    TestJournals.requirePostgres();
    replays(TestJournals.postgres());
  }

  private static List<String> ids(RunHistory.Past past) {
    List<String> ids = new ArrayList<>();
    past.runs().forEachRemaining(r -> ids.add(r.watchId() + "/" + r.record().runId()));
    return ids;
  }

  private static List<RunHistory.Run> runs(RunHistory.Past past) {
    List<RunHistory.Run> runs = new ArrayList<>();
    past.runs().forEachRemaining(runs::add);
    return runs;
  }

  private static void replays(Config config) throws Exception {
    ActorTestKit kit = ActorTestKit.create(config);
    try {
      JournalSchema.create(kit.system());
      JournalReads journal = new JournalReads(kit.system());
      WatchEvents events = new WatchEvents(kit);
      String owner = "h" + UUID.randomUUID().toString().substring(0, 8);
      Instant t0 = Instant.now().minus(Duration.ofDays(30));
      // watch a: more runs than a page, each tenth judged and delivered; b between a's runs
      int runs = RunHistory.PAGE * 2 + 10;
      Instant mark = null;
      for (int i = 0; i < runs; i++) {
        // the last day's runs ran as they are written: a run is written when it ends
        if (i == runs - 24) {
          Thread.sleep(5);
          mark = Instant.now();
        }
        Instant at = i < runs - 24 ? t0.plus(Duration.ofHours(i)) : Instant.now();
        if (i % 10 == 0) {
          events.write(
              owner,
              "a",
              judged(
                  WatchEvents.record(
                      "a" + i,
                      RunRecord.TRIGGER_SCHEDULE,
                      RunRecord.ALERT,
                      at,
                      null,
                      null,
                      null,
                      null,
                      List.of(),
                      List.of()),
                  "telegram"));
          events.write(owner, "a", delivered("a" + i, "telegram", RunRecord.DeliveryRecord.FAILED));
        } else {
          events.write(owner, "a", recorded(quiet("a" + i, at)));
        }
        if (i % 100 == 50) events.write(owner, "b", recorded(quiet("b" + i, at.plusSeconds(60))));
      }
      events.write(owner, "b", new WatchEntity.Deleted(Instant.now(), null));
      // a replay reads the journal up to where it was SETTLED ago
      Thread.sleep(RunHistory.SETTLED.toMillis() + 100);

      RunHistory.Selection all = new RunHistory.Selection(owner, null, RunFilter.ALL, Cursor.START);
      List<RunHistory.Run> oldest = runs(RunHistory.past(journal, all, false));
      assertEquals(runs + 5, oldest.size());
      List<RunHistory.Run> sorted = new ArrayList<>(oldest);
      sorted.sort(Cursor.ORDER);
      assertEquals(sorted, oldest);
      assertEquals("b50", oldest.get(51).record().runId());
      for (RunHistory.Run r : oldest)
        if (r.record().outcome().equals(RunRecord.ALERT))
          assertEquals(r.record().runId(), "failed", r.record().deliveries().get(0).state());

      List<RunHistory.Run> newest = runs(RunHistory.past(journal, all, true));
      List<RunHistory.Run> reversed = new ArrayList<>(oldest);
      java.util.Collections.reverse(reversed);
      assertEquals(reversed, newest);

      // the last day: the journal answers only the watches written since, from their last events
      Instant since = mark;
      Map<String, JournalReads.Range> ranges =
          journal
              .ranges(
                  new JournalReads.Span(
                      WatchEntity.TYPE_KEY.name() + "|" + owner + ":",
                      false,
                      Long.MAX_VALUE,
                      since.toEpochMilli(),
                      null,
                      null))
              .toCompletableFuture()
              .get(30, TimeUnit.SECONDS);
      // b's deletion was written now: it is in the range, its runs are not since
      assertEquals(2, ranges.size());
      JournalReads.Range a = ranges.get(WatchEntity.TYPE_KEY.name() + "|" + owner + ":a");
      assertTrue("read from near the end: " + a, a.first() > runs);
      RunHistory.Selection lastDay =
          new RunHistory.Selection(
              owner,
              null,
              new RunFilter(since, null, Set.of(), Set.of(), Set.of(), Set.of(), null, null),
              Cursor.START);
      List<String> day = ids(RunHistory.past(journal, lastDay, false));
      assertEquals(24, day.size());
      assertEquals("a/a" + (runs - 24), day.get(0));
      assertEquals("a/a" + (runs - 1), day.get(23));
      List<String> dayReversed = new ArrayList<>(day);
      java.util.Collections.reverse(dayReversed);
      assertEquals(dayReversed, ids(RunHistory.past(journal, lastDay, true)));
    } finally {
      kit.shutdownTestKit();
    }
  }
}
