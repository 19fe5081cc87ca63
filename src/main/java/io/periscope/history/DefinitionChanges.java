package io.periscope.history;

import io.periscope.persistence.JournalReads;
import io.periscope.watch.Watch;
import io.periscope.watch.WatchEntity;
import io.periscope.watch.WatchVersion;
import io.periscope.watch.WatchVersions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.persistence.query.EventEnvelope;
import org.apache.pekko.stream.javadsl.Sink;

/**
 * The changes of watches' definitions replayed from their events in the journal ({@code history
 * --changes}): each create, replace, delete and restore as a {@link WatchVersion}, with the
 * definition before it, in the order they were written. A definition changes rarely, so the changes
 * are gathered and then ordered; each selected watch is read from its oldest kept event, so that
 * every change has the definition before it.
 */
public final class DefinitionChanges {
  private DefinitionChanges() {}

  /**
   * One change of watch {@code accountId/watchId}: the version it made ({@code numbered} when the
   * journal holds the watch's events from its first, so the number is the interface's; otherwise
   * older events went with old runs and the number counts from the oldest kept), the definition
   * before it (null: none, or not kept), and the journal position of its event.
   */
  public record Change(
      String accountId,
      String watchId,
      WatchVersion version,
      boolean numbered,
      Watch before,
      long position) {}

  /** The changes of a replay, and the journal position it read up to. */
  public record Past(long upTo, List<Change> changes) {}

  /**
   * The changes of the selected watches made in [{@code since}, {@code until}) (null: unbounded),
   * recorded after the journal position {@code after} (null: from the start) and up to the position
   * {@link RunHistory#SETTLED} ago, oldest first.
   */
  public static Past past(
      JournalReads journal,
      RunHistory.Selection selection,
      Instant since,
      Instant until,
      Long after)
      throws Exception {
    long upTo =
        await(
            journal.positionWrittenBefore(
                System.currentTimeMillis() - RunHistory.SETTLED.toMillis()));
    String type = WatchEntity.TYPE_KEY.name() + "|";
    String prefix =
        type
            + (selection.accountId() == null
                ? ""
                : selection.watchId() == null
                    ? selection.accountId() + ":"
                    : WatchEntity.entityId(selection.accountId(), selection.watchId()));
    // the watches with an event in the selection: written since `since` and after `after`
    Map<String, JournalReads.Range> touched =
        await(
            journal.ranges(
                new JournalReads.Span(
                    prefix,
                    selection.watchId() != null,
                    upTo,
                    since == null ? null : since.toEpochMilli(),
                    after,
                    null)));
    List<Change> changes = new ArrayList<>();
    for (String persistenceId : touched.keySet()) {
      String entityId = persistenceId.substring(type.length());
      int colon = entityId.indexOf(':');
      if (colon <= 0) continue; // not an account's watch (tests')
      Map<String, JournalReads.Range> whole =
          await(journal.ranges(new JournalReads.Span(persistenceId, true, upTo, null, null, null)));
      JournalReads.Range range = whole.get(persistenceId);
      if (range == null) continue;
      List<EventEnvelope> events =
          await(
              journal
                  .events(WatchEntity.TYPE_KEY.name(), entityId, range.first(), range.last())
                  .filter(e -> WatchVersions.isChange(e.event()))
                  .runWith(Sink.seq(), journal.system()));
      Watch current = null;
      int number = 0;
      for (EventEnvelope e : events) {
        long position = JournalReads.position(e);
        if (position > upTo) break;
        WatchVersion v = WatchVersions.of((WatchEntity.Event) e.event(), current, ++number);
        boolean shown =
            (after == null || position > after)
                && (since == null || !v.at().isBefore(since))
                && (until == null || v.at().isBefore(until));
        if (shown)
          changes.add(
              new Change(
                  entityId.substring(0, colon),
                  entityId.substring(colon + 1),
                  v,
                  range.first() == 1,
                  current,
                  position));
        current = v.watch();
      }
    }
    changes.sort(Comparator.comparingLong(Change::position));
    return new Past(upTo, changes);
  }

  private static <T> T await(CompletionStage<T> stage) throws Exception {
    return stage.toCompletableFuture().get(5, TimeUnit.MINUTES);
  }
}
