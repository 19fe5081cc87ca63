package io.periscope.persistence;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.pekko.NotUsed;
import org.apache.pekko.persistence.PersistentRepr;
import org.apache.pekko.persistence.jdbc.PekkoSerialization$;
import org.apache.pekko.persistence.jdbc.config.EventJournalTableColumnNames;
import org.apache.pekko.persistence.jdbc.config.EventTagTableColumnNames;
import org.apache.pekko.persistence.jdbc.config.ReadJournalConfig;
import org.apache.pekko.persistence.jdbc.journal.dao.JournalTables.JournalPekkoSerializationRow;
import org.apache.pekko.persistence.jdbc.query.dao.DefaultReadJournalDao;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.stream.Materializer;
import org.apache.pekko.stream.scaladsl.Source;
import scala.Option;
import scala.Tuple3;
import scala.collection.immutable.Set;
import scala.collection.immutable.Set$;
import scala.concurrent.ExecutionContext;
import scala.util.Try;
import slick.jdbc.JdbcBackend;
import slick.jdbc.JdbcProfile;

/**
 * The read journal's DAO on the embedded (H2) journal: the plugin's, but for {@code eventsByTag},
 * which the projections poll (the wake-up index's every few seconds). The plugin's query bounds the
 * events' positions inside a subquery, so H2 plans it from the tag's side: every row of the tag
 * ever written, each joined to that subquery, at every poll; the tag's rows grow with the journal
 * (a schedule event a run, kept as long as the runs' history), and so did each poll. This query
 * bounds both tables by the same positions, so whichever H2 reads first it reads from the last
 * offset: only the events since. The same events, in the same order.
 */
public final class EmbeddedReadJournalDao extends DefaultReadJournalDao {
  private final JdbcBackend.JdbcDatabaseDef db;
  private final Serialization serialization;
  private final String eventsByTag;

  public EmbeddedReadJournalDao(
      JdbcBackend.JdbcDatabaseDef db,
      JdbcProfile profile,
      ReadJournalConfig readJournalConfig,
      Serialization serialization,
      ExecutionContext ec,
      Materializer mat) {
    super(db, profile, readJournalConfig, serialization, ec, mat);
    this.db = db;
    this.serialization = serialization;
    this.eventsByTag = eventsByTagQuery(readJournalConfig);
  }

  /**
   * The events of {@code tag} past position {@code offset} up to {@code maxOffset}, at most {@code
   * limit}, by position; its parameters: the tag, the offset and the maximum twice (the tags'
   * range, the events' range), the limit.
   */
  static String eventsByTagQuery(ReadJournalConfig config) {
    EventJournalTableColumnNames e = config.eventJournalTableConfiguration().columnNames();
    EventTagTableColumnNames t = config.eventTagTableConfiguration().columnNames();
    String events =
        table(
            config.eventJournalTableConfiguration().schemaName(),
            config.eventJournalTableConfiguration().tableName());
    String tags =
        table(
            config.eventTagTableConfiguration().schemaName(),
            config.eventTagTableConfiguration().tableName());
    List<String> columns =
        List.of(
            e.ordering(),
            e.deleted(),
            e.persistenceId(),
            e.sequenceNumber(),
            e.writer(),
            e.writeTimestamp(),
            e.adapterManifest(),
            e.eventPayload(),
            e.eventSerId(),
            e.eventSerManifest(),
            e.metaPayload(),
            e.metaSerId(),
            e.metaSerManifest());
    return "SELECT "
        + String.join(", ", columns.stream().map(c -> "e." + quoted(c)).toList())
        + " FROM "
        + tags
        + " t JOIN "
        + events
        + " e ON e."
        + quoted(e.ordering())
        + " = t."
        + quoted(t.eventId())
        + " WHERE t."
        + quoted(t.tag())
        + " = ? AND t."
        + quoted(t.eventId())
        + " > ? AND t."
        + quoted(t.eventId())
        + " <= ? AND e."
        + quoted(e.ordering())
        + " > ? AND e."
        + quoted(e.ordering())
        + " <= ? AND e."
        + quoted(e.deleted())
        + " = FALSE ORDER BY t."
        + quoted(t.eventId())
        + " LIMIT ?";
  }

  private static String table(Option<String> schema, String name) {
    return (schema.isDefined() ? quoted(schema.get()) + "." : "") + quoted(name);
  }

  private static String quoted(String identifier) {
    return "\"" + identifier + "\"";
  }

  @Override
  public Source<Try<Tuple3<PersistentRepr, Set<String>, Object>>, NotUsed> eventsByTag(
      String tag, long offset, long maxOffset, long max) {
    long limit = correctMaxForH2Driver(max);
    ExecutionContext io = db.ioExecutionContext();
    return org.apache.pekko.stream.javadsl.Source.completionStage(
            CompletableFuture.supplyAsync(() -> read(tag, offset, maxOffset, limit), io::execute))
        .mapConcat(events -> events)
        .asScala();
  }

  private List<Try<Tuple3<PersistentRepr, Set<String>, Object>>> read(
      String tag, long offset, long maxOffset, long limit) {
    List<Try<Tuple3<PersistentRepr, Set<String>, Object>>> events = new ArrayList<>();
    try (Connection c = db.source().createConnection();
        PreparedStatement q = c.prepareStatement(eventsByTag)) {
      q.setString(1, tag);
      q.setLong(2, offset);
      q.setLong(3, maxOffset);
      q.setLong(4, offset);
      q.setLong(5, maxOffset);
      q.setLong(6, limit);
      try (ResultSet rs = q.executeQuery()) {
        while (rs.next()) events.add(event(rs));
      }
    } catch (SQLException e) {
      throw new CompletionException(e);
    }
    return events;
  }

  /** The row as the plugin's own query returns it: the event, no tags, its position. */
  private Try<Tuple3<PersistentRepr, Set<String>, Object>> event(ResultSet rs) throws SQLException {
    int metaSerId = rs.getInt(12);
    Option<Object> metaSerIdOrNone = rs.wasNull() ? Option.empty() : Option.apply(metaSerId);
    JournalPekkoSerializationRow row =
        new JournalPekkoSerializationRow(
            rs.getLong(1),
            rs.getBoolean(2),
            rs.getString(3),
            rs.getLong(4),
            rs.getString(5),
            rs.getLong(6),
            rs.getString(7),
            rs.getBytes(8),
            rs.getInt(9),
            rs.getString(10),
            Option.apply(rs.getBytes(11)),
            metaSerIdOrNone,
            Option.apply(rs.getString(13)));
    Set<String> noTags = Set$.MODULE$.empty();
    return PekkoSerialization$.MODULE$
        .fromRow(serialization, row)
        .map(read -> new Tuple3<>(read._1(), noTags, read._2()));
  }
}
