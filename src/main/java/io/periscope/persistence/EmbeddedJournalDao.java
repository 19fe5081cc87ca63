package io.periscope.persistence;

import org.apache.pekko.persistence.jdbc.config.JournalConfig;
import org.apache.pekko.persistence.jdbc.journal.dao.DefaultJournalDao;
import org.apache.pekko.persistence.jdbc.journal.dao.JournalTables.JournalPekkoSerializationRow;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.stream.Materializer;
import scala.Tuple2;
import scala.concurrent.ExecutionContext;
import scala.concurrent.Future;
import scala.runtime.BoxedUnit;
import slick.jdbc.JdbcBackend;
import slick.jdbc.JdbcProfile;

/**
 * The plugin's own DAO on the embedded (H2) journal, its writes measured as {@link
 * PostgresJournalDao}'s are.
 */
public final class EmbeddedJournalDao extends DefaultJournalDao {
  private final JournalMeters meters;
  private final ExecutionContext ec;

  public EmbeddedJournalDao(
      JdbcBackend.JdbcDatabaseDef db,
      JdbcProfile profile,
      JournalConfig journalConfig,
      Serialization serialization,
      ExecutionContext ec,
      Materializer mat) {
    super(db, profile, journalConfig, serialization, ec, mat);
    this.meters = JournalMeters.of(mat.system());
    this.ec = ec;
  }

  @Override
  public Future<BoxedUnit> writeJournalRows(
      scala.collection.immutable.Seq<
              Tuple2<JournalPekkoSerializationRow, scala.collection.immutable.Set<String>>>
          batch) {
    return meters.measured(batch.size(), super.writeJournalRows(batch), ec);
  }
}
