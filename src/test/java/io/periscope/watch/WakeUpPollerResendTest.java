package io.periscope.watch;

import static org.junit.Assert.assertEquals;

import com.typesafe.config.Config;
import io.periscope.notify.AdminAlerts;
import io.periscope.persistence.JournalSchema;
import io.periscope.testing.TestJournals;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import okhttp3.OkHttpClient;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.After;
import org.junit.Test;

/**
 * The scheduler against a real wake-up index: a due watch is sent its fire once, not again while
 * the index still shows it, and again soon after a node left the cluster (its fire may have been
 * lost with that node).
 */
public class WakeUpPollerResendTest {
  private final Config config = TestJournals.h2();
  private final ActorTestKit testKit = ActorTestKit.create(config);
  private final WakeUpIndex index = WakeUpIndex.open(config, 1);
  private final List<String> fired = new CopyOnWriteArrayList<>();

  @After
  public void stop() {
    index.close();
    testKit.shutdownTestKit();
  }

  private void awaitFires(int n, Duration within) throws InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    while (fired.size() < n && System.nanoTime() < deadline) Thread.sleep(20);
    assertEquals(n, fired.size());
  }

  @Test
  public void aFireStillDueIsSentAgainShortlyAfterANodeLeft() throws Exception {
    JournalSchema.create(testKit.system());
    Instant due = Instant.parse("2026-11-22T10:01:00Z");
    IndexSession session = index.session();
    session.withConnection(
        c -> {
          WakeUpIndex.setAll(c, java.util.Map.of("alice:w", due));
          return null;
        });
    session.commit();
    session.close();
    ActorRef<WakeUpPoller.Command> scheduler =
        testKit.spawn(
            WakeUpPoller.create(
                index,
                (entityId, at) -> fired.add(entityId + "@" + at),
                Clock.fixed(due.plusSeconds(5), java.time.ZoneOffset.UTC),
                new WakeUpPoller.Settings(Duration.ofMillis(50), Duration.ofMinutes(1), 100),
                AdminAlerts.create(config, new OkHttpClient()),
                testKit.system().executionContext()));
    awaitFires(1, Duration.ofSeconds(5));
    Thread.sleep(500);
    assertEquals("not sent again while the watch has a minute to run", 1, fired.size());

    scheduler.tell(new WakeUpPoller.NodeLeft());
    Thread.sleep(WakeUpPoller.AFTER_NODE_LEFT.toMillis() / 2);
    assertEquals("not before the shards had time to find a new home", 1, fired.size());
    awaitFires(2, WakeUpPoller.AFTER_NODE_LEFT.plusSeconds(3));
    assertEquals(List.of("alice:w@" + due, "alice:w@" + due), fired);
  }
}
