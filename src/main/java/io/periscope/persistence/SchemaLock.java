package io.periscope.persistence;

import com.typesafe.config.Config;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;

/**
 * Schema creation one process at a time. {@code CREATE TABLE IF NOT EXISTS} is not safe against
 * itself on PostgreSQL: nodes of a cluster starting together race on the catalog ("duplicate key
 * value violates unique constraint pg_type_typname_nsp_index"). On PostgreSQL the creating step
 * runs under a session-level advisory lock on a connection of its own; the embedded H2 journal has
 * one process only and needs none.
 */
public final class SchemaLock {
  /**
   * An arbitrary constant naming the schema lock among the database's advisory locks ("PERISCHM").
   */
  static final long KEY = 0x5045524953434844L;

  /** How often a node waiting for the lock asks again. */
  static final Duration POLL = Duration.ofMillis(100);

  /**
   * Schema creation takes seconds; a lock held longer than this belongs to a node that is stuck.
   */
  static final Duration PATIENCE = Duration.ofMinutes(2);

  private SchemaLock() {}

  /**
   * Runs {@code create} holding the lock when the journal is PostgreSQL ({@code
   * periscope.database.url}).
   */
  public static <T> T during(Config config, Callable<T> create) throws Exception {
    String url = config.getString("periscope.database.url");
    if (url.isBlank()) return create.call();
    try (Connection c =
        DriverManager.getConnection(
            url,
            config.getString("periscope.database.user"),
            config.getString("periscope.database.password"))) {
      awaitLock(c);
      try {
        return create.call();
      } finally {
        lock(c, "select pg_advisory_unlock(?)");
      }
    }
  }

  /**
   * Asks for the lock until it is free instead of waiting inside {@code pg_advisory_lock}: a
   * session waiting there is a transaction in progress, and the journal's script builds indexes
   * {@code CONCURRENTLY}, which waits for every transaction in progress — the holder would wait for
   * the waiter, which waits for the holder.
   */
  private static void awaitLock(Connection c) throws SQLException, InterruptedException {
    Instant deadline = Instant.now().plus(PATIENCE);
    while (!lock(c, "select pg_try_advisory_lock(?)")) {
      if (Instant.now().isAfter(deadline)) {
        throw new SQLException(
            "another node held the schema lock for more than " + PATIENCE.toSeconds() + " s");
      }
      Thread.sleep(POLL.toMillis());
    }
  }

  /** Runs a lock function: whether it took (or released) the lock. */
  private static boolean lock(Connection c, String sql) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(sql)) {
      s.setLong(1, KEY);
      try (ResultSet answer = s.executeQuery()) {
        return answer.next() && answer.getBoolean(1);
      }
    }
  }
}
