package io.periscope.persistence;

import com.typesafe.config.Config;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.persistence.jdbc.config.JournalConfig;
import org.apache.pekko.persistence.jdbc.journal.dao.DefaultJournalDao;
import org.apache.pekko.persistence.jdbc.journal.dao.JournalTables.JournalPekkoSerializationRow;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.stream.Materializer;
import scala.Tuple2;
import scala.concurrent.ExecutionContext;
import scala.concurrent.Future;
import scala.jdk.javaapi.FutureConverters;
import scala.runtime.BoxedUnit;
import slick.jdbc.JdbcBackend;
import slick.jdbc.JdbcProfile;

/**
 * The plugin's own DAO on the embedded (H2) journal, its writes measured as {@link
 * PostgresJournalDao}'s are and spaced by {@code jdbc-journal.batch-spacing} after a batch of
 * several persistence ids ({@link BatchSpacing}).
 */
public final class EmbeddedJournalDao extends DefaultJournalDao {
  static final String SPACING = "jdbc-journal.batch-spacing";

  private final JournalMeters meters;
  private final ExecutionContext ec;
  private final BatchSpacing spacing;

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
    Config config = mat.system().settings().config();
    this.spacing =
        new BatchSpacing(config.hasPath(SPACING) ? config.getDuration(SPACING) : Duration.ZERO);
  }

  @Override
  public Future<BoxedUnit> writeJournalRows(
      scala.collection.immutable.Seq<
              Tuple2<JournalPekkoSerializationRow, scala.collection.immutable.Set<String>>>
          batch) {
    long wait = spacing.waitNanos(System.nanoTime(), severalIds(batch));
    if (wait == 0) return written(batch);
    Executor later = CompletableFuture.delayedExecutor(wait, TimeUnit.NANOSECONDS, ec::execute);
    return FutureConverters.asScala(
        CompletableFuture.supplyAsync(() -> written(batch), later)
            .thenCompose(FutureConverters::asJava));
  }

  private static boolean severalIds(
      scala.collection.immutable.Seq<
              Tuple2<JournalPekkoSerializationRow, scala.collection.immutable.Set<String>>>
          batch) {
    if (batch.isEmpty()) return false;
    String first = batch.head()._1().persistenceId();
    return batch.exists(row -> !row._1().persistenceId().equals(first));
  }

  private Future<BoxedUnit> written(
      scala.collection.immutable.Seq<
              Tuple2<JournalPekkoSerializationRow, scala.collection.immutable.Set<String>>>
          batch) {
    return meters.measured(batch.size(), super.writeJournalRows(batch), ec);
  }
}
