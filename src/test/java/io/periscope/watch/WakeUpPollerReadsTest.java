package io.periscope.watch;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;

import com.typesafe.config.Config;
import io.periscope.notify.AdminAlerts;
import io.periscope.persistence.JournalSchema;
import io.periscope.testing.MutableClock;
import io.periscope.testing.TestJournals;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import okhttp3.OkHttpClient;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.After;
import org.junit.Test;

/**
 * The scheduler of an idle node reads the wake-up index only when something may be due: its queries
 * are counted by the database itself (H2's query statistics), ticking every 50 ms. A due time the
 * projection tells it of is fired on time, and one it reads is fired when the clock gets there.
 */
public class WakeUpPollerReadsTest {
  private static final Instant T = Instant.parse("2026-11-22T10:00:00Z");
  private static final Duration TICK = Duration.ofMillis(50);

  private final Config config = TestJournals.h2();
  private final ActorTestKit testKit = ActorTestKit.create(config);
  private final WakeUpIndex index = WakeUpIndex.open(config, 1);
  private final MutableClock clock = new MutableClock(T);
  private final List<String> fired = new CopyOnWriteArrayList<>();

  @After
  public void stop() {
    index.close();
    testKit.shutdownTestKit();
  }

  @Test
  public void anIdleSchedulerReadsTheIndexOnlyWhenSomethingMayBeDue() throws Exception {
    JournalSchema.create(testKit.system());
    schedule("alice:w", T.plus(Duration.ofMinutes(10)));
    countQueries();
    ActorRef<WakeUpPoller.Command> scheduler =
        testKit.spawn(
            WakeUpPoller.create(
                index,
                (entityId, at) -> fired.add(entityId + "@" + at),
                clock,
                new WakeUpPoller.Settings(TICK, Duration.ofMinutes(1), 100),
                AdminAlerts.create(config, new OkHttpClient()),
                testKit.system().executionContext()));
    Thread.sleep(40 * TICK.toMillis());
    assertEquals("forty ticks, nothing due for ten minutes: one reading", 1, readings());
    assertEquals(List.of(), fired);

    // the projection writes an earlier due time and tells the scheduler once it is committed
    Instant bobDue = T.plus(Duration.ofMinutes(5));
    schedule("bob:w", bobDue);
    scheduler.tell(new WakeUpPoller.Scheduled(bobDue));
    Thread.sleep(20 * TICK.toMillis());
    assertEquals("not read before it is due", 1, readings());
    clock.set(bobDue);
    awaitFired(1);
    assertEquals(List.of("bob:w@" + bobDue), fired);

    // bob has run: the index moves on, and the next due time it read is alice's
    schedule("bob:w", T.plus(Duration.ofMinutes(15)));
    awaitQuiet();
    long quiet = readings();
    Thread.sleep(40 * TICK.toMillis());
    assertEquals("idle again until alice is due", quiet, readings());
    clock.set(T.plus(Duration.ofMinutes(10)));
    awaitFired(2);
    assertEquals("alice:w@" + T.plus(Duration.ofMinutes(10)), fired.get(1));
  }

  private void schedule(String entityId, Instant at) throws Exception {
    IndexSession session = index.session();
    session.withConnection(
        c -> {
          WakeUpIndex.setAll(c, Map.of(entityId, at));
          return null;
        });
    session.commit();
    session.close();
  }

  private void countQueries() throws Exception {
    try (Connection c = TestJournals.connect(config);
        Statement s = c.createStatement()) {
      s.execute("SET QUERY_STATISTICS TRUE");
    }
  }

  /** How often the database ran the scheduler's query of the due watches. */
  private long readings() throws Exception {
    return TestJournals.number(
        config,
        "SELECT COALESCE(SUM(EXECUTION_COUNT), 0) FROM INFORMATION_SCHEMA.QUERY_STATISTICS"
            + " WHERE SQL_STATEMENT LIKE 'SELECT entity_id, due_at FROM%'");
  }

  private void awaitFired(int n) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (fired.size() < n && System.nanoTime() < deadline) Thread.sleep(TICK.toMillis());
    assertEquals(n, fired.size());
  }

  /** Until a reading finds nothing due (the fired watch moved on in the index). */
  private void awaitQuiet() throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    long before = readings();
    while (System.nanoTime() < deadline) {
      Thread.sleep(10 * TICK.toMillis());
      long now = readings();
      if (now == before) return;
      before = now;
    }
    fail("the scheduler kept reading with nothing due");
  }
}
