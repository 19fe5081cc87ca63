package io.periscope.persistence;

import java.sql.Connection;
import java.sql.ResultSet;
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
   * #positionWrittenBefore}), as they are written: the stream does not end.
   */
  public Source<EventEnvelope, NotUsed> taggedAfter(String tag, long offset) {
    return journal.eventsByTag(tag, Offset.sequence(offset));
  }

  /**
   * The journal's position of the last event written before {@code epochMillis} (0 when none).
   * Events written later have greater positions, but a write still being committed may hold a
   * smaller one than events already visible: a position a little in the past is one below which
   * nothing more appears.
   */
  public CompletionStage<Long> positionWrittenBefore(long epochMillis) {
    return query(
        c -> {
          try (java.sql.PreparedStatement query =
              c.prepareStatement(
                  "SELECT MAX("
                      + column("ordering")
                      + ") FROM "
                      + table()
                      + " WHERE "
                      + column("writeTimestamp")
                      + " < ?")) {
            query.setLong(1, epochMillis);
            try (ResultSet max = query.executeQuery()) {
              return max.next() ? max.getLong(1) : 0L;
            }
          }
        });
  }

  /** The first and last sequence numbers of one entity's events that a {@link Span} selected. */
  public record Range(long first, long last) {}

  /**
   * Which events of which entities to read: those of entities whose persistence id starts with
   * {@code prefix} (or is {@code exactly} it), at journal positions up to {@code upTo}, written at
   * or after {@code writtenSince} (epoch milliseconds; null: any time), and, when {@code
   * afterOrdering} is given, positioned after it or written at or after {@code orWrittenSince}.
   */
  public record Span(
      String prefix,
      boolean exactly,
      long upTo,
      Long writtenSince,
      Long afterOrdering,
      Long orWrittenSince) {}

  /**
   * The range of sequence numbers, per persistence id, of the events a span selects, in one query:
   * with a time or a position it reads only the journal's rows from there on (the index on {@code
   * write_timestamp} that {@link JournalSchema} creates, and the one on {@code ordering}).
   */
  public CompletionStage<java.util.Map<String, Range>> ranges(Span span) {
    StringBuilder sql =
        new StringBuilder("SELECT ")
            .append(column("persistenceId"))
            .append(", MIN(")
            .append(column("sequenceNumber"))
            .append("), MAX(")
            .append(column("sequenceNumber"))
            .append(") FROM ")
            .append(table())
            .append(" WHERE ")
            .append(column("persistenceId"))
            .append(span.exactly() ? " = ?" : " LIKE ? ESCAPE '!'")
            .append(" AND ")
            .append(column("ordering"))
            .append(" <= ?");
    String written = column("writeTimestamp");
    if (span.writtenSince() != null) sql.append(" AND ").append(written).append(" >= ?");
    if (span.afterOrdering() != null) {
      sql.append(" AND (").append(column("ordering")).append(" > ?");
      if (span.orWrittenSince() != null) sql.append(" OR ").append(written).append(" >= ?");
      sql.append(")");
    }
    sql.append(" GROUP BY ").append(column("persistenceId"));
    return query(
        c -> {
          try (java.sql.PreparedStatement query = c.prepareStatement(sql.toString())) {
            int i = 1;
            query.setString(
                i++,
                span.exactly()
                    ? span.prefix()
                    : span.prefix().replace("!", "!!").replace("%", "!%").replace("_", "!_") + "%");
            query.setLong(i++, span.upTo());
            if (span.writtenSince() != null) query.setLong(i++, span.writtenSince());
            if (span.afterOrdering() != null) {
              query.setLong(i++, span.afterOrdering());
              if (span.orWrittenSince() != null) query.setLong(i++, span.orWrittenSince());
            }
            java.util.Map<String, Range> ranges = new java.util.TreeMap<>();
            try (ResultSet rows = query.executeQuery()) {
              while (rows.next())
                ranges.put(rows.getString(1), new Range(rows.getLong(2), rows.getLong(3)));
            }
            return ranges;
          }
        });
  }

  /** The journal position of an event read through this class. */
  public static long position(EventEnvelope envelope) {
    return ((org.apache.pekko.persistence.query.Sequence) envelope.offset()).value();
  }

  /** A JDBC call on a connection of the read journal's pool, off the actor threads. */
  private <T> CompletionStage<T> query(JdbcCall<T> call) {
    SlickExtensionImpl slick = (SlickExtensionImpl) SlickExtension.get(system.classicSystem());
    return CompletableFuture.supplyAsync(
        () -> {
          try (Connection c =
              slick
                  .database(system.settings().config().getConfig("jdbc-read-journal"))
                  .database()
                  .source()
                  .createConnection()) {
            return call.on(c);
          } catch (java.sql.SQLException e) {
            throw new java.util.concurrent.CompletionException(e);
          }
        },
        system.dispatchers().lookup(DispatcherSelector.blocking()));
  }

  private interface JdbcCall<T> {
    T on(Connection c) throws java.sql.SQLException;
  }

  private String table() {
    return JournalSchema.eventTable(system.settings().config());
  }

  private String column(String name) {
    return JournalSchema.eventColumn(system.settings().config(), name);
  }
}
