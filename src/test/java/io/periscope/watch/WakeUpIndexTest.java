package io.periscope.watch;

import static org.junit.Assert.assertEquals;

import com.typesafe.config.Config;
import io.periscope.persistence.JournalSchema;
import io.periscope.testing.NeedsPostgres;
import io.periscope.testing.TestJournals;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * A group of next fire times written at once, on both journals' databases: inserted, moved on and
 * removed; and the statistics the projection's query depends on kept fresh on PostgreSQL.
 */
public class WakeUpIndexTest {
  private static final Instant T = Instant.parse("2026-11-22T10:00:00Z");

  @Test
  public void onH2() throws Exception {
    writesGroups(TestJournals.h2());
  }

  @Test
  @Category(NeedsPostgres.class)
  public void onPostgres() throws Exception {
    TestJournals.requirePostgres();
    writesGroups(TestJournals.postgres());
  }

  @Test
  @Category(NeedsPostgres.class)
  public void staleStatisticsOfTheTagQueryAreRefreshedOnPostgres() throws Exception {
    TestJournals.requirePostgres();
    Config config = TestJournals.postgres();
    ActorTestKit testKit = ActorTestKit.create(config);
    try (WakeUpIndex index = WakeUpIndex.open(config, 1)) {
      JournalSchema.create(testKit.system());
      index.refreshStaleStatistics(); // whatever earlier tests left
      try (Connection c = TestJournals.connect(config);
          Statement s = c.createStatement()) {
        String pid = "Watch|" + UUID.randomUUID();
        // more tagged events than a tenth of both tables plus 1,000, as a burst of creates writes
        // them
        var count = s.executeQuery("SELECT count(*) FROM event_journal");
        count.next();
        long rows = 2000 + count.getLong(1) / 5;
        s.execute(
            "INSERT INTO event_journal (persistence_id, sequence_number, writer, write_timestamp, "
                + "adapter_manifest, event_payload, event_ser_id, event_ser_manifest) SELECT '"
                + pid
                + "', n, 'w', 0, '', "
                + "'\\x01', 1, '' FROM generate_series(1, "
                + rows
                + ") n");
        s.execute(
            "INSERT INTO event_tag (event_id, tag) SELECT ordering, 'watch-schedule' FROM"
                + " event_journal WHERE persistence_id = '"
                + pid
                + "'");
        // the server counts the changes a moment after the commit
        List<String> analyzed = List.of();
        for (int i = 0; i < 50 && analyzed.size() < 2; i++) {
          Thread.sleep(200);
          analyzed = index.refreshStaleStatistics();
        }
        assertEquals(Set.of("event_journal", "event_tag"), Set.copyOf(analyzed));
        assertEquals(
            "nothing is analyzed again while it is fresh",
            List.of(),
            index.refreshStaleStatistics());
      }
    } finally {
      testKit.shutdownTestKit();
    }
  }

  @Test
  public void statisticsAreLeftToH2() throws Exception {
    Config config = TestJournals.h2();
    ActorTestKit testKit = ActorTestKit.create(config);
    try (WakeUpIndex index = WakeUpIndex.open(config, 1)) {
      JournalSchema.create(testKit.system());
      assertEquals(List.of(), index.refreshStaleStatistics());
    } finally {
      testKit.shutdownTestKit();
    }
  }

  private static void writesGroups(Config config) throws Exception {
    ActorTestKit testKit = ActorTestKit.create(config);
    try (WakeUpIndex index = WakeUpIndex.open(config, 1)) {
      JournalSchema.create(testKit.system());
      String a =
          UUID.randomUUID() + ":a"; // apart from other tests on the JVM's PostgreSQL database
      String b = UUID.randomUUID() + ":b";
      String c = UUID.randomUUID() + ":c";

      write(index, Map.of(a, T.plusSeconds(60), b, T.plusSeconds(120)));
      assertEquals(
          List.of(
              new WakeUpIndex.Due(a, T.plusSeconds(60)),
              new WakeUpIndex.Due(b, T.plusSeconds(120))),
          dueOf(index, a, b, c));

      Map<String, Instant> next = new HashMap<>();
      next.put(a, null); // deleted or disabled
      next.put(b, T.plusSeconds(30)); // moved on
      next.put(c, T.plusSeconds(90)); // new
      write(index, next);
      assertEquals(
          List.of(
              new WakeUpIndex.Due(b, T.plusSeconds(30)), new WakeUpIndex.Due(c, T.plusSeconds(90))),
          dueOf(index, a, b, c));

      Map<String, Instant> gone = new HashMap<>();
      gone.put(b, null);
      gone.put(c, null);
      write(index, gone);
      assertEquals(List.of(), dueOf(index, a, b, c));
    } finally {
      testKit.shutdownTestKit();
    }
  }

  private static void write(WakeUpIndex index, Map<String, Instant> due) throws Exception {
    IndexSession session = index.session();
    try {
      session.withConnection(
          connection -> {
            WakeUpIndex.setAll(connection, due);
            return null;
          });
      session.commit();
    } finally {
      session.close();
    }
  }

  /** What the index holds for these watches, soonest first. */
  private static List<WakeUpIndex.Due> dueOf(WakeUpIndex index, String... entityIds)
      throws Exception {
    List<String> ours = List.of(entityIds);
    return index.read(T.plusSeconds(3600), 100_000).due().stream()
        .filter(d -> ours.contains(d.entityId()))
        .toList();
  }
}
