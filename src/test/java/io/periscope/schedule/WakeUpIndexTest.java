package io.periscope.schedule;

import static org.junit.Assert.assertEquals;

import com.typesafe.config.Config;
import io.periscope.persistence.JournalSchema;
import io.periscope.testing.TestJournals;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.Test;

/** A group of next fire times written at once, on both journals' databases: inserted, moved on and removed. */
public class WakeUpIndexTest {
  private static final Instant T = Instant.parse("2026-11-22T10:00:00Z");

  @Test
  public void onH2() throws Exception {
    writesGroups(TestJournals.h2());
  }

  @Test
  public void onPostgres() throws Exception {
    TestJournals.requirePostgres();
    writesGroups(TestJournals.postgres());
  }

  private static void writesGroups(Config config) throws Exception {
    ActorTestKit testKit = ActorTestKit.create(config);
    try (WakeUpIndex index = WakeUpIndex.open(config, 1)) {
      JournalSchema.create(testKit.system());
      index.createTablesIfMissing();
      String a = UUID.randomUUID() + ":a"; // apart from other tests on the JVM's PostgreSQL database
      String b = UUID.randomUUID() + ":b";
      String c = UUID.randomUUID() + ":c";

      write(index, Map.of(a, T.plusSeconds(60), b, T.plusSeconds(120)));
      assertEquals(List.of(new WakeUpIndex.Due(a, T.plusSeconds(60)), new WakeUpIndex.Due(b, T.plusSeconds(120))),
          dueOf(index, a, b, c));

      Map<String, Instant> next = new HashMap<>();
      next.put(a, null);                 // deleted or disabled
      next.put(b, T.plusSeconds(30));    // moved on
      next.put(c, T.plusSeconds(90));    // new
      write(index, next);
      assertEquals(List.of(new WakeUpIndex.Due(b, T.plusSeconds(30)), new WakeUpIndex.Due(c, T.plusSeconds(90))),
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
      session.withConnection(connection -> {
        WakeUpIndex.setAll(connection, due);
        return null;
      });
      session.commit();
    } finally {
      session.close();
    }
  }

  /** What the index holds for these watches, soonest first. */
  private static List<WakeUpIndex.Due> dueOf(WakeUpIndex index, String... entityIds) throws Exception {
    List<String> ours = List.of(entityIds);
    return index.dueAt(T.plusSeconds(3600), 100_000).stream().filter(d -> ours.contains(d.entityId())).toList();
  }
}
