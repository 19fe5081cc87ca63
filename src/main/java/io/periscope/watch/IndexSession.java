package io.periscope.watch;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.apache.pekko.japi.function.Function;
import org.apache.pekko.projection.jdbc.JdbcSession;

/**
 * One transaction on the wake-up index's database, for the projection (which commits its offset in
 * it).
 */
public final class IndexSession implements JdbcSession {
  private final Connection connection;

  IndexSession(DataSource pool) {
    try {
      connection = pool.getConnection();
      connection.setAutoCommit(false);
    } catch (SQLException e) {
      throw new IllegalStateException(
          "cannot open a connection to the wake-up index: " + e.getMessage(), e);
    }
  }

  @Override
  public <R> R withConnection(Function<Connection, R> work) throws Exception {
    return work.apply(connection);
  }

  @Override
  public void commit() throws SQLException {
    connection.commit();
  }

  @Override
  public void rollback() throws SQLException {
    connection.rollback();
  }

  @Override
  public void close() throws SQLException {
    connection.close();
  }
}
