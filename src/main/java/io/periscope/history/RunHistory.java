package io.periscope.history;

import io.periscope.persistence.JournalReads;
import io.periscope.watch.RunRecord;
import io.periscope.watch.WatchEntity;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.pekko.NotUsed;
import org.apache.pekko.persistence.query.EventEnvelope;
import org.apache.pekko.stream.javadsl.Source;

/**
 * Runs replayed from the watches' events in the journal, as the operator's {@code history} reads
 * them: also after a watch was deleted, without starting its entity, and streamed.
 *
 * <p>The past is a merge of each selected watch's runs in start order ({@link Cursor#ORDER}, or its
 * reverse): each watch is read a page at a time from where the selection starts (one query finds,
 * per watch, the first and last event written since {@code since} or after a cursor), and the merge
 * takes the earliest (or latest) next run among them. Memory holds a page per watch, not the
 * history. Then, following, the runs recorded after the past's journal position, as they are
 * recorded.
 */
public final class RunHistory {
  /** Events of one watch read at once, with one watch; fewer per watch when many are merged. */
  static final int PAGE = 256;

  /** Events read at once over all watches merged: their pages share it, 16 events at least. */
  static final int MERGE_BUDGET = 4096;

  /**
   * How old the newest event of the past is: the past is read up to the journal position of this
   * long ago, so that an event still being committed (PostgreSQL numbers events before they commit)
   * is not passed by a cursor; following, and the next export, read on from there.
   */
  public static final Duration SETTLED = Duration.ofSeconds(1);

  /** Watches whose first pages are read together when a replay starts. */
  private static final int FIRST_PAGES_AT_ONCE = 16;

  /**
   * How long {@code follow} waits for the deliveries of a judged run before it shows the run
   * without them (a node stopped in between).
   */
  static final Duration DELIVERIES_PATIENCE = Duration.ofMinutes(2);

  private RunHistory() {}

  /** One run of one watch, and the journal position of its record. */
  public record Run(String accountId, String watchId, RunRecord record, long position) {
    /** The watch's entity id, {@code owner:watchId}. */
    public String entityId() {
      return WatchEntity.entityId(accountId, watchId);
    }

    Run withRecord(RunRecord changed) {
      return new Run(accountId, watchId, changed, position);
    }
  }

  /**
   * What a replay shows: the runs of one watch ({@code accountId} and {@code watchId}), of an
   * owner's watches, or of every watch ({@code accountId} null), that {@code filter} selects and
   * {@code after} does not cover.
   */
  public record Selection(String accountId, String watchId, RunFilter filter, Cursor after) {
    public Selection {
      if (watchId != null && accountId == null)
        throw new IllegalArgumentException("a watch needs its owner");
    }

    /** Whether a watch (by entity id) is one of those selected. */
    public boolean selects(String entityId) {
      if (accountId == null) return true;
      return watchId == null
          ? entityId.startsWith(accountId + ":")
          : entityId.equals(WatchEntity.entityId(accountId, watchId));
    }
  }

  /** A replay of the past: its runs, and the journal position it read up to. */
  public record Past(long upTo, Iterator<Run> runs) {}

  /** Whether the journal holds any event of the watch (a deleted one included). */
  public static CompletionStage<Boolean> exists(
      JournalReads journal, String accountId, String watchId) {
    return journal
        .lastSequenceNr(WatchEntity.TYPE_KEY.name(), WatchEntity.entityId(accountId, watchId))
        .thenApply(last -> last > 0);
  }

  /** Whether the journal holds an event of any watch of {@code accountId}. */
  public static CompletionStage<Boolean> anyWatchOf(JournalReads journal, String accountId) {
    return journal
        .ranges(
            new JournalReads.Span(
                persistenceId(accountId + ":"), false, Long.MAX_VALUE, null, null, null))
        .thenApply(ranges -> !ranges.isEmpty());
  }

  /**
   * The selected runs recorded up to the journal's position {@link #SETTLED} ago, oldest first or
   * newest first. Blocking: the runs are read as the iterator is advanced.
   */
  public static Past past(JournalReads journal, Selection selection, boolean newestFirst)
      throws Exception {
    long upTo =
        await(journal.positionWrittenBefore(System.currentTimeMillis() - SETTLED.toMillis()));
    RunFilter filter = selection.filter();
    Cursor after = selection.after();
    String prefix =
        selection.accountId() == null
            ? ""
            : selection.watchId() == null
                ? selection.accountId() + ":"
                : WatchEntity.entityId(selection.accountId(), selection.watchId());
    // a run is recorded when it ends: a run started since T is in the events written since T
    JournalReads.Span span =
        new JournalReads.Span(
            persistenceId(prefix),
            selection.watchId() != null,
            upTo,
            filter.since() == null ? null : filter.since().toEpochMilli(),
            after.lowestUpTo(),
            after.startedSince() == null ? null : after.startedSince().toEpochMilli());
    Map<String, JournalReads.Range> ranges = await(journal.ranges(span));
    String type = WatchEntity.TYPE_KEY.name() + "|";
    int page = Math.max(16, Math.min(PAGE, MERGE_BUDGET / Math.max(1, ranges.size())));
    List<WatchRunReader> watches = new ArrayList<>(ranges.size());
    ranges.forEach(
        (persistenceId, range) -> {
          String entityId = persistenceId.substring(type.length());
          // a watch of an account is "owner:watch"; a journal may hold entities of no account
          // (tests')
          if (entityId.indexOf(':') > 0)
            watches.add(
                new WatchRunReader(
                    journal, entityId, range, upTo, newestFirst, page, filter, after));
        });
    return new Past(upTo, new Merge(watches, newestFirst));
  }

