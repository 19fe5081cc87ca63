package io.periscope.watch;

import static org.junit.Assert.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.Config;
import io.periscope.json.Json;
import io.periscope.testing.FastSchedules;
import io.periscope.testing.InProcessService;
import io.periscope.testing.MutableClock;
import io.periscope.testing.TestWatches;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

/**
 * Schedules through the whole service — watch entity, wake-up index projection, scheduler — on an
 * H2 file journal, with a clock the test sets: each due time fires once, missed slots are made up
 * once, schedule changes and disabling take effect, and nothing is lost to passivation (entities
 * passivate after a second here) or to a restart of the node.
 */
public class SchedulesFireTest {
  private static final String PASSWORD = "schedule-passphrase";
  private final MockWebServer feed = new MockWebServer();
  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-22T10:00:30Z"));
  private Path dataDir;
  private InProcessService service;
  private String token;

  @Before
  public void start() throws Exception {
    feed.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) {
            return new MockResponse()
                .setHeader("Content-Type", "application/rss+xml")
                .setBody(
                    "<?xml version=\"1.0\"?><rss"
                        + " version=\"2.0\"><channel><title>t</title><link>https://example.org/</"
                        + "link><description>d"
                        + "</description></channel></rss>");
          }
        });
    feed.start();
    dataDir = Files.createTempDirectory("periscope-schedules");
    service = new InProcessService(config(), clock);
    service.account("sam", "user", PASSWORD);
    token = service.login("sam", PASSWORD);
  }

  private Config config() {
    return FastSchedules.config(dataDir, Map.of());
  }

  @After
  public void stop() throws Exception {
    if (service != null) service.close();
    feed.shutdown();
  }

  private void put(String schedule, boolean enabled, int expectedStatus) throws Exception {
    String body =
        TestWatches.body("minutely")
            .name("Minutely")
            .condition("anything")
            .feed(feed.url("/feed.xml").toString())
            .schedule(schedule)
            .enabled(enabled)
            .json();
    boolean create = expectedStatus == 201;
    var r =
        service.send(
            create ? "POST" : "PUT",
            create ? "/watches" : "/watches/minutely",
            token,
            body,
            Map.of());
    assertEquals(r.body(), expectedStatus, r.statusCode());
  }

  /** The scheduled runs so far, oldest first, by the time they started (the test clock's). */
  private List<String> scheduledRuns() throws Exception {
    JsonNode runs =
        Json.MAPPER
            .readTree(
                service
                    .send("GET", "/watches/minutely/runs?limit=100", token, null, Map.of())
                    .body())
            .get("runs");
    List<String> started = new java.util.ArrayList<>();
    for (JsonNode run : runs)
      if (run.get("trigger").asText().equals("schedule"))
        started.add(0, run.get("startedAt").asText());
    return started;
  }

  /** Waits until there are {@code n} scheduled runs, then makes sure no other follows. */
  private void expectScheduledRuns(int n) throws Exception {
    for (int i = 0; i < 150 && scheduledRuns().size() < n; i++) Thread.sleep(100);
    Thread.sleep(1500); // a second fire of the same due time would land in here
    assertEquals(scheduledRuns().toString(), n, scheduledRuns().size());
  }

  private void at(String instant) {
    clock.set(Instant.parse(instant));
  }

  @Test
  public void eachDueTimeFiresOnceAndChangesTakeEffect() throws Exception {
    put("* * * * *", true, 201); // created at 10:00:30: next due 10:01
    expectScheduledRuns(0);

    at("2026-11-22T10:01:05Z");
    expectScheduledRuns(1);
    at("2026-11-22T10:01:40Z"); // the same minute: nothing more is due
    expectScheduledRuns(1);

    at("2026-11-22T10:05:10Z"); // 10:02…10:05 missed while nothing ran: one catch-up run, not four
    expectScheduledRuns(2);
    at("2026-11-22T10:05:50Z"); // next is 10:06, computed from now after the catch-up
    expectScheduledRuns(2);

    put("*/10 * * * *", true, 200); // a new schedule: next due 10:10, not 10:06
    at("2026-11-22T10:06:05Z");
    expectScheduledRuns(2);
    at("2026-11-22T10:10:05Z");
    expectScheduledRuns(3);

    put("*/10 * * * *", false, 200); // disabled: never fires
    at("2026-11-22T10:20:05Z");
    expectScheduledRuns(3);
    at("2026-11-22T10:30:05Z");
    expectScheduledRuns(3);
  }

  @Test
  public void noFireIsLostToPassivationOrARestart() throws Exception {
    put("* * * * *", true, 201);
    Thread.sleep(2500); // the entity passivates after a second without messages
    at("2026-11-22T10:01:05Z");
    expectScheduledRuns(1);

    service.close(); // the node stops; the next due time passes while it is down
    service = null;
    at("2026-11-22T10:03:20Z");
    service = new InProcessService(config(), clock);
    token = service.login("sam", PASSWORD);
    expectScheduledRuns(2); // 10:02 and 10:03 were missed: one run on the way back
    at("2026-11-22T10:04:05Z");
    expectScheduledRuns(3);
  }
}
