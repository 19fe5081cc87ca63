package io.periscope.persistence;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.migration.Context;
import org.flywaydb.core.api.migration.JavaMigration;

/**
 * Migration 2, on the embedded H2 journal only (a PostgreSQL database records it and changes
 * nothing): what every commit wrote and nothing needs. With {@code WRITE_DELAY=0} each commit
 * writes the B-tree pages it touched, so each index a row goes to is pages written again at every
 * persist.
 *
 * <ul>
 *   <li>The plugin's H2 script makes {@code ordering} unique twice (the column's {@code UNIQUE},
 *       which the tags' foreign key refers to, and a unique index of its own): the index goes, the
 *       constraint stays.
 *   <li>The tag table's primary key {@code (event_id, tag)} goes: H2 gives a foreign key an index
 *       of exactly its columns ({@code event_id}), which serves the {@code ON DELETE CASCADE}, and
 *       Periscope's {@code (tag, event_id)} index, made unique in its place, keeps a pair from
 *       coming twice and serves the tag queries.
 *   <li>The {@code ordering} identity reserves 1,024 values at a time instead of 32: H2 writes a
 *       reservation in a commit of its own. A killed node skips what it had reserved, a gap the
 *       read journal already waits out after any kill.
 * </ul>
 */
final class EmbeddedJournalIndexes implements JavaMigration {
  private static final String EVENTS = "\"event_journal\"";
  private static final String TAGS = "\"event_tag\"";
  static final int ORDERING_CACHE = 1024;

  @Override
  public MigrationVersion getVersion() {
    return MigrationVersion.fromVersion("2");
  }

  @Override
  public String getDescription() {
    return "fewer journal indexes on H2";
  }

  @Override
  public Integer getChecksum() {
    return null;
  }

  @Override
  public boolean canExecuteInTransaction() {
    return true;
  }

  @Override
  public void migrate(Context context) throws SQLException {
    Connection c = context.getConnection();
    if (!c.getMetaData().getDatabaseProductName().equals("H2")) return;
    try (Statement s = c.createStatement()) {
      s.execute("DROP INDEX IF EXISTS \"event_journal_ordering_idx\"");
      // Each step may be taken again after a kill between them (H2 commits each DDL statement).
      s.execute(
          "CREATE UNIQUE INDEX IF NOT EXISTS \"event_tag_tag_event_key\" ON "
              + TAGS
              + " (\"tag\", \"event_id\")");
      s.execute("DROP INDEX IF EXISTS \"event_tag_tag_idx\"");
      if (hasPrimaryKey(s)) s.execute("ALTER TABLE " + TAGS + " DROP PRIMARY KEY");
      s.execute("ALTER TABLE " + EVENTS + " ALTER COLUMN \"ordering\" SET CACHE " + ORDERING_CACHE);
    }
  }

  private static boolean hasPrimaryKey(Statement s) throws SQLException {
    try (ResultSet r =
        s.executeQuery(
            "SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLE_CONSTRAINTS WHERE TABLE_SCHEMA ="
                + " 'PUBLIC' AND TABLE_NAME = 'event_tag' AND CONSTRAINT_TYPE = 'PRIMARY KEY'")) {
      r.next();
      return r.getInt(1) > 0;
    }
  }
}
