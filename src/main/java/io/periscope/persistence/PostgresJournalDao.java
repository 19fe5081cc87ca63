package io.periscope.persistence;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.pekko.persistence.jdbc.config.EventJournalTableColumnNames;
import org.apache.pekko.persistence.jdbc.config.EventJournalTableConfiguration;
import org.apache.pekko.persistence.jdbc.config.EventTagTableConfiguration;
import org.apache.pekko.persistence.jdbc.config.JournalConfig;
import org.apache.pekko.persistence.jdbc.journal.dao.DefaultJournalDao;
import org.apache.pekko.persistence.jdbc.journal.dao.JournalTables.JournalPekkoSerializationRow;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.stream.Materializer;
import scala.Option;
import scala.Tuple2;
import scala.concurrent.ExecutionContext;
import scala.concurrent.Future;
import scala.concurrent.Promise;
import scala.jdk.javaapi.CollectionConverters;
import scala.runtime.BoxedUnit;
import slick.jdbc.JdbcBackend;
import slick.jdbc.JdbcProfile;
import slick.jdbc.PostgresProfile;
import slick.jdbc.hikaricp.HikariCPJdbcDataSource;

/**
 * The journal's data access on PostgreSQL: the plugin's own DAO, except that a batch of events and
 * their tags is written by one autocommitted statement on connections of its own.
 *
 * <p>The plugin writes a batch as a transaction of three round trips (insert the events returning
 * their ordering, insert the tags, commit), each hopping back through Slick's executor and queueing
 * behind the recovery reads of every entity that starts; under 32 concurrent creates that made a
 * persist take 67 ms at p99 (docs/performance-log.md). Here the events go in as arrays, a
 * data-modifying CTE hands their ordering to the tag insert, and the statement is atomic on its
 * own. Each writer thread keeps its connection between batches: a connection borrowed anew is
 * checked by the pool with a round trip of its own whenever it sat idle half a second, as it mostly
 * had between the persists of a run. Reads, replays and deletes stay the plugin's.
 */
public final class PostgresJournalDao extends DefaultJournalDao {
  /**
   * The statement's array parameters, in order: one per event column written, then the tags' three.
   */
  private static final List<String> EVENT_ARRAY_TYPES =
      List.of(
          "boolean", "varchar", "int8", "varchar", "int8", "varchar", "int4", "varchar", "bytea",
          "int4", "varchar", "bytea");

  private static final List<String> TAG_ARRAY_TYPES = List.of("varchar", "int8", "varchar");

  private static final List<String> COLUMN_TYPES =
      Stream.concat(EVENT_ARRAY_TYPES.stream(), TAG_ARRAY_TYPES.stream()).toList();

  /** How long a kept connection that failed a batch has to answer before it counts as broken. */
  private static final int VALID_WITHIN_SECONDS = 3;

  private final HikariDataSource writers;
  private final ExecutorService writerThreads;

  /** The connection each writer thread writes on, kept until it fails. */
  private final ThreadLocal<Connection> held = new ThreadLocal<>();

  /** Every connection kept, to give back to the pool when the system stops. */
  private final Set<Connection> kept = ConcurrentHashMap.newKeySet();

  private final String insertSql;
  private final JournalMeters meters;
  private final ExecutionContext ec;

