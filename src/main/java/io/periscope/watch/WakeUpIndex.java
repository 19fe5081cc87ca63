package io.periscope.watch;

import com.typesafe.config.Config;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The durable wake-up index: one row per scheduled watch (entity id → next fire time), in the
 * journal's own database. The {@link WakeUpProjection} writes it from the watches' schedule events;
 * the {@link WakeUpPoller} reads what is due. It is derived data: dropping the table and the
 * projection's offset rebuilds it.
 */
public final class WakeUpIndex implements AutoCloseable {
  private static final String TABLE = "periscope_wakeups";

  private final HikariDataSource pool;

  private WakeUpIndex(HikariDataSource pool) {
    this.pool = pool;
  }

  /**
   * A small pool on the journal's database ({@code
   * pekko-persistence-jdbc.shared-databases.periscope.db}): {@code connections} for the projection,
   * one for the scheduler.
   */
  public static WakeUpIndex open(Config config, int connections) {
    Config db = config.getConfig("pekko-persistence-jdbc.shared-databases.periscope.db");
    HikariConfig hikari = new HikariConfig();
    hikari.setPoolName("wakeup-index");
    hikari.setJdbcUrl(db.getString("url"));
    hikari.setUsername(db.getString("user"));
    hikari.setPassword(db.getString("password"));
    hikari.setDriverClassName(db.getString("driver"));
    hikari.setMaximumPoolSize(connections + 1);
    hikari.setMinimumIdle(1);
    // a lost database shows within seconds (readiness asks through this pool), not after 30
    hikari.setConnectionTimeout(ANSWER_WITHIN.toMillis());
    return new WakeUpIndex(new HikariDataSource(hikari));
  }

  /** How long the database has to hand out a connection and answer. */
  static final java.time.Duration ANSWER_WITHIN = java.time.Duration.ofSeconds(3);

  /** Whether the journal's database answers now: a connection that passes its validity check. */
  public boolean answers() {
    try (Connection c = pool.getConnection()) {
      return c.isValid((int) ANSWER_WITHIN.toSeconds());
    } catch (SQLException e) {
      return false;
    }
  }

  /** The journal tables eventsByTag joins, whose statistics its query plan depends on. */
  static final List<String> TAG_QUERY_TABLES = List.of("event_journal", "event_tag");

  /**
   * Analyzes the tables of the eventsByTag query that changed by more than a tenth (and 1,000 rows)
   * since they were last analyzed, on PostgreSQL: with statistics of a smaller table the planner
   * reads every tag row for each poll of the projection (63 ms a poll at 78,000 rows, against 0.7
   * ms with fresh statistics), so the poll grows with the journal. Autovacuum does this where it is
   * on; this covers a database where it is off or behind.
   *
   * @return the tables analyzed
   */
  public List<String> refreshStaleStatistics() throws SQLException {
    List<String> analyzed = new ArrayList<>();
    try (Connection c = pool.getConnection()) {
      if (!c.getMetaData().getDatabaseProductName().equals("PostgreSQL")) return analyzed;
      try (PreparedStatement q =
          c.prepareStatement(
              "SELECT relname FROM pg_stat_user_tables "
                  + "WHERE relname = ANY (?) AND n_mod_since_analyze > 1000 + n_live_tup / 10")) {
        q.setArray(1, c.createArrayOf("text", TAG_QUERY_TABLES.toArray()));
        try (ResultSet rs = q.executeQuery()) {
          while (rs.next()) analyzed.add(rs.getString(1));
        }
      }
      try (Statement s = c.createStatement()) {
        for (String table : analyzed) s.execute("ANALYZE \"" + table + "\"");
      }
    }
    return analyzed;
  }

  /** A transaction on the index, as the projection stores its offset in the same one. */
  public IndexSession session() {
    return new IndexSession(pool);
  }

  /**
   * Sets the next fire time of each watch in {@code due}, removing those mapped to {@code null}, in
   * at most three round trips however many watches there are: the projection writes a group of
   * events at once.
   */
  static void setAll(Connection c, Map<String, Instant> due) throws SQLException {
    List<String> removed = new ArrayList<>();
    List<Map.Entry<String, Instant>> scheduled = new ArrayList<>();
    due.forEach(
        (entityId, at) -> {
          if (at == null) removed.add(entityId);
          else scheduled.add(Map.entry(entityId, at));
        });
    if (!removed.isEmpty()) {
      try (PreparedStatement delete =
          c.prepareStatement("DELETE FROM " + TABLE + " WHERE entity_id = ?")) {
        for (String entityId : removed) {
          delete.setString(1, entityId);
          delete.addBatch();
        }
        delete.executeBatch();
      }
    }
    if (scheduled.isEmpty()) return;
    int[] updated;
    try (PreparedStatement update =
        c.prepareStatement("UPDATE " + TABLE + " SET due_at = ? WHERE entity_id = ?")) {
      for (Map.Entry<String, Instant> e : scheduled) {
        update.setLong(1, e.getValue().toEpochMilli());
        update.setString(2, e.getKey());
        update.addBatch();
      }
      updated = update.executeBatch();
    }
    // one projection instance writes the index, so nothing inserts the same rows in between
    try (PreparedStatement insert =
        c.prepareStatement("INSERT INTO " + TABLE + " (entity_id, due_at) VALUES (?, ?)")) {
      int missing = 0;
      for (int i = 0; i < updated.length; i++) {
        if (updated[i] != 0) continue;
        insert.setString(1, scheduled.get(i).getKey());
        insert.setLong(2, scheduled.get(i).getValue().toEpochMilli());
        insert.addBatch();
        missing++;
      }
      if (missing > 0) insert.executeBatch();
    }
  }

  /** A watch that is due: its entity id and the due time the index holds for it. */
  public record Due(String entityId, Instant at) {}

  /**
   * What the index holds at a moment: the watches due then, the longest overdue first, and, when
   * none is, the earliest due time after it ({@code null} when no later one is held, or when some
   * are due).
   */
  public record Reading(List<Due> due, Instant next) {}

  /**
   * The watches due at {@code now}, the longest overdue first, at most {@code limit}; and, when
   * none is, the next due time after it.
   */
  public Reading read(Instant now, int limit) throws SQLException {
    try (Connection c = pool.getConnection();
        PreparedStatement q =
            c.prepareStatement(
                "SELECT entity_id, due_at FROM "
                    + TABLE
                    + " WHERE due_at <= ? ORDER BY due_at LIMIT ?");
        PreparedStatement next =
            c.prepareStatement("SELECT MIN(due_at) FROM " + TABLE + " WHERE due_at > ?")) {
      q.setLong(1, now.toEpochMilli());
      q.setInt(2, limit);
      List<Due> due = new ArrayList<>();
      try (ResultSet rs = q.executeQuery()) {
        while (rs.next()) due.add(new Due(rs.getString(1), Instant.ofEpochMilli(rs.getLong(2))));
      }
      // while watches are due the scheduler reads at every tick and needs no next time
      if (!due.isEmpty()) return new Reading(due, null);
      next.setLong(1, now.toEpochMilli());
      try (ResultSet rs = next.executeQuery()) {
        rs.next();
        long at = rs.getLong(1);
        return new Reading(due, rs.wasNull() ? null : Instant.ofEpochMilli(at));
      }
    }
  }

  @Override
  public void close() {
    pool.close();
  }
}
