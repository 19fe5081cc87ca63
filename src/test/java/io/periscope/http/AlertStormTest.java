package io.periscope.http;

import static io.periscope.testing.InProcessService.json;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import io.periscope.testing.InProcessService;
import io.periscope.testing.TestJournals;
import io.periscope.testing.TestWatches;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.Test;

/**
 * One account's failing watches in one run-all reach the operator's channel as one alert naming
 * their count, with the shipped alert budget, not one alert per watch.
 */
public class AlertStormTest {
  static final int WATCHES = 25;

  @Test
  public void twentyFiveFailingWatchesOfOneAccountMakeOneOperatorAlert() throws Exception {
    try (MockWebServer upstream = new MockWebServer()) {
      upstream.setDispatcher(
          new okhttp3.mockwebserver.Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
              return new MockResponse()
                  .setResponseCode(request.getPath().startsWith("/ops") ? 200 : 404);
            }
          });
      upstream.start();
      try (InProcessService service =
          new InProcessService(
              ConfigFactory.parseMap(
                      Map.of(
                          "periscope.fetch.allow-private-networks",
                          true,
                          "periscope.notify.admin-channels",
                          "webhook:" + upstream.url("/ops")))
                  .withFallback(TestJournals.h2()))) {
        String bob = service.signedIn("bob", "user");
        for (int i = 1; i <= WATCHES; i++)
          json(
              service.call(
                  "POST",
                  "/watches",
                  bob,
                  TestWatches.body("w" + i)
                      .name("Watch " + i)
                      .feed(upstream.url("/gone/" + i).toString())
                      .json()),
              201);
        JsonNode ran = json(service.call("POST", "/watches/run-all", bob, null), 200);
        assertEquals(WATCHES, ran.at("/summary/total").asInt());

        List<String> alerts = new java.util.ArrayList<>();
        for (RecordedRequest r; (r = upstream.takeRequest(15, TimeUnit.SECONDS)) != null; ) {
          if (r.getPath().startsWith("/ops")) {
            alerts.add(r.getBody().readUtf8());
            break;
          }
        }
        assertEquals("an operator alert came", 1, alerts.size());
        // nothing more within the next seconds
        for (RecordedRequest r; (r = upstream.takeRequest(5, TimeUnit.SECONDS)) != null; )
          if (r.getPath().startsWith("/ops")) alerts.add(r.getBody().readUtf8());
        assertEquals(alerts.toString(), 1, alerts.size());
        assertTrue(alerts.get(0), alerts.get(0).contains("bob: " + WATCHES + " watches failing"));
      }
    }
  }
}
