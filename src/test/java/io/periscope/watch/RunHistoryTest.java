package io.periscope.watch;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.typesafe.config.Config;
import io.periscope.persistence.JournalReads;
import io.periscope.persistence.JournalSchema;
import io.periscope.testing.NeedsPostgres;
import io.periscope.testing.TestJournals;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.Done;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.javadsl.CommandHandler;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehavior;
import org.apache.pekko.stream.javadsl.Sink;
import org.apache.pekko.stream.javadsl.SinkQueueWithCancel;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * The operator's history on the real journals: watch events written as the watch entity writes them
 * (same persistence ids, same tags), read back newest first a page at a time, oldest first across
 * watches, filtered, and followed as new runs are recorded.
 */
public class RunHistoryTest {
  @Test
  public void onH2() throws Exception {
    replaysAndFollows(TestJournals.h2());
  }

  @Test
  @Category(NeedsPostgres.class)
  public void onPostgres() throws Exception {
    TestJournals.requirePostgres();
    replaysAndFollows(TestJournals.postgres());
  }

  /** Persists the watch events it is sent, tagged as WatchEntity tags them. */
  private record Write(WatchEntity.Event event, ActorRef<Done> replyTo) {}

  private static Behavior<Write> writer(String owner, String watchId) {
    return new EventSourcedBehavior<Write, WatchEntity.Event, Integer>(
        PersistenceId.of(WatchEntity.TYPE_KEY.name(), WatchEntity.entityId(owner, watchId))) {
      @Override
      public Integer emptyState() {
        return 0;
      }

      @Override
      public CommandHandler<Write, WatchEntity.Event, Integer> commandHandler() {
        return newCommandHandlerBuilder()
            .forAnyState()
            .onAnyCommand(
                (state, w) -> Effect().persist(w.event()).thenReply(w.replyTo(), s -> Done.done()));
      }

      @Override
      public EventHandler<Integer, WatchEntity.Event> eventHandler() {
        return newEventHandlerBuilder().forAnyState().onAnyEvent((state, e) -> state + 1);
      }

      @Override
      public Set<String> tagsFor(WatchEntity.Event event) {
        return WatchEntity.tagsOf(event);
      }
    };
  }

  private static RunRecord record(String runId, String outcome, Instant at) {
    return new RunRecord(
        runId,
        RunRecord.TRIGGER_MANUAL,
        at,
        5,
        outcome,
        null,
        null,
        List.of(),
        null,
        List.of(),
        1,
        1,
        new RunRecord.Collection(1, 1, 1, 0),
        List.of(),
        null,
        List.of(),
        0,
        new RunRecord.Trimmed(0, 0),
        null,
        0,
        null,
        null,
        null);
  }

  private static void write(ActorTestKit kit, ActorRef<Write> to, WatchEntity.Event event)
      throws Exception {
    AskPattern.<Write, Done>ask(
            to, r -> new Write(event, r), Duration.ofSeconds(10), kit.system().scheduler())
        .toCompletableFuture()
        .get(10, TimeUnit.SECONDS);
  }

  private static WatchEntity.Event recorded(String runId, String outcome, Instant at) {
    return new WatchEntity.RunRecorded(record(runId, outcome, at), List.of(), Map.of());
  }

  private static List<String> ids(List<RunHistory.Run> runs) {
    return runs.stream().map(r -> r.watchId() + "/" + r.record().runId()).toList();
  }

  private static <T> T await(java.util.concurrent.CompletionStage<T> stage) throws Exception {
    return stage.toCompletableFuture().get(60, TimeUnit.SECONDS);
  }

