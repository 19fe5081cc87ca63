package io.periscope.runtime;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * The single-writer guard of a PostgreSQL journal, which nodes on other machines share: every
 * serving node holds a shared session-level advisory lock, and the command line may write the
 * journal itself only with the exclusive one, which it gets only while no node runs. A node that
 * dies drops its connection and its lock.
 */
public final class DatabaseWriterLock implements AutoCloseable {
  /** An arbitrary constant naming Periscope's lock among the database's advisory locks. */
  static final long KEY = 0x5045524953434f50L; // "PERISCOP"

  private final Connection connection;

  private DatabaseWriterLock(Connection connection) {
    this.connection = connection;
  }

  /** Held by a serving node for its lifetime. */
  public static DatabaseWriterLock holdShared(String url, String user, String password)
      throws SQLException {
    Connection c = DriverManager.getConnection(url, user, password);
    try (PreparedStatement s = c.prepareStatement("select pg_advisory_lock_shared(?)")) {
      s.setLong(1, KEY);
      s.execute();
    } catch (SQLException e) {
      c.close();
      throw e;
    }
    return new DatabaseWriterLock(c);
  }

  /** The exclusive lock, or empty while any node holds the shared one. */
  public static Optional<DatabaseWriterLock> tryExclusive(String url, String user, String password)
      throws SQLException {
    Connection c = DriverManager.getConnection(url, user, password);
    try (PreparedStatement s = c.prepareStatement("select pg_try_advisory_lock(?)")) {
      s.setLong(1, KEY);
      try (ResultSet r = s.executeQuery()) {
        if (r.next() && r.getBoolean(1)) return Optional.of(new DatabaseWriterLock(c));
      }
    } catch (SQLException e) {
      c.close();
      throw e;
    }
    c.close();
    return Optional.empty();
  }

  @Override
  public void close() throws SQLException {
    connection.close(); // session-level advisory locks end with the session
  }
}
