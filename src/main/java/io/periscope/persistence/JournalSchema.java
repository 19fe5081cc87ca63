package io.periscope.persistence;

import com.typesafe.config.Config;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.persistence.jdbc.testkit.javadsl.SchemaUtils;

/**
 * Creates the journal, snapshot and state tables from pekko-persistence-jdbc's own scripts when
 * they are missing, then brings the tables Periscope owns to their newest version ({@link
 * SchemaMigrations}), one starting node at a time ({@link SchemaLock}). Journal rows are never
 * deleted: the plugin drops events after a gap.
 *
 * <p>The plugin picks its script by the journal's DAO and takes any DAO but its own for the legacy
 * one, so with {@link PostgresJournalDao} the current PostgreSQL script is applied by name, and
 * with {@link EmbeddedJournalDao} the schema is created from settings that name the plugin's DAO.
 */
public final class JournalSchema {
  private static final Duration PATIENCE = Duration.ofSeconds(60);
  private static final String POSTGRES_SCRIPT = "schema/postgres/postgres-create-schema.sql";

  /** The journal's settings naming the plugin's own DAO (conf/embedded.conf). */
  private static final String EMBEDDED_SETTINGS = "periscope.journal-schema";

  private JournalSchema() {}

  public static void create(ActorSystem<?> system) {
    try {
      SchemaLock.during(
          system.settings().config(),
          () -> {
            createTables(system).toCompletableFuture().get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            SchemaMigrations.apply(system.settings().config());
            return Done.done();
          });
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while creating the journal schema", e);
    } catch (Exception e) {
      throw new IllegalStateException("cannot create the journal schema: " + e.getMessage(), e);
    }
  }

  private static final String TABLE = "jdbc-journal.tables.event_journal";

  /**
   * The journal's event table, quoted: the H2 script creates lower-case quoted names, PostgreSQL's
   * unquoted ones, which are the same lower-case names.
   */
  static String eventTable(Config config) {
    String schema = config.getString(TABLE + ".schemaName");
    return (schema.isEmpty() ? "" : "\"" + schema + "\".")
        + "\""
        + config.getString(TABLE + ".tableName")
        + "\"";
  }

  /**
   * A column of the event table by its setting's name ({@code ordering}, {@code writeTimestamp}).
   */
  static String eventColumn(Config config, String name) {
    return "\"" + config.getString(TABLE + ".columnNames." + name) + "\"";
  }

  private static CompletionStage<Done> createTables(ActorSystem<?> system) throws IOException {
    String dao = system.settings().config().getString("jdbc-journal.dao");
    if (dao.equals(EmbeddedJournalDao.class.getName()))
      return SchemaUtils.createIfNotExists(EMBEDDED_SETTINGS, system);
    if (!dao.equals(PostgresJournalDao.class.getName()))
      return SchemaUtils.createIfNotExists(system);
    try (InputStream script =
        SchemaUtils.class.getClassLoader().getResourceAsStream(POSTGRES_SCRIPT)) {
      if (script == null) throw new IOException(POSTGRES_SCRIPT + " is not on the class path");
      return SchemaUtils.applyScript(
          new String(script.readAllBytes(), StandardCharsets.UTF_8), system);
    }
  }
}
