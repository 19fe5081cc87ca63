package io.periscope.persistence;

import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.persistence.jdbc.query.javadsl.JdbcReadJournal;
import org.apache.pekko.persistence.query.PersistenceQuery;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.stream.javadsl.Sink;

/**
 * Read-only queries of the event journal itself, not of live entities. Safe beside running nodes —
 * they never write through here. What the events mean is the business of each entity's package (the
 * run history next to the watch entity, the list of accounts next to the owner).
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

  /** The id of every entity of one type that ever wrote an event, sorted. */
  public CompletionStage<List<String>> entityIds(String entityType) {
    String prefix = entityType + PersistenceId.DefaultSeparator();
    return journal
        .currentPersistenceIds()
        .filter(id -> id.startsWith(prefix))
        .map(id -> id.substring(prefix.length()))
        .runWith(Sink.seq(), system)
        .thenApply(ids -> ids.stream().sorted().toList());
  }

  /** One entity's events, oldest first, folded into {@code zero}. */
  public <R> CompletionStage<R> foldEvents(
      String entityType, String entityId, R zero, BiFunction<R, Object, R> add) {
    String persistenceId = PersistenceId.of(entityType, entityId).id();
    return journal
        .currentEventsByPersistenceId(persistenceId, 0L, Long.MAX_VALUE)
        .runWith(Sink.fold(zero, (r, envelope) -> add.apply(r, envelope.event())), system);
  }
}
