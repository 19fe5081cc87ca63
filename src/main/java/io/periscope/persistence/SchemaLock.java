package io.periscope.persistence;

import com.typesafe.config.Config;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.concurrent.Callable;

/**
 * Schema creation one process at a time. {@code CREATE TABLE IF NOT EXISTS} is not safe against itself on
 * PostgreSQL: nodes of a cluster starting together race on the catalog ("duplicate key value violates unique
 * constraint pg_type_typname_nsp_index"). On PostgreSQL the creating step runs under a session-level advisory
 * lock on a connection of its own; the embedded H2 journal has one process only and needs none.
 */
public final class SchemaLock {
  /** An arbitrary constant naming the schema lock among the database's advisory locks ("PERISCHM"). */
  static final long KEY = 0x5045524953434844L;

  private SchemaLock() {}

  /** Runs {@code create} holding the lock when the journal is PostgreSQL ({@code periscope.database.url}). */
  public static <T> T during(Config config, Callable<T> create) throws Exception {
    String url = config.getString("periscope.database.url");
    if (url.isBlank()) return create.call();
    try (Connection c = DriverManager.getConnection(url, config.getString("periscope.database.user"),
        config.getString("periscope.database.password"))) {
      lock(c, "select pg_advisory_lock(?)");
      try {
        return create.call();
      } finally {
        lock(c, "select pg_advisory_unlock(?)");
      }
    }
  }

  private static void lock(Connection c, String sql) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(sql)) {
      s.setLong(1, KEY);
      s.execute();
    }
  }
}
