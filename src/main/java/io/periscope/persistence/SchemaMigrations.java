package io.periscope.persistence;

import com.typesafe.config.Config;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.flywaydb.core.api.output.MigrateResult;

/**
 * The tables Periscope owns in the journal's database (the wake-up index, the journal's extra
 * indexes), created and changed by numbered migrations ({@code
 * io/periscope/persistence/migrations/V<n>__*.sql}, and {@link EmbeddedJournalIndexes} for H2's
 * own) that Flyway applies in order and records in {@value #HISTORY_TABLE}. The journal's own
 * tables stay the plugin's ({@link JournalSchema}); the caller holds the {@link SchemaLock}.
 *
 * <p>A database from release 0.1.0, which created these tables without a version record, is adopted
 * as it is: baselined at version 1 (whose script is what that release created), its rows untouched,
 * and later migrations applied on top.
 */
public final class SchemaMigrations {
  static final String HISTORY_TABLE = "periscope_schema_history";
  private static final String LOCATION = "classpath:io/periscope/persistence/migrations";

  /** The version whose script is the schema release 0.1.0 made without migrations. */
  static final String RELEASE_0_1_VERSION = "1";

  /** A table release 0.1.0 made on a serving node's first start, and the migrations' version 1. */
  private static final String RELEASE_0_1_TABLE = "periscope_wakeups";

  private SchemaMigrations() {}

  /**
   * Brings the schema to the newest version. A database without a version table is baselined first,
   * as Flyway migrates no schema that holds tables it has no record of (the plugin's are always
   * there): at version 1 when release 0.1.0 made Periscope's tables, else at version 0, below every
   * migration.
   */
  public static MigrateResult apply(Config config) throws SQLException {
    return apply(config, "latest");
  }

  /**
   * Brings the schema to {@code target} (a version, or {@code latest}): a database as an earlier
   * release left it, for the tests and benchmarks that start from one.
   */
  public static MigrateResult apply(Config config, String target) throws SQLException {
    Config db = config.getConfig("pekko-persistence-jdbc.shared-databases.periscope.db");
    String url = db.getString("url");
    String user = db.getString("user");
    String password = db.getString("password");
    FluentConfiguration settings =
        Flyway.configure(SchemaMigrations.class.getClassLoader())
            .dataSource(url, user, password)
            .locations(LOCATION)
            .javaMigrations(new EmbeddedJournalIndexes())
            .table(HISTORY_TABLE)
            .placeholders(placeholders(config))
            .target(target);
    Flyway flyway = settings.load();
    if (flyway.info().applied().length == 0) {
      boolean release01;
      try (Connection c = DriverManager.getConnection(url, user, password)) {
        release01 = exists(c, RELEASE_0_1_TABLE);
      }
      settings
          .baselineVersion(release01 ? RELEASE_0_1_VERSION : "0")
          // no quotes: Flyway writes the description into its PostgreSQL script unescaped
          .baselineDescription(
              release01 ? "release 0.1.0, made before migrations" : "journal tables only")
          .load()
          .baseline();
    }
    return flyway.migrate();
  }

  /** The journal's names the scripts refer to, from its settings as the plugin reads them. */
  static Map<String, String> placeholders(Config config) {
    String table = config.getString("jdbc-journal.tables.event_journal.tableName");
    return Map.of(
        "eventTable", JournalSchema.eventTable(config),
        "writeTimestampColumn", JournalSchema.eventColumn(config, "writeTimestamp"),
        "writeTimestampIndex", "\"" + table + "_write_timestamp_idx\"");
  }

  /**
   * Whether {@code table} is there, asked as the code names it: H2 and PostgreSQL fold unquoted
   * names to different cases, which a catalog lookup would have to know.
   */
  private static boolean exists(Connection c, String table) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.executeQuery("SELECT 1 FROM " + table + " WHERE 1 = 0").close();
      return true;
    } catch (SQLException missing) {
      if (!c.getAutoCommit()) c.rollback();
      return false;
    }
  }
}
