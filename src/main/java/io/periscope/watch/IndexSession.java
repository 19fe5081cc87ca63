package io.periscope.watch;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.apache.pekko.japi.function.Function;
import org.apache.pekko.projection.jdbc.JdbcSession;

/**
 * One transaction on the wake-up index's database, for the projection (which commits its offset in
 * it). What must happen only once the transaction is written (telling the scheduler of an earlier
 * due time, which it then reads) runs after the commit.
 */
public final class IndexSession implements JdbcSession {
  private final Connection connection;
  private final List<Runnable> afterCommit = new ArrayList<>();

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

  /** Runs {@code action} once this transaction has committed; never if it rolls back. */
  void afterCommit(Runnable action) {
    afterCommit.add(action);
  }

  @Override
  public void commit() throws SQLException {
    connection.commit();
    afterCommit.forEach(Runnable::run);
    afterCommit.clear();
  }

  @Override
  public void rollback() throws SQLException {
    afterCommit.clear();
    connection.rollback();
  }

  @Override
  public void close() throws SQLException {
    connection.close();
  }
}