  private static String persistenceId(String entityIdPrefix) {
    return WatchEntity.TYPE_KEY.name() + "|" + entityIdPrefix;
  }

  /**
   * The k-way merge of the watches' runs by start. Written here because Pekko Streams merges two
   * sorted streams at a time: a tree of a thousand of those would hold a thousand journal queries
   * open at once, where this reads each watch's next page only when its runs are taken.
   */
  private static final class Merge implements Iterator<Run> {
    private final PriorityQueue<WatchRunReader> heads;

    Merge(List<WatchRunReader> watches, boolean newestFirst) {
      Comparator<WatchRunReader> byNext = Comparator.comparing(WatchRunReader::peek, Cursor.ORDER);
      heads =
          new PriorityQueue<>(
              Math.max(1, watches.size()), newestFirst ? byNext.reversed() : byNext);
      for (int i = 0; i < watches.size(); i += FIRST_PAGES_AT_ONCE) {
        List<WatchRunReader> batch =
            watches.subList(i, Math.min(watches.size(), i + FIRST_PAGES_AT_ONCE));
        batch.forEach(WatchRunReader::load);
        for (WatchRunReader w : batch) if (w.peek() != null) heads.add(w);
      }
    }

    @Override
    public boolean hasNext() {
      return !heads.isEmpty();
    }

    @Override
    public Run next() {
      WatchRunReader head = heads.poll();
      if (head == null) throw new NoSuchElementException();
      Run run = head.poll();
      if (head.peek() != null) heads.add(head);
      return run;
    }
  }

  /**
   * The selected runs recorded after the journal position {@code upTo}, as they are recorded, in
   * the order of their records: the stream does not end. A judged run shows when its deliveries are
   * recorded (or after {@link #DELIVERIES_PATIENCE}); the runs recorded after it wait for it, so
   * that each run's cursor holds every run shown before.
   */
  public static Source<Run, NotUsed> recordedAfter(
      JournalReads journal, long upTo, Selection selection) {
    String prefix = WatchEntity.TYPE_KEY.name() + "|";
    Predicate<EventEnvelope> selected =
        e ->
            e.persistenceId().startsWith(prefix)
                && selection.selects(e.persistenceId().substring(prefix.length()));
    Source<Object, NotUsed> events =
        journal.taggedAfter(WatchEntity.RUN_TAG, upTo).filter(selected::test).map(e -> (Object) e);
    Source<Object, NotUsed> ticks =
        Source.tick(Duration.ofSeconds(5), Duration.ofSeconds(5), (Object) TICK)
            .mapMaterializedValue(c -> NotUsed.getInstance());
    return events
        .merge(ticks)
        .statefulMapConcat(
            () -> {
              InOrder runs = new InOrder();
              return element -> {
                List<Run> shown =
                    element == TICK
                        ? runs.ready(DELIVERIES_PATIENCE)
                        : runs.add((EventEnvelope) element);
                return shown.stream()
                    .filter(
                        r -> selection.filter().test(r.record()) && !selection.after().covers(r))
                    .toList();
              };
            });
  }

  private static final Object TICK = new Object();

  static RunRecord recordOf(Object event) {
    if (event instanceof WatchEntity.RunRecorded run) return run.record();
    if (event instanceof WatchEntity.RunJudged run) return run.record();
    return null;
  }

  private static <T> T await(CompletionStage<T> stage) throws Exception {
    return stage.toCompletableFuture().get(5, TimeUnit.MINUTES);
  }

  /**
   * Runs from events in the order they are written, shown in that order: a judged run waits for its
   * first deliveries, and the runs after it wait for it.
   */
  static final class InOrder {
    private static final class Waiting {
      Run run;
      final boolean judged;
      boolean complete;
      final long since = System.nanoTime();

      Waiting(Run run, boolean judged) {
        this.run = run;
        this.judged = judged;
        this.complete = !judged;
      }
    }

    private final ArrayDeque<Waiting> waiting = new ArrayDeque<>();

    List<Run> add(EventEnvelope envelope) {
      Object event = envelope.event();
      String id = envelope.persistenceId().substring(envelope.persistenceId().indexOf('|') + 1);
      int colon = id.indexOf(':');
      if (event instanceof WatchEntity.AlertDelivered sent) {
        for (Waiting w : waiting)
          if (w.judged
              && !w.complete
              && w.run.entityId().equals(id)
              && w.run.record().runId().equals(sent.runId())) {
            w.run =
                w.run.withRecord(w.run.record().withDeliveries(sent.deliveries(), sent.totalMs()));
            w.complete = true;
          }
      } else {
        RunRecord record = recordOf(event);
        if (record == null) return List.of();
        Run run =
            new Run(
                id.substring(0, colon),
                id.substring(colon + 1),
                record,
                JournalReads.position(envelope));
        waiting.add(new Waiting(run, event instanceof WatchEntity.RunJudged));
      }
      return ready(null);
    }

    /** The runs ready, in order; with {@code patience}, a judged run waiting longer is ready. */
    List<Run> ready(Duration patience) {
      List<Run> out = new ArrayList<>();
      long now = System.nanoTime();
      while (!waiting.isEmpty()) {
        Waiting head = waiting.peek();
        if (!head.complete && (patience == null || now - head.since < patience.toNanos())) break;
        out.add(waiting.poll().run);
      }
      return out;
    }
  }
}
