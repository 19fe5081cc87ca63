package io.periscope.persistence;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigValueFactory;
import io.periscope.testing.NeedsPostgres;
import io.periscope.testing.TestJournals;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.Done;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.persistence.jdbc.query.javadsl.JdbcReadJournal;
import org.apache.pekko.persistence.query.EventEnvelope;
import org.apache.pekko.persistence.query.Offset;
import org.apache.pekko.persistence.query.PersistenceQuery;
import org.apache.pekko.persistence.query.Sequence;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.javadsl.CommandHandler;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehavior;
import org.apache.pekko.stream.javadsl.Sink;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * What {@link PostgresJournalDao}'s single statement must get right beyond the journal
 * compatibility kit ({@link PostgresJournalTckTest}): tags reach the right events when writes of
 * many entities share a batch, the global ordering follows each entity's sequence numbers, and a
 * refused batch leaves no row behind, and a writer's kept connection that the server closed costs
 * no batch.
 */
@Category(NeedsPostgres.class)
public class PostgresJournalDaoTest {
  private static final Duration PATIENCE = Duration.ofSeconds(20);
  private static Config config;
  private static ActorTestKit testKit;

  @BeforeClass
  public static void start() {
    TestJournals.requirePostgres();
    // A refused write leaves a gap in the ordering, which the tag query waits out for max-tries
    // query delays.
    config =
        TestJournals.postgres()
            .withValue(
                "jdbc-read-journal.journal-sequence-retrieval.query-delay",
                ConfigValueFactory.fromAnyRef("100ms"));
    testKit = ActorTestKit.create(config);
    JournalSchema.create(testKit.system());
  }

  @AfterClass
  public static void stop() {
    testKit.shutdownTestKit();
  }

  @Test
  public void tagsAndOrderingSurviveBatchesOfManyEntities() throws Exception {
    String run = UUID.randomUUID().toString().substring(0, 8);
    String everyEvent = "all-" + run;
    String secondEvents = "second-" + run;
    TestProbe<Done> written = testKit.createTestProbe();
    int entities = 40;
    // All at once, so the journal's batches mix entities; each persists three events in one atomic
    // write.
    for (int i = 0; i < entities; i++) {
      String id = run + "-" + i;
      testKit
          .spawn(new EventWriter(id, everyEvent, secondEvents))
          .tell(new EventWriter.Write(List.of(id + "/1", id + "/2", id + "/3"), written.getRef()));
    }
    for (int i = 0; i < entities; i++) written.expectMessage(PATIENCE, Done.getInstance());

    List<EventEnvelope> all = byTag(everyEvent);
    assertEquals(3 * entities, all.size());
    Map<String, Long> lastSequenceNr = new HashMap<>();
    long lastOrdering = 0;
    for (EventEnvelope envelope : all) {
      long ordering = ((Sequence) envelope.offset()).value();
      assertTrue("the tag query answers in ascending ordering", ordering > lastOrdering);
      lastOrdering = ordering;
      long previous = lastSequenceNr.getOrDefault(envelope.persistenceId(), 0L);
      assertEquals(
          "an entity's events ascend in the global ordering", previous + 1, envelope.sequenceNr());
      lastSequenceNr.put(envelope.persistenceId(), envelope.sequenceNr());
      String id = envelope.persistenceId().substring(EventWriter.TYPE.length() + 1);
      assertEquals(id + "/" + envelope.sequenceNr(), envelope.event());
    }
    assertEquals(entities, lastSequenceNr.size());

    List<EventEnvelope> seconds = byTag(secondEvents);
    assertEquals(entities, seconds.size());
    for (EventEnvelope envelope : seconds) assertEquals(2L, envelope.sequenceNr());
  }

