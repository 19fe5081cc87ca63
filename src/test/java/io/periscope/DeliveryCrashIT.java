package io.periscope;

import static org.junit.Assert.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.testing.ApiClient;
import io.periscope.testing.FakeUpstream;
import io.periscope.testing.ServiceProcess;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import org.junit.Test;

/**
 * kill -9 of the jar between two attempts of a delivery: the node that starts again on the same
 * journal makes the owed attempt by itself (its wake-up index starts the watch; nothing asks for
 * it), and the receiver gets the alert once.
 */
public class DeliveryCrashIT {
  private static final String PASSWORD = "a-delivery-crash-passphrase";

  @Test
  public void aDeliveryOwedWhenTheNodeIsKilledIsMadeByTheNextStartOnce() throws Exception {
    ApiClient api = new ApiClient();
    try (FakeUpstream upstream = new FakeUpstream(Duration.ZERO, Duration.ZERO, true, 1);
        MockWebServer receiver = new MockWebServer()) {
      receiver.enqueue(new MockResponse().setResponseCode(503));
      receiver.enqueue(new MockResponse().setResponseCode(200));
      receiver.start();
      Map<String, String> env =
          Map.of(
              "DATA_DIR", Files.createTempDirectory("periscope-delivery-crash").toString(),
              "AUTH_JWT_SECRET", "delivery-crash-secret-of-at-least-32-bytes",
              "MODEL_BASE_URL", upstream.base() + "/v1",
              "MODEL_API_KEYS", "sk-delivery-crash-0001",
              "FETCH_ALLOW_PRIVATE_NETWORKS", "true",
              // the retry comes after the kill and the start, not before
              "JAVA_TOOL_OPTIONS", "-Dperiscope.notify.retry.first-backoff=20s");
      String hook = "webhook:" + receiver.url("/hook");
      try (ServiceProcess service =
          new ServiceProcess(env, ServiceProcess.logFile("delivery-crash")).start()) {
        String token = service.signedInAdmin("ops", PASSWORD);
        String watch = upstream.alertingWatch("w", hook);
        assertEquals(201, api.send("POST", service.uri("/watches"), token, watch).statusCode());
        JsonNode first =
            ApiClient.json(api.send("POST", service.uri("/watches/w/run"), token, null))
                .at("/result/deliveries/0");
        assertEquals(first.toString(), "pending", first.get("state").asText());
        service.kill();
        assertEquals(1, receiver.getRequestCount());

        service.start(); // the same journal; nothing asks for the watch
        for (int i = 0; i < 600 && receiver.getRequestCount() < 2; i++) Thread.sleep(100);
        assertEquals("the owed attempt was made after the start", 2, receiver.getRequestCount());

        token = api.login(service.uri(""), "ops@example.org", PASSWORD);
        JsonNode delivery = null;
        for (int i = 0; i < 50; i++) {
          delivery =
              ApiClient.json(api.send("GET", service.uri("/watches/w/runs?limit=1"), token, null))
                  .at("/runs/0/deliveries/0");
          if (delivery.get("state").asText().equals("delivered")) break;
          Thread.sleep(200);
        }
        assertEquals(delivery.toString(), "delivered", delivery.get("state").asText());
        assertEquals(2, delivery.get("attempts").size());
        Thread.sleep(2000);
        assertEquals("delivered once, not again", 2, receiver.getRequestCount());
        service.stop();
      }
    }
  }
}
