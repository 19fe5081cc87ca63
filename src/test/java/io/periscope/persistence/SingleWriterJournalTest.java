package io.periscope.persistence;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import com.typesafe.config.Config;
import io.periscope.testing.NeedsPostgres;
import io.periscope.testing.TestJournals;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.UUID;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * Why the journal's replay filter is off (conf/periscope.conf): on both journals, a second writer
 * cannot write a sequence number an entity already wrote, so a replay never meets two writers'
 * versions of one event.
 */
public class SingleWriterJournalTest {
  @Test
  public void onH2() throws Exception {
    refusesASecondWriterOfOneSequenceNumber(TestJournals.h2());
  }

  @Test
  @Category(NeedsPostgres.class)
  public void onPostgres() throws Exception {
    TestJournals.requirePostgres();
    refusesASecondWriterOfOneSequenceNumber(TestJournals.postgres());
  }

  private static void refusesASecondWriterOfOneSequenceNumber(Config config) throws Exception {
    ActorTestKit testKit = ActorTestKit.create(config);
    try {
      assertEquals("off", config.getString("jdbc-journal.replay-filter.mode"));
      JournalSchema.create(testKit.system());
      String persistenceId = "Watch|" + UUID.randomUUID();
      try (Connection c = TestJournals.connect(config)) {
        insertEvent(c, persistenceId, 1, "writer-a");
        assertThrows(SQLException.class, () -> insertEvent(c, persistenceId, 1, "writer-b"));
        insertEvent(
            c, persistenceId, 2, "writer-b"); // the next number is the second writer's to take
      }
    } finally {
      testKit.shutdownTestKit();
    }
  }

  private static void insertEvent(
      Connection c, String persistenceId, long sequenceNr, String writer) throws SQLException {
    try (PreparedStatement insert =
        c.prepareStatement(
            "INSERT INTO \"event_journal\" (\"deleted\", \"persistence_id\", \"sequence_number\","
                + " \"writer\", \"write_timestamp\", \"adapter_manifest\", \"event_payload\","
                + " \"event_ser_id\", \"event_ser_manifest\") VALUES (false, ?, ?, ?, 0, '', ?, 1,"
                + " '')")) {
      insert.setString(1, persistenceId);
      insert.setLong(2, sequenceNr);
      insert.setString(3, writer);
      insert.setBytes(4, new byte[] {1});
      insert.executeUpdate();
    }
  }
}
