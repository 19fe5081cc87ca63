package io.periscope.runtime;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.periscope.testing.NeedsPostgres;
import io.periscope.testing.ScratchDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.Optional;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/** The single-writer lock of a PostgreSQL journal outlives the session that first took it. */
@Category(NeedsPostgres.class)
public class DatabaseWriterLockTest {
  @Test
  public void aServingNodeTakesItsLockAgainAfterItsSessionEnded() throws Exception {
    try (ScratchDatabase database = ScratchDatabase.create("writer_lock");
        DatabaseWriterLock serving =
            DatabaseWriterLock.holdShared(database.url(), database.user(), "")) {
      assertTrue(
          "a node holds the lock",
          DatabaseWriterLock.tryExclusive(database.url(), database.user(), "").isEmpty());
      try (Connection admin = DriverManager.getConnection(database.url(), database.user(), "")) {
        int first = holder(admin);
        assertTrue("a session holds the lock", first != 0);
        terminate(admin, first); // as a database restart or a broken connection would
        Instant deadline = Instant.now().plusSeconds(15);
        int second = 0;
        while (Instant.now().isBefore(deadline)) {
          int now = holder(admin);
          if (now != 0 && now != first) {
            second = now;
            break;
          }
          Thread.sleep(50);
        }
        assertTrue("the node holds the lock again, on a new session", second != 0);
      }
      Optional<DatabaseWriterLock> commandLine =
          DatabaseWriterLock.tryExclusive(database.url(), database.user(), "");
      if (commandLine.isPresent()) commandLine.get().close();
      assertFalse("the command line still sees a serving node", commandLine.isPresent());
    }
  }

  @Test
  public void aNodeSeesTheMembersOfTheClusterOnItsJournalButNotItself() throws Exception {
    try (ScratchDatabase database = ScratchDatabase.create("member_lock");
        ScratchDatabase other = ScratchDatabase.create("member_lock_other");
        DatabaseWriterLock starting =
            DatabaseWriterLock.holdShared(database.url(), database.user(), "")) {
      try (DatabaseWriterLock elsewhere =
          DatabaseWriterLock.holdShared(other.url(), other.user(), "")) {
        elsewhere.holdAsMember();
        assertFalse("a member on another database", starting.otherMembersAlive());
      }
      try (DatabaseWriterLock member =
          DatabaseWriterLock.holdShared(database.url(), database.user(), "")) {
        assertFalse("a node not yet Up is no member", starting.otherMembersAlive());
        member.holdAsMember();
        assertTrue("a member of the cluster", starting.otherMembersAlive());
        assertFalse("itself", member.otherMembersAlive());
      }
      // The database ends a closed session's backend, and its locks, a moment later.
      Instant deadline = Instant.now().plusSeconds(10);
      while (starting.otherMembersAlive() && Instant.now().isBefore(deadline)) Thread.sleep(50);
      assertFalse("a member that exited", starting.otherMembersAlive());
    }
  }

  /** The backend holding Periscope's advisory lock in this database, 0 when none does. */
  private static int holder(Connection c) throws Exception {
    try (PreparedStatement s =
            c.prepareStatement(
                "select coalesce(max(pid), 0) from pg_locks where locktype = 'advisory' and granted"
                    + " and database = (select oid from pg_database where datname ="
                    + " current_database())");
        ResultSet r = s.executeQuery()) {
      r.next();
      return r.getInt(1);
    }
  }

  private static void terminate(Connection c, int pid) throws Exception {
    try (PreparedStatement s = c.prepareStatement("select pg_terminate_backend(?)")) {
      s.setInt(1, pid);
      s.execute();
    }
  }
}
