package io.periscope.watch;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.Config;
import io.periscope.testing.FakeUpstream;
import io.periscope.testing.FastSchedules;
import io.periscope.testing.InProcessService;
import io.periscope.testing.Waits;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import org.junit.After;
import org.junit.Test;

/**
 * The whole service on an H2 file journal: a delivery whose first attempt failed is owed in the
 * journal, and the wake-up index starts its watch again for the retry — after the node stopped and
 * started again, with nothing else asking for the watch — so the alert arrives once, late.
 */
public class OwedDeliveriesWakeTest {
  private static final String PASSWORD = "owed-deliveries-passphrase";
  private final MockWebServer receiver = new MockWebServer();
  private FakeUpstream upstream;
  private Path dataDir;
  private InProcessService service;

  private Config config() {
    return FastSchedules.config(
        dataDir,
        Map.of(
            "periscope.notify.retry.first-backoff", "2s",
            "periscope.model.base-url", upstream.base() + "/v1",
            "periscope.model.api-keys", "sk-owed-deliveries-test-0001"));
  }

  @After
  public void stop() throws Exception {
    if (service != null) service.close();
    if (upstream != null) upstream.close();
    receiver.shutdown();
  }

  @Test
  public void aDeliveryOwedWhenTheNodeStopsIsMadeAfterItStartsAgain() throws Exception {
    upstream = new FakeUpstream(Duration.ZERO, Duration.ZERO, true, 1);
    receiver.enqueue(new MockResponse().setResponseCode(503));
    receiver.enqueue(new MockResponse().setResponseCode(200));
    receiver.start();
    dataDir = Files.createTempDirectory("periscope-owed");
    service = new InProcessService(config());
    service.account("sam", "user", PASSWORD);
    String token = service.login("sam", PASSWORD);
    String hook = "webhook:" + receiver.url("/hook");
    String watch = upstream.alertingWatch("w", hook);
    InProcessService.json(service.call("POST", "/watches", token, watch), 201);

    JsonNode run =
        InProcessService.json(service.call("POST", "/watches/w/run", token, null), 200)
            .get("result");
    JsonNode first = run.get("deliveries").get(0);
    assertEquals(first.toString(), "pending", first.get("state").asText());
    assertEquals("HTTP 503", first.get("error").asText());

    service.close(); // the node stops before the retry: its timer dies with it
    service = null;
    assertEquals(1, receiver.getRequestCount());
    service = new InProcessService(config());
    // Nothing asks for the watch: only the wake-up index can start it for the retry.
    for (int i = 0; i < 300 && receiver.getRequestCount() < 2; i++) Thread.sleep(100);
    assertEquals("the alert was sent again after the restart", 2, receiver.getRequestCount());

    token = service.login("sam", PASSWORD);
    JsonNode delivery = Waits.delivered(service, token, "w");
    assertTrue(delivery.get("ok").asBoolean());
    assertEquals(2, delivery.get("attempts").size());
    assertEquals(
        1,
        InProcessService.json(service.call("GET", "/watches/w/runs?limit=1", token, null), 200)
            .at("/runs/0/notificationsSent")
            .asInt());
    Thread.sleep(1500);
    assertEquals("and not again", 2, receiver.getRequestCount());
  }
}
