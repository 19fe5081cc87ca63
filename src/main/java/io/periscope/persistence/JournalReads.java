package io.periscope.persistence;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.persistence.jdbc.db.SlickExtension;
import org.apache.pekko.persistence.jdbc.db.SlickExtensionImpl;
import org.apache.pekko.persistence.jdbc.query.javadsl.JdbcReadJournal;
import org.apache.pekko.persistence.query.EventEnvelope;
import org.apache.pekko.persistence.query.Offset;
import org.apache.pekko.persistence.query.PersistenceQuery;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.stream.javadsl.Sink;
import org.apache.pekko.stream.javadsl.Source;

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

  /** The actor system the queries run on. */
  public ActorSystem<?> system() {
    return system;
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

  /** One entity's events with sequence numbers from {@code from} to {@code to}, oldest first. */
  public Source<EventEnvelope, NotUsed> events(
      String entityType, String entityId, long from, long to) {
    return journal.currentEventsByPersistenceId(
        PersistenceId.of(entityType, entityId).id(), from, to);
  }

  /** The sequence number of one entity's last event; 0 when it has none. */
  public CompletionStage<Long> lastSequenceNr(String entityType, String entityId) {
    return journal
        .currentLastSequenceNumberByPersistenceId(PersistenceId.of(entityType, entityId).id())
        .thenApply(last -> last.orElse(0L));
  }

  /**
   * The events of {@code tag} written after the journal position {@code offset} (see {@link
   * #lastOffset()}), as they are written: the stream does not end.
   */
  public Source<EventEnvelope, NotUsed> taggedAfter(String tag, long offset) {
    return journal.eventsByTag(tag, Offset.sequence(offset));
  }

  /**
   * The journal's position now: the global ordering of its last event (0 when empty). Events
   * written later have greater positions.
   */
  public CompletionStage<Long> lastOffset() {
    com.typesafe.config.Config config = system.settings().config();
    String table =
        qualified(
            config.getString("jdbc-journal.tables.event_journal.schemaName"),
            config.getString("jdbc-journal.tables.event_journal.tableName"));
    String column = config.getString("jdbc-journal.tables.event_journal.columnNames.ordering");
    SlickExtensionImpl slick = (SlickExtensionImpl) SlickExtension.get(system.classicSystem());
    return CompletableFuture.supplyAsync(
        () -> {
          try (Connection c =
                  slick
                      .database(config.getConfig("jdbc-read-journal"))
                      .database()
                      .source()
                      .createConnection();
              Statement query = c.createStatement();
              ResultSet max = query.executeQuery("SELECT MAX(\"" + column + "\") FROM " + table)) {
            return max.next() ? max.getLong(1) : 0L;
          } catch (java.sql.SQLException e) {
            throw new java.util.concurrent.CompletionException(e);
          }
        },
        system.dispatchers().lookup(DispatcherSelector.blocking()));
  }

  /** Quoted: the H2 script creates lower-case quoted names, PostgreSQL's unquoted ones. */
  private static String qualified(String schema, String table) {
    return (schema.isEmpty() ? "" : "\"" + schema + "\".") + "\"" + table + "\"";
  }
}
