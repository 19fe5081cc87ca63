package io.periscope.persistence;

import io.periscope.owner.OwnerEntity;
import io.periscope.watch.RunRecord;
import io.periscope.watch.WatchEntity;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.persistence.jdbc.query.javadsl.JdbcReadJournal;
import org.apache.pekko.persistence.query.PersistenceQuery;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.stream.javadsl.Sink;

/**
 * Read-only queries of the event journal itself, not of live entities: what the operator's {@code
 * history} replays, and the list of accounts. Safe beside running nodes — they never write through
 * here.
 */
public final class JournalReads {
  private final ActorSystem<?> system;
  private final JdbcReadJournal journal;

  public JournalReads(ActorSystem<?> system) {
    this.system = system;
    this.journal =
        PersistenceQuery.get(system)
            .getReadJournalFor(JdbcReadJournal.class, JdbcReadJournal.Identifier());
  }

  /**
   * Every owner entity's id (accounts, and callers that never created one are filtered by the
   * caller).
   */
  public CompletionStage<List<String>> ownerIds() {
    String prefix = OwnerEntity.TYPE_KEY.name() + PersistenceId.DefaultSeparator();
    return journal
        .currentPersistenceIds()
        .filter(id -> id.startsWith(prefix))
        .map(id -> id.substring(prefix.length()))
        .runWith(Sink.seq(), system)
        .thenApply(ids -> ids.stream().sorted().toList());
  }

  /**
   * A watch's runs replayed from its events, newest first, at most {@code limit}; also after the
   * watch was deleted. Empty when the journal holds no event of that watch at all.
   */
  public CompletionStage<Optional<List<RunRecord>>> runs(String owner, String watchId, int limit) {
    String persistenceId =
        PersistenceId.of(WatchEntity.TYPE_KEY.name(), WatchEntity.entityId(owner, watchId)).id();
    return journal
        .currentEventsByPersistenceId(persistenceId, 0L, Long.MAX_VALUE)
        .runWith(Sink.fold(new Replay(limit), Replay::add), system)
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

    Replay add(org.apache.pekko.persistence.query.EventEnvelope envelope) {
      anyEvent = true;
      Object event = envelope.event();
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
