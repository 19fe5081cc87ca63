package io.periscope.watch;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.typesafe.config.Config;
import io.periscope.json.Json;
import io.periscope.testing.FakeUpstream;
import io.periscope.testing.FastSchedules;
import io.periscope.testing.InProcessService;
import io.periscope.testing.Waits;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import org.junit.After;
import org.junit.Test;

/**
 * The whole service on an H2 file journal: an alert decided inside its watch's quiet hours is held
 * in the journal, the node stops, and after it starts again the wake-up index starts the watch at
 * the window's end — nothing else asks for it — so the alert arrives then, once. An IT: it waits
 * for the next whole minute, the grain of quiet hours.
 */
public class HeldAlertsWakeIT {
  private static final String PASSWORD = "held-alerts-passphrase";
  private static final DateTimeFormatter HH_MM =
      DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneOffset.UTC);
  private final MockWebServer receiver = new MockWebServer();
  private FakeUpstream upstream;
  private Path dataDir;
  private InProcessService service;

  private Config config() {
    return FastSchedules.config(
        dataDir,
        Map.of(
            "periscope.model.base-url",
            upstream.base() + "/v1",
            "periscope.model.api-keys",
            "sk-held-alerts-test-0001"));
  }

  @After
  public void stop() throws Exception {
    if (service != null) service.close();
    if (upstream != null) upstream.close();
    receiver.shutdown();
  }

  @Test
  public void anAlertHeldWhenTheNodeStopsGoesOutAtTheWindowsEndAfterItStartsAgain()
      throws Exception {
    upstream = new FakeUpstream(Duration.ZERO, Duration.ZERO, true, 1);
    receiver.enqueue(new MockResponse().setResponseCode(200));
    receiver.start();
    dataDir = Files.createTempDirectory("periscope-held");
    service = new InProcessService(config());
    service.account("quinn", "user", PASSWORD);
    String token = service.login("quinn", PASSWORD);
    // quiet from an hour ago to the next whole minute at least 15 s away (minutes are the grain)
    Instant now = Instant.now();
    Instant end = now.plusSeconds(15).truncatedTo(ChronoUnit.MINUTES).plus(Duration.ofMinutes(1));
    ObjectNode watch =
        (ObjectNode)
            Json.MAPPER.readTree(upstream.alertingWatch("w", "webhook:" + receiver.url("/hook")));
    watch
        .putObject("quietHours")
        .put("start", HH_MM.format(now.minus(Duration.ofHours(1))))
        .put("end", HH_MM.format(end))
        .put("timeZone", "UTC");
    InProcessService.json(service.call("POST", "/watches", token, watch.toString()), 201);

    JsonNode held =
        InProcessService.json(service.call("POST", "/watches/w/run", token, null), 200)
            .at("/result/deliveries/0");
    assertEquals(held.toString(), "held", held.get("state").asText());
    assertEquals(end.toString(), held.get("nextAttemptAt").asText());

    service.close(); // the node stops while the alert is held: any timer dies with it
    service = null;
    assertEquals("nothing sent inside the window", 0, receiver.getRequestCount());
    service = new InProcessService(config());
    // Nothing asks for the watch: only the wake-up index can start it for the release.
    while (receiver.getRequestCount() < 1 && Instant.now().isBefore(end.plusSeconds(30)))
      Thread.sleep(100);
    assertEquals("the held alert went out", 1, receiver.getRequestCount());
    assertTrue("not before the window's end", !Instant.now().isBefore(end));
    assertTrue(
        receiver.takeRequest().getBody().readUtf8().contains("\"type\":\"periscope.alert\""));

    token = service.login("quinn", PASSWORD);
    Waits.delivered(service, token, "w");
    Thread.sleep(1500);
    assertEquals("and not again", 1, receiver.getRequestCount());
  }
}