  public PostgresJournalDao(
      JdbcBackend.JdbcDatabaseDef db,
      JdbcProfile profile,
      JournalConfig journalConfig,
      Serialization serialization,
      ExecutionContext ec,
      Materializer mat) {
    super(db, profile, journalConfig, serialization, ec, mat);
    if (!(profile instanceof PostgresProfile)) {
      throw new IllegalStateException(
          "PostgresJournalDao writes PostgreSQL only; the journal's profile is " + profile);
    }
    this.meters = JournalMeters.of(mat.system());
    this.ec = ec;
    int parallelism = journalConfig.daoConfig().parallelism();
    this.writers = writerPool(db, parallelism);
    AtomicInteger threadNumber = new AtomicInteger();
    this.writerThreads =
        Executors.newFixedThreadPool(
            parallelism,
            task -> {
              Thread thread =
                  new Thread(task, "periscope-journal-writer-" + threadNumber.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
    this.insertSql =
        insertSql(
            journalConfig.eventJournalTableConfiguration(),
            journalConfig.eventTagTableConfiguration());
    mat.system()
        .registerOnTermination(
            () -> {
              writerThreads.shutdown();
              try {
                writerThreads.awaitTermination(5, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              kept.forEach(PostgresJournalDao::giveBack);
              writers.close();
            });
  }

  /**
   * As many connections as the plugin runs write batches at once, configured like the plugin's own
   * pool.
   */
  private static HikariDataSource writerPool(JdbcBackend.JdbcDatabaseDef db, int size) {
    if (!(db.source() instanceof HikariCPJdbcDataSource source)) {
      throw new IllegalStateException(
          "the PostgreSQL journal expects Slick's HikariCP connection pool");
    }
    HikariConfig config = new HikariConfig();
    source.ds().copyStateTo(config);
    config.setPoolName(config.getPoolName() + "-journal-writes");
    config.setMaximumPoolSize(size);
    config.setMinimumIdle(size);
    config.setAutoCommit(true);
    return new HikariDataSource(config);
  }

  @Override
  public Future<BoxedUnit> writeJournalRows(
      scala.collection.immutable.Seq<
              Tuple2<JournalPekkoSerializationRow, scala.collection.immutable.Set<String>>>
          batch) {
    List<Tuple2<JournalPekkoSerializationRow, scala.collection.immutable.Set<String>>> rows =
        new ArrayList<>(CollectionConverters.asJava(batch));
    Promise<BoxedUnit> written = Promise.apply();
    try {
      writerThreads.execute(
          () -> {
            try {
              write(rows);
              written.success(BoxedUnit.UNIT);
            } catch (RuntimeException e) {
              written.failure(e);
            }
          });
    } catch (RejectedExecutionException stopping) {
      // The actor system terminates; a throw here would end the plugin's write stream for good.
      written.failure(stopping);
    }
    return meters.measured(rows.size(), written.future(), ec);
  }

  private void write(
      List<Tuple2<JournalPekkoSerializationRow, scala.collection.immutable.Set<String>>> rows) {
    // Ascending sequence numbers, so a persistence id's events also ascend in the global ordering.
    rows.sort(Comparator.comparingLong(row -> row._1().sequenceNumber()));
    int n = rows.size();
    Boolean[] deleted = new Boolean[n];
    String[] persistenceIds = new String[n];
    Long[] sequenceNumbers = new Long[n];
    String[] writerUuids = new String[n];
    Long[] timestamps = new Long[n];
    String[] adapterManifests = new String[n];
    Integer[] serIds = new Integer[n];
    String[] serManifests = new String[n];
    byte[][] payloads = new byte[n][];
    Integer[] metaSerIds = new Integer[n];
    String[] metaSerManifests = new String[n];
    byte[][] metaPayloads = new byte[n][];
    List<String> tagPids = new ArrayList<>();
    List<Long> tagSeqs = new ArrayList<>();
    List<String> tags = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      JournalPekkoSerializationRow row = rows.get(i)._1();
      deleted[i] = row.deleted();
      persistenceIds[i] = row.persistenceId();
      sequenceNumbers[i] = row.sequenceNumber();
      writerUuids[i] = row.writer();
      timestamps[i] = row.writeTimestamp();
      adapterManifests[i] = row.adapterManifest();
      serIds[i] = row.eventSerId();
      serManifests[i] = row.eventSerManifest();
      payloads[i] = row.eventPayload();
      metaSerIds[i] = orNull(row.metaSerId());
      metaSerManifests[i] = orNull(row.metaSerManifest());
      metaPayloads[i] = orNull(row.metaPayload());
      for (String tag : CollectionConverters.asJava(rows.get(i)._2())) {
        tagPids.add(row.persistenceId());
        tagSeqs.add(row.sequenceNumber());
        tags.add(tag);
      }
    }
    Object[][] columns = {
      deleted,
      persistenceIds,
      sequenceNumbers,
      writerUuids,
      timestamps,
      adapterManifests,
      serIds,
      serManifests,
      payloads,
      metaSerIds,
      metaSerManifests,
      metaPayloads,
      tagPids.toArray(new String[0]),
      tagSeqs.toArray(new Long[0]),
      tags.toArray(new String[0])
    };
    try {
      insert(keptConnection(), columns);
    } catch (SQLException failed) {
      // A kept connection the server closed (a restart, an idle timeout) fails the first batch it
      // is given: that batch goes again on a connection the pool checks. A batch that was written
      // before its connection broke is refused the second time by the journal's key (persistence
      // id, sequence number), so it fails as it would have, never written twice.
      if (!dropKeptIfBroken()) throw new JournalWriteException(failed);
      try {
        insert(keptConnection(), columns);
      } catch (SQLException again) {
        dropKeptIfBroken();
        throw new JournalWriteException(again);
      }
    }
  }

  private void insert(Connection connection, Object[][] columns) throws SQLException {
    try (PreparedStatement insert = connection.prepareStatement(insertSql)) {
      for (int c = 0; c < columns.length; c++) {
        insert.setArray(c + 1, connection.createArrayOf(COLUMN_TYPES.get(c), columns[c]));
      }
      insert.executeUpdate();
    }
  }

  private Connection keptConnection() throws SQLException {
    Connection connection = held.get();
    if (connection == null) {
      connection = writers.getConnection();
      held.set(connection);
      kept.add(connection);
    }
    return connection;
  }

  /**
   * Gives this thread's kept connection back when it no longer answers (the pool then drops it), so
   * the next batch borrows one the pool checks.
   *
   * @return whether it was broken (not when there was none: the pool could not give one)
   */
  private boolean dropKeptIfBroken() {
    Connection connection = held.get();
    if (connection == null) return false;
    boolean broken;
    try {
      broken = connection.isClosed() || !connection.isValid(VALID_WITHIN_SECONDS);
    } catch (SQLException e) {
      broken = true;
    }
    if (broken) {
      held.remove();
      kept.remove(connection);
      giveBack(connection);
    }
    return broken;
  }

  private static void giveBack(Connection connection) {
    try {
      connection.close();
    } catch (SQLException ignored) {
      // a broken connection: the pool evicts it either way
    }
  }

  @SuppressWarnings("unchecked")
  private static <T> T orNull(Option<?> value) {
    return value.isDefined() ? (T) value.get() : null;
  }

  private static String insertSql(
      EventJournalTableConfiguration journal, EventTagTableConfiguration tagTable) {
    EventJournalTableColumnNames c = journal.columnNames();
    String journalTable = qualified(journal.schemaName(), journal.tableName());
    String tagTableName = qualified(tagTable.schemaName(), tagTable.tableName());
    return "WITH j AS (INSERT INTO "
        + journalTable
        + " ("
        + String.join(
            ", ",
            c.deleted(),
            c.persistenceId(),
            c.sequenceNumber(),
            c.writer(),
            c.writeTimestamp(),
            c.adapterManifest(),
            c.eventSerId(),
            c.eventSerManifest(),
            c.eventPayload(),
            c.metaSerId(),
            c.metaSerManifest(),
            c.metaPayload())
        + ") SELECT e.deleted, e.pid, e.seq, e.writer, e.ts, e.adapter, e.ser_id, e.ser_manifest,"
        + " e.payload, e.meta_ser_id, e.meta_ser_manifest, e.meta_payload FROM unnest("
        + arrayParameters(EVENT_ARRAY_TYPES)
        + ") WITH ORDINALITY AS e(deleted, pid, seq, writer, ts, adapter, ser_id, ser_manifest,"
        + " payload, meta_ser_id, meta_ser_manifest, meta_payload, position) ORDER BY e.position"
        + " RETURNING "
        + c.ordering()
        + ", "
        + c.persistenceId()
        + ", "
        + c.sequenceNumber()
        + ")"
        + " INSERT INTO "
        + tagTableName
        + " ("
        + tagTable.columnNames().eventId()
        + ", "
        + tagTable.columnNames().tag()
        + ")"
        + " SELECT j."
        + c.ordering()
        + ", t.tag FROM j JOIN unnest("
        + arrayParameters(TAG_ARRAY_TYPES)
        + ")"
        + " AS t(pid, seq, tag) ON j."
        + c.persistenceId()
        + " = t.pid AND j."
        + c.sequenceNumber()
        + " = t.seq";
  }

  private static String arrayParameters(List<String> types) {
    return types.stream().map(type -> "?::" + type + "[]").collect(Collectors.joining(", "));
  }

  private static String qualified(Option<String> schema, String table) {
    return schema.isDefined() ? schema.get() + "." + table : table;
  }

  /** A batch the database refused; the plugin fails every persist of the batch with it. */
  static final class JournalWriteException extends RuntimeException {
    JournalWriteException(SQLException cause) {
      super("writing a journal batch failed: " + cause.getMessage(), cause);
    }
  }
}
