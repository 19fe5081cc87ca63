package io.periscope.history;

import io.periscope.persistence.JournalReads;
import io.periscope.watch.RunRecord;
import io.periscope.watch.WatchEntity;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.persistence.query.EventEnvelope;
import org.apache.pekko.stream.javadsl.Sink;

/**
 * One watch's runs read from the journal a page at a time, oldest or newest first, as the replay's
 * merge asks for them: it holds the page being read and the runs not yet taken.
 *
 * <p>A run is its {@link WatchEntity.RunRecorded}, or its {@link WatchEntity.RunJudged} with the
 * {@link WatchEntity.AlertDelivered}s recorded for it (also through a release of held alerts that
 * carries it). Oldest first, a judged run waits for its deliveries to end (delivered, failed for
 * good) before it is shown, at most until {@link #OPEN_RUNS} later runs of the watch were read;
 * newest first, its deliveries are read before it.
 */
final class WatchRunReader {
  /** Later runs read before a judged run whose deliveries go on is shown as it stands. */
  static final int OPEN_RUNS = 16;

  private final JournalReads journal;
  private final String accountId;
  private final String watchId;
  private final String entityId;
  private final boolean newestFirst;
  private final int page;
  private final long first;
  private final long last;
  private final long upTo;
  private final RunFilter filter;
  private final Cursor after;

  /** Oldest first: the next sequence number to read; newest first: the highest not yet read. */
  private long next;

  private CompletionStage<List<EventEnvelope>> loading;
  private boolean done;
  private boolean closing;
  private final ArrayDeque<RunHistory.Run> ready = new ArrayDeque<>();

  /** Oldest first: runs read whose deliveries may still come; releases by the runs they carry. */
  private final ArrayDeque<Open> open = new ArrayDeque<>();

  private final Map<String, List<String>> carried = new HashMap<>();

  /** Newest first: the deliveries read, newest first, of runs not read yet. */
  private final Map<String, List<WatchEntity.AlertDelivered>> deliveries = new HashMap<>();

  private static final class Open {
    RunHistory.Run run;
    final boolean judged;
    boolean delivered;

    Open(RunHistory.Run run, boolean judged) {
      this.run = run;
      this.judged = judged;
    }

    boolean settled() {
      return !judged
          || delivered
              && RunFilter.deliveriesOf(run.record()).stream()
                  .noneMatch(
                      d ->
                          RunRecord.DeliveryRecord.PENDING.equals(d.state())
                              || RunRecord.DeliveryRecord.HELD.equals(d.state()));
    }
  }

  /**
   * The runs of {@code entityId} in the events {@code range} holds at journal positions up to
   * {@code upTo}, that {@code filter} selects and {@code after} does not cover.
   */
  WatchRunReader(
      JournalReads journal,
      String entityId,
      JournalReads.Range range,
      long upTo,
      boolean newestFirst,
      int page,
      RunFilter filter,
      Cursor after) {
    this.journal = journal;
    this.entityId = entityId;
    int colon = entityId.indexOf(':');
    this.accountId = entityId.substring(0, colon);
    this.watchId = entityId.substring(colon + 1);
    this.first = range.first();
    this.last = range.last();
    this.upTo = upTo;
    this.newestFirst = newestFirst;
    this.page = page;
    this.filter = filter;
    this.after = after;
    this.next = newestFirst ? last : first;
  }

  /** Starts reading the next page, if it is not being read. */
  void load() {
    if (done || loading != null) return;
    long from = newestFirst ? Math.max(first, next - page + 1) : next;
    long to = newestFirst ? next : Math.min(last, next + page - 1);
    if (from > to) {
      finish();
      return;
    }
    next = newestFirst ? from - 1 : to + 1;
    loading =
        journal
            .events(WatchEntity.TYPE_KEY.name(), entityId, from, to)
            .runWith(Sink.seq(), journal.system());
  }

  /** The next run, read as far as needed; null when there is none. */
  RunHistory.Run peek() {
    while (ready.isEmpty() && !done) {
      load();
      if (loading == null) continue;
      List<EventEnvelope> events;
      try {
        events = loading.toCompletableFuture().get(5, TimeUnit.MINUTES);
      } catch (Exception e) {
        throw new IllegalStateException("cannot read the journal: " + e.getMessage(), e);
      }
      loading = null;
      if (newestFirst) {
        for (int i = events.size() - 1; i >= 0 && !done; i--) backward(events.get(i));
      } else {
        for (Iterator<EventEnvelope> it = events.iterator(); it.hasNext() && !done; )
          forward(it.next());
      }
    }
    return ready.peek();
  }

  /** Takes the run {@link #peek()} answered. */
  RunHistory.Run poll() {
    return ready.poll();
  }

  private void forward(EventEnvelope envelope) {
    if (JournalReads.position(envelope) > upTo) {
      finish();
      return;
    }
    Object event = envelope.event();
    RunRecord record = RunHistory.recordOf(event);
    if (record != null) {
      if (filter.after(record)) closing = true;
      else
        open.add(
            new Open(
                new RunHistory.Run(accountId, watchId, record, JournalReads.position(envelope)),
                event instanceof WatchEntity.RunJudged));
    } else if (event instanceof WatchEntity.HeldReleased released) {
      for (WatchEntity.Pending owed : released.owed())
        if (!owed.carries().isEmpty()) carried.put(owed.runId(), owed.carries());
    } else if (event instanceof WatchEntity.AlertDelivered sent) {
      Set<String> told = new HashSet<>(carried.getOrDefault(sent.runId(), List.of()));
      told.add(sent.runId());
      for (Open o : open)
        if (told.contains(o.run.record().runId())) {
          o.run =
              o.run.withRecord(o.run.record().withDeliveries(sent.deliveries(), sent.totalMs()));
          o.delivered = true;
        }
    }
    while (!open.isEmpty() && (open.peek().settled() || open.size() > OPEN_RUNS))
      offer(open.poll().run);
    if (closing && open.isEmpty()) done = true;
  }

  private void backward(EventEnvelope envelope) {
    if (JournalReads.position(envelope) > upTo) return;
    Object event = envelope.event();
    if (event instanceof WatchEntity.AlertDelivered sent) {
      deliveries.computeIfAbsent(sent.runId(), id -> new ArrayList<>()).add(sent);
      return;
    }
    if (event instanceof WatchEntity.HeldReleased released) {
      for (WatchEntity.Pending owed : released.owed()) {
        List<WatchEntity.AlertDelivered> sent = deliveries.remove(owed.runId());
        if (sent == null) continue;
        for (String runId : owed.carries())
          deliveries.computeIfAbsent(runId, id -> new ArrayList<>()).addAll(sent);
      }
      return;
    }
    RunRecord record = RunHistory.recordOf(event);
    if (record == null) return;
    List<WatchEntity.AlertDelivered> sent = deliveries.remove(record.runId());
    if (sent != null)
      for (int i = sent.size() - 1; i >= 0; i--)
        record = record.withDeliveries(sent.get(i).deliveries(), sent.get(i).totalMs());
    RunHistory.Run run =
        new RunHistory.Run(accountId, watchId, record, JournalReads.position(envelope));
    // a watch runs one run at a time: the runs before this one started before it
    if (filter.before(record) || after.covers(run)) {
      finish();
      return;
    }
    offer(run);
  }

  private void offer(RunHistory.Run run) {
    if (filter.test(run.record()) && !after.covers(run)) ready.add(run);
  }

  private void finish() {
    while (!open.isEmpty()) offer(open.poll().run);
    done = true;
  }
}
