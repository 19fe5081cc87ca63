package io.periscope.watch;

import static org.junit.Assert.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.periscope.json.Json;
import io.periscope.testing.InProcessService;
import io.periscope.testing.MutableClock;
import io.periscope.testing.ServiceProcess;
import io.periscope.testing.TestJournals;
import io.periscope.testing.TestWatches;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.After;
import org.junit.Test;

/**
 * Two nodes on one journal: when the node that hosts the scheduler, the index projection and
 * perhaps the watch leaves, all of them move to the other node (shards rebalance, singletons hand
 * over) and the next due time still fires, once.
 */
public class SchedulesSurviveRebalanceTest {
  private static final String PASSWORD = "rebalance-passphrase";
  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-22T10:00:30Z"));
  private InProcessService first;
  private InProcessService second;

  private static Config node(String database, int port, int seedPort) {
    return ConfigFactory.parseMap(
            Map.of(
                "pekko-persistence-jdbc.shared-databases.periscope.db.url",
                "jdbc:h2:mem:" + database + ";DB_CLOSE_DELAY=-1",
                "pekko.remote.artery.canonical.port",
                port,
                "pekko.cluster.seed-nodes",
                List.of("pekko://periscope@127.0.0.1:" + seedPort),
                "periscope.scheduler.tick",
                "100ms",
                "periscope.quotas.min-interval", // a schedule of every minute
                "1m",
                "jdbc-read-journal.refresh-interval",
                "100ms",
                "periscope.fetch.allow-private-networks",
                true))
        .withFallback(TestJournals.h2())
        .resolve();
  }

  @After
  public void stop() throws Exception {
    if (first != null) first.close();
    if (second != null) second.close();
  }

  private static int scheduledRuns(InProcessService node, String token) throws Exception {
    JsonNode runs =
        Json.MAPPER
            .readTree(node.send("GET", "/watches/minutely/runs", token, null, Map.of()).body())
            .get("runs");
    int n = 0;
    for (JsonNode run : runs) if (run.get("trigger").asText().equals("schedule")) n++;
    return n;
  }

  private static void expectScheduledRuns(InProcessService node, String token, int n)
      throws Exception {
    for (int i = 0; i < 200 && scheduledRuns(node, token) < n; i++) Thread.sleep(100);
    Thread.sleep(1500);
    assertEquals(n, scheduledRuns(node, token));
  }

  @Test
  public void theNextDueTimeFiresOnceAfterTheNodeHostingTheSchedulerLeaves() throws Exception {
    String database = "rebalance-" + UUID.randomUUID();
    int firstPort = ServiceProcess.freePort();
    first = new InProcessService(node(database, firstPort, firstPort), clock);
    second = new InProcessService(node(database, ServiceProcess.freePort(), firstPort), clock);
    first.account("rita", "user", PASSWORD);
    String token = first.login("rita", PASSWORD);
    // a feed that answers nothing: the run is recorded as an error, which is all this test counts
    String body =
        TestWatches.body("minutely")
            .name("Minutely")
            .condition("anything")
            .feed("http://127.0.0.1:9/feed.xml")
            .schedule("* * * * *")
            .json();
    assertEquals(201, first.send("POST", "/watches", token, body, Map.of()).statusCode());

    clock.set(Instant.parse("2026-11-22T10:01:05Z"));
    expectScheduledRuns(second, token, 1);

    first.close(); // the oldest node: it hosts the singletons; it leaves and hands its shards over
    first = null;
    clock.set(Instant.parse("2026-11-22T10:02:05Z"));
    expectScheduledRuns(second, token, 2);
  }
}
