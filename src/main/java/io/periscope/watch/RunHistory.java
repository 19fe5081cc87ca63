package io.periscope.watch;

import io.periscope.persistence.JournalReads;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * A watch's runs replayed from its events in the journal, as the operator's {@code history} reads
 * them: also after the watch was deleted, and without starting its entity.
 */
public final class RunHistory {
  private RunHistory() {}

  /**
   * Newest first, at most {@code limit}; empty when the journal holds no event of that watch at
   * all.
   */
  public static CompletionStage<Optional<List<RunRecord>>> replay(
      JournalReads journal, String owner, String watchId, int limit) {
    return journal
        .foldEvents(
            WatchEntity.TYPE_KEY.name(),
            WatchEntity.entityId(owner, watchId),
            new Replay(limit),
            Replay::add)
        .thenApply(Replay::newestFirst);
  }

  /** The newest {@code limit} run records seen so far, and whether the watch had any event. */
  private static final class Replay {
    private final int limit;
    private final LinkedList<RunRecord> newest = new LinkedList<>();
    private boolean anyEvent;

    Replay(int limit) {
      this.limit = limit;
    }

    Replay add(Object event) {
      anyEvent = true;
      if (event instanceof WatchEntity.RunRecorded run) keep(run.record());
      else if (event instanceof WatchEntity.RunJudged run) keep(run.record());
      else if (event instanceof WatchEntity.AlertDelivered sent) {
        // the run it completes was recorded just before, so it is still among the newest
        newest.replaceAll(
            r ->
                r.runId().equals(sent.runId())
                    ? r.withDeliveries(sent.deliveries(), sent.totalMs())
                    : r);
      }
      return this;
    }

    private void keep(RunRecord record) {
      newest.addLast(record);
      if (newest.size() > limit) newest.removeFirst();
    }

    Optional<List<RunRecord>> newestFirst() {
      if (!anyEvent) return Optional.empty();
      List<RunRecord> runs = new ArrayList<>(newest);
      Collections.reverse(runs);
      return Optional.of(runs);
    }
  }
}
