package io.periscope.persistence;

import com.typesafe.config.Config;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.Callable;

/**
 * Schema creation one process at a time. {@code CREATE TABLE IF NOT EXISTS} is not safe against itself on
 * PostgreSQL: nodes of a cluster starting together race on the catalog ("duplicate key value violates unique
 * constraint pg_type_typname_nsp_index"). On PostgreSQL the creating step runs under a session-level advisory
 * lock on a connection of its own; the embedded H2 journal has one process only and needs none.
 *
 * <p>The lock is polled, never waited for inside a statement: the journal's scripts include
 * {@code CREATE INDEX CONCURRENTLY}, which waits for every open transaction to end, and a node blocked in
 * {@code pg_advisory_lock} is one, so the holder and the waiter would wait for each other forever.
 */
public final class SchemaLock {
  /** An arbitrary constant naming the schema lock among the database's advisory locks ("PERISCHM"). */
  static final long KEY = 0x5045524953434844L;
  private static final long POLL_MILLIS = 100;

  private SchemaLock() {}

  /** Runs {@code create} holding the lock when the journal is PostgreSQL ({@code periscope.database.url}). */
  public static <T> T during(Config config, Callable<T> create) throws Exception {
    String url = config.getString("periscope.database.url");
    if (url.isBlank()) return create.call();
    try (Connection c = DriverManager.getConnection(url, config.getString("periscope.database.user"),
        config.getString("periscope.database.password"))) {
      while (!call(c, "select pg_try_advisory_lock(?)")) Thread.sleep(POLL_MILLIS);
      try {
        return create.call();
      } finally {
        call(c, "select pg_advisory_unlock(?)");
      }
    }
  }

  private static boolean call(Connection c, String sql) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(sql)) {
      s.setLong(1, KEY);
      try (ResultSet r = s.executeQuery()) {
        return r.next() && r.getBoolean(1);
      }
    }
  }
}