  @Test
  public void aRefusedWriteLeavesNoRowBehind() throws Exception {
    String id = "refused-" + UUID.randomUUID();
    String tag = "tag-" + id;
    TestProbe<Done> written = testKit.createTestProbe();
    ActorRef<EventWriter.Write> writer = testKit.spawn(new EventWriter(id, tag, tag));
    writer.tell(new EventWriter.Write(List.of("first"), written.getRef()));
    written.expectMessage(PATIENCE, Done.getInstance());
    // A second writer takes sequence number 2 behind the entity's back; the entity's next write
    // must fail whole.
    try (Connection c = TestJournals.connect(config);
        Statement s = c.createStatement()) {
      s.execute(
          "INSERT INTO event_journal (persistence_id, sequence_number, writer, write_timestamp,"
              + " adapter_manifest, event_payload, event_ser_id, event_ser_manifest) VALUES ('"
              + EventWriter.TYPE
              + "|"
              + id
              + "', 2,"
              + " 'other', 0, '', '\\x01', 1, '')");
    }
    writer.tell(new EventWriter.Write(List.of("second", "third"), written.getRef()));
    written.expectTerminated(writer, PATIENCE);

    try (Connection c = TestJournals.connect(config);
        Statement s = c.createStatement()) {
      ResultSet rows =
          s.executeQuery(
              "SELECT j.writer, t.tag FROM event_journal j LEFT JOIN event_tag t"
                  + " ON t.event_id = j.ordering WHERE j.persistence_id = '"
                  + EventWriter.TYPE
                  + "|"
                  + id
                  + "'"
                  + " ORDER BY j.sequence_number");
      List<String> found = new ArrayList<>();
      while (rows.next())
        found.add(rows.getString(1) + ":" + (rows.getString(2) == null ? "untagged" : "tagged"));
      assertEquals(2, found.size());
      assertTrue(found.get(0).endsWith(":tagged"));
      assertEquals("other:untagged", found.get(1));
    }
  }

  @Test
  public void aWriterWhoseConnectionTheServerClosedWritesOnAnother() throws Exception {
    String id = "reconnects-" + UUID.randomUUID();
    String tag = "tag-" + id;
    TestProbe<Done> written = testKit.createTestProbe();
    ActorRef<EventWriter.Write> writer = testKit.spawn(new EventWriter(id, tag, tag));
    writer.tell(new EventWriter.Write(List.of("first"), written.getRef()));
    written.expectMessage(PATIENCE, Done.getInstance());
    // The server ends the writers' sessions (as a restart or an idle timeout would) while their
    // connections wait for the next batch.
    int ended;
    try (Connection c = TestJournals.connect(config);
        Statement s = c.createStatement()) {
      ResultSet r =
          s.executeQuery(
              "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                  + " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                  + " AND query LIKE 'WITH j AS (INSERT INTO%'");
      r.next();
      ended = r.getInt(1);
    }
    assertTrue("a writer's connection was kept and ended", ended >= 1);
    for (int i = 2; i <= 4; i++) {
      writer.tell(new EventWriter.Write(List.of("event " + i), written.getRef()));
      written.expectMessage(PATIENCE, Done.getInstance());
    }
    assertEquals(4, byTag(tag).size());
  }

  /**
   * The events of {@code tag} after {@code from}, as the read journal of {@code testKit} has them.
   */
  static List<EventEnvelope> byTag(ActorTestKit testKit, String tag, Offset from) throws Exception {
    JdbcReadJournal journal =
        PersistenceQuery.get(testKit.system())
            .getReadJournalFor(JdbcReadJournal.class, JdbcReadJournal.Identifier());
    return journal
        .currentEventsByTag(tag, from)
        .runWith(Sink.seq(), testKit.system())
        .toCompletableFuture()
        .get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
  }

  private static List<EventEnvelope> byTag(String tag) throws Exception {
    return byTag(testKit, tag, Offset.noOffset());
  }

  /**
   * Persists the events of each command in one atomic write; every event gets one tag, the second
   * ones another.
   */
  static final class EventWriter extends EventSourcedBehavior<EventWriter.Write, String, Integer> {
    static final String TYPE = "JournalDaoTest";

    record Write(List<String> events, ActorRef<Done> replyTo) {}

    private final String everyEvent;
    private final String secondEvents;

    EventWriter(String id, String everyEvent, String secondEvents) {
      super(PersistenceId.of(TYPE, id));
      this.everyEvent = everyEvent;
      this.secondEvents = secondEvents;
    }

    @Override
    public Integer emptyState() {
      return 0;
    }

    @Override
    public CommandHandler<Write, String, Integer> commandHandler() {
      return (count, write) ->
          Effect()
              .persist(write.events())
              .thenRun(after -> write.replyTo().tell(Done.getInstance()));
    }

    @Override
    public EventHandler<Integer, String> eventHandler() {
      return (count, event) -> count + 1;
    }

    @Override
    public Set<String> tagsFor(String event) {
      return event.endsWith("/2") ? Set.of(everyEvent, secondEvents) : Set.of(everyEvent);
    }
  }
}