  private static void replaysAndFollows(Config config) throws Exception {
    ActorTestKit kit = ActorTestKit.create(config);
    try {
      JournalSchema.create(kit.system());
      JournalReads journal = new JournalReads(kit.system());
      String owner = "h" + UUID.randomUUID().toString().substring(0, 8);
      ActorRef<Write> a = kit.spawn(writer(owner, "a"));
      ActorRef<Write> b = kit.spawn(writer(owner, "b"));
      ActorRef<Write> other = kit.spawn(writer(owner + "x", "a"));
      Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
      // watch a: more runs than a page, so newest-first reads several pages
      int runs = RunHistory.PAGE * 2 + 10;
      for (int i = 0; i < runs; i++) {
        String outcome = i % 10 == 0 ? RunRecord.ALERT : RunRecord.NOTHING_NEW;
        Instant at = t0.plus(Duration.ofHours(i));
        if (outcome.equals(RunRecord.ALERT)) {
          write(
              kit,
              a,
              new WatchEntity.RunJudged(
                  record("a" + i, outcome, at), List.of(), List.of("c"), Map.of()));
          write(
              kit,
              a,
              new WatchEntity.AlertDelivered(
                  "a" + i, List.of(new RunRecord.DeliveryRecord("c", null, true, null)), 42));
        } else {
          write(kit, a, recorded("a" + i, outcome, at));
        }
      }
      write(kit, b, recorded("b0", RunRecord.NO_MATCH, t0));
      write(kit, b, new WatchEntity.Deleted(t0.plusSeconds(1)));
      write(kit, other, recorded("x0", RunRecord.NO_MATCH, t0));

      assertTrue(await(RunHistory.exists(journal, owner, "a")));
      assertTrue("a deleted watch has its history", await(RunHistory.exists(journal, owner, "b")));
      assertEquals(false, await(RunHistory.exists(journal, owner, "never")));

      RunHistory.ReadUpTo readUpTo = new RunHistory.ReadUpTo();
      List<RunHistory.Run> newest =
          await(
              RunHistory.newestFirst(journal, owner, "a", RunHistory.Filter.ALL, readUpTo)
                  .runWith(Sink.seq(), kit.system()));
      assertEquals(runs, newest.size());
      assertEquals("a" + (runs - 1), newest.get(0).record().runId());
      assertEquals("a0", newest.get(runs - 1).record().runId());
      for (RunHistory.Run r : newest) {
        if (r.record().outcome().equals(RunRecord.ALERT)) {
          assertEquals(r.record().runId(), 1, r.record().deliveries().size());
          assertEquals(42, r.record().durationMs());
        }
      }

      RunHistory.Filter alertsOfTheSecondDay =
          new RunHistory.Filter(
              t0.plus(Duration.ofDays(1)), t0.plus(Duration.ofDays(2)), Set.of(RunRecord.ALERT));
      List<RunHistory.Run> alerts =
          await(
              RunHistory.newestFirst(journal, owner, "a", alertsOfTheSecondDay, readUpTo)
                  .runWith(Sink.seq(), kit.system()));
      assertEquals(List.of("a/a40", "a/a30"), ids(alerts));

      List<String> watches = await(RunHistory.watches(journal, owner));
      assertEquals(List.of(owner + ":a", owner + ":b"), watches);
      assertEquals(
          List.of(owner + ":a", owner + ":b", owner + "x:a"),
          await(RunHistory.watches(journal, null)).stream()
              .filter(id -> id.startsWith(owner))
              .toList());
      List<RunHistory.Run> oldest =
          await(
              RunHistory.oldestFirst(journal, watches, RunHistory.Filter.ALL, readUpTo)
                  .runWith(Sink.seq(), kit.system()));
      assertEquals(runs + 1, oldest.size());
      assertEquals("a/a0", ids(oldest).get(0));
      assertEquals("a/a" + (runs - 1), ids(oldest).get(runs - 1));
      assertEquals("b/b0", ids(oldest).get(runs));
      assertEquals(1, oldest.get(0).record().deliveries().size());

      // following: what the replay read is not shown again; new runs show once complete
      long offset = await(journal.lastOffset());
      assertTrue(offset > runs);
      write(kit, a, recorded("late", RunRecord.NO_MATCH, t0.plus(Duration.ofDays(30))));
      RunHistory.ReadUpTo afterLate = new RunHistory.ReadUpTo();
      await(
          RunHistory.oldestFirst(journal, List.of(owner + ":a"), RunHistory.Filter.ALL, afterLate)
              .runWith(Sink.ignore(), kit.system()));
      SinkQueueWithCancel<RunHistory.Run> followed =
          RunHistory.recordedAfter(
                  journal,
                  offset,
                  id -> id.startsWith(owner + ":"),
                  RunHistory.Filter.ALL,
                  afterLate)
              .runWith(Sink.queue(), kit.system());
      try {
        write(kit, other, recorded("x1", RunRecord.NO_MATCH, Instant.now()));
        write(kit, b, recorded("b1", RunRecord.NO_MATCH, Instant.now()));
        write(
            kit,
            a,
            new WatchEntity.RunJudged(
                record("new", RunRecord.ALERT, Instant.now()), List.of(), List.of("c"), Map.of()));
        write(
            kit,
            a,
            new WatchEntity.AlertDelivered(
                "new", List.of(new RunRecord.DeliveryRecord("c", null, false, "down")), 7));
        RunHistory.Run first = await(followed.pull()).orElseThrow();
        assertEquals("b/b1", first.watchId() + "/" + first.record().runId());
        RunHistory.Run second = await(followed.pull()).orElseThrow();
        assertEquals("a/new", second.watchId() + "/" + second.record().runId());
        assertEquals("down", second.record().deliveries().get(0).error());
      } finally {
        followed.cancel();
      }
    } finally {
      kit.shutdownTestKit();
    }
  }
}
