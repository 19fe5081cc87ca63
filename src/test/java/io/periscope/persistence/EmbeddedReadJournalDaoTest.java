package io.periscope.persistence;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.periscope.persistence.PostgresJournalDaoTest.EventWriter;
import io.periscope.testing.TestJournals;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.Done;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.persistence.jdbc.config.ReadJournalConfig;
import org.apache.pekko.persistence.query.EventEnvelope;
import org.apache.pekko.persistence.query.Offset;
import org.apache.pekko.persistence.query.Sequence;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The embedded journal's tag query ({@link EmbeddedReadJournalDao}): the events of a tag after an
 * offset, in order, as the plugin's query gives them; and H2 reads the tag's index from that
 * offset, not every row the tag ever had (the poll that grew with the journal).
 */
public class EmbeddedReadJournalDaoTest {
  private static ActorTestKit testKit;

  @BeforeClass
  public static void start() throws Exception {
    testKit =
        ActorTestKit.create(
            TestJournals.embedded(Files.createTempDirectory("periscope-read-journal-dao")));
    JournalSchema.create(testKit.system());
  }

  @AfterClass
  public static void stop() {
    testKit.shutdownTestKit();
  }

  @Test
  public void aTagsEventsAfterAnOffsetInOrder() throws Exception {
    TestProbe<Done> written = testKit.createTestProbe();
    int entities = 10;
    for (int i = 0; i < entities; i++) {
      String id = "e" + i;
      testKit
          .spawn(new EventWriter(id, "every", "second"))
          .tell(new EventWriter.Write(List.of(id + "/1", id + "/2", id + "/3"), written.getRef()));
    }
    for (int i = 0; i < entities; i++)
      written.expectMessage(Duration.ofSeconds(20), Done.getInstance());

    List<EventEnvelope> every = PostgresJournalDaoTest.byTag(testKit, "every", Offset.noOffset());
    assertEquals(3 * entities, every.size());
    long last = 0;
    for (EventEnvelope e : every) {
      long ordering = ((Sequence) e.offset()).value();
      assertTrue("ascending positions", ordering > last);
      last = ordering;
      assertEquals(
          e.persistenceId().substring(EventWriter.TYPE.length() + 1) + "/" + e.sequenceNr(),
          e.event());
    }
    List<EventEnvelope> seconds =
        PostgresJournalDaoTest.byTag(testKit, "second", Offset.noOffset());
    assertEquals(entities, seconds.size());
    for (EventEnvelope e : seconds) assertEquals(2L, e.sequenceNr());

    long middle = ((Sequence) every.get(14).offset()).value();
    List<EventEnvelope> after =
        PostgresJournalDaoTest.byTag(testKit, "every", Offset.sequence(middle));
    assertEquals(every.subList(15, every.size()), after);
  }

  @Test
  public void aPollReadsTheTagFromItsOffset() throws Exception {
    String query =
        EmbeddedReadJournalDao.eventsByTagQuery(
            new ReadJournalConfig(
                testKit.system().settings().config().getConfig("jdbc-read-journal")));
    List<String> plan = new ArrayList<>();
    try (Connection c = TestJournals.connect(testKit.system().settings().config());
        PreparedStatement explain = c.prepareStatement("EXPLAIN " + query)) {
      explain.setString(1, "every");
      explain.setLong(2, 5);
      explain.setLong(3, 10);
      explain.setLong(4, 5);
      explain.setLong(5, 10);
      explain.setLong(6, 100);
      try (ResultSet rs = explain.executeQuery()) {
        while (rs.next()) plan.add(rs.getString(1));
      }
    }
    String text = String.join("\n", plan);
    // neither table read whole: the first one read over the range of positions from the offset
    assertTrue(text, !text.contains("tableScan"));
    String first = text.substring(text.indexOf("FROM"), text.indexOf("JOIN"));
    assertTrue(text, first.matches("(?s).*(ordering|event_id) > \\?[24].*"));
  }
}
