package io.periscope.runtime;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single-writer guard of a PostgreSQL journal, which nodes on other machines share: every
 * serving node holds a shared session-level advisory lock, and the command line may write the
 * journal itself only with the exclusive one, which it gets only while no node runs. A node that
 * dies drops its connection and its lock.
 *
 * <p>A node that is a member of the cluster (Up) also holds a second shared lock, the member lock:
 * it tells a starting first seed node that a cluster already runs on this journal, which it must
 * join rather than form a second cluster beside it ({@link #otherMembersAlive}).
 */
public final class DatabaseWriterLock implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DatabaseWriterLock.class);

  /** An arbitrary constant naming Periscope's lock among the database's advisory locks. */
  static final long KEY = 0x5045524953434f50L; // "PERISCOP"

  /** The member lock's key, beside {@link #KEY}. */
  static final long MEMBER_KEY = KEY + 1;

  /**
   * A member lock whose session did nothing for this long is taken for a lost machine's (the
   * database keeps a session whose peer vanished without closing it until TCP gives up, which can
   * take hours); a live node's {@link #CHECK_EVERY} check touches it far more often.
   */
  static final Duration MEMBER_SILENT_AFTER = Duration.ofMinutes(2);

  /** How often a serving node checks that the session holding its shared lock is alive. */
  static final Duration CHECK_EVERY = Duration.ofSeconds(5);

  private final String url;
  private final String user;
  private final String password;
  private Connection connection;
  private boolean member;
  private final ScheduledExecutorService keeper;

  private DatabaseWriterLock(
      Connection connection, String url, String user, String password, Duration checkEvery) {
    this.connection = connection;
    this.url = url;
    this.user = user;
    this.password = password;
    if (checkEvery == null) {
      this.keeper = null;
      return;
    }
    this.keeper =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "periscope-journal-lock");
              t.setDaemon(true);
              return t;
            });
    keeper.scheduleWithFixedDelay(
        this::keep, checkEvery.toMillis(), checkEvery.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * Held by a serving node for its lifetime. The lock lives as long as its session: when the
   * database restarts or the connection breaks, the node connects again and takes it again, so the
   * command line cannot mistake a serving node for none.
   */
  public static DatabaseWriterLock holdShared(String url, String user, String password)
      throws SQLException {
    return new DatabaseWriterLock(shared(url, user, password), url, user, password, CHECK_EVERY);
  }

  private static Connection shared(String url, String user, String password) throws SQLException {
    Connection c = DriverManager.getConnection(url, user, password);
    try {
      lockShared(c, KEY);
    } catch (SQLException e) {
      c.close();
      throw e;
    }
    return c;
  }

  private static void lockShared(Connection c, long key) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("select pg_advisory_lock_shared(?)")) {
      s.setLong(1, key);
      s.execute();
    }
  }

  /** Held from the moment this node is a member of the cluster (Up) until it exits. */
  public synchronized void holdAsMember() throws SQLException {
    lockShared(connection, MEMBER_KEY);
    member = true;
  }

  /**
   * Whether another node holds the member lock on a session that is alive: a cluster runs on this
   * journal. A session of another database user, whose activity is hidden, counts as alive.
   */
  public synchronized boolean otherMembersAlive() throws SQLException {
    try (PreparedStatement s =
        connection.prepareStatement(
            "select count(*) from pg_locks l left join pg_stat_activity a on a.pid = l.pid where"
                + " l.locktype = 'advisory' and l.granted and l.objsubid = 1 and l.database ="
                + " (select oid from pg_database where datname = current_database()) and"
                + " l.classid::bigint = ? and l.objid::bigint = ? and l.pid <> pg_backend_pid() and"
                + " (a.state_change is null or a.state_change > now() - ? * interval '1"
                + " second')")) {
      s.setLong(1, MEMBER_KEY >>> 32);
      s.setLong(2, MEMBER_KEY & 0xffffffffL);
      s.setLong(3, MEMBER_SILENT_AFTER.toSeconds());
      try (ResultSet r = s.executeQuery()) {
        return r.next() && r.getLong(1) > 0;
      }
    }
  }

  /**
   * Takes the locks again on a new session when the one holding them is gone. The check itself is
   * what keeps a live member's session recent ({@link #MEMBER_SILENT_AFTER}).
   */
  private synchronized void keep() {
    try {
      if (connection.isValid(2)) return;
      log.warn("event=journal-lock-lost reason=\"the database session ended\"");
      connection.close();
      connection = shared(url, user, password);
      if (member) lockShared(connection, MEMBER_KEY);
      log.info("event=journal-lock-retaken");
    } catch (SQLException e) {
      // The database is away: the next check tries again.
      log.warn("event=journal-lock-retake-failed reason=\"{}\"", e.getSQLState());
    }
  }

  /** The exclusive lock, or empty while any node holds the shared one. */
  public static Optional<DatabaseWriterLock> tryExclusive(String url, String user, String password)
      throws SQLException {
    Connection c = DriverManager.getConnection(url, user, password);
    try (PreparedStatement s = c.prepareStatement("select pg_try_advisory_lock(?)")) {
      s.setLong(1, KEY);
      try (ResultSet r = s.executeQuery()) {
        if (r.next() && r.getBoolean(1))
          return Optional.of(new DatabaseWriterLock(c, url, user, password, null));
      }
    } catch (SQLException e) {
      c.close();
      throw e;
    }
    c.close();
    return Optional.empty();
  }

  @Override
  public synchronized void close() throws SQLException {
    if (keeper != null) keeper.shutdownNow();
    connection.close(); // session-level advisory locks end with the session
  }
}
