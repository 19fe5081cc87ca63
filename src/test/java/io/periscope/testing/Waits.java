package io.periscope.testing;

import static org.junit.Assert.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/** Waiting for what the code under test answers later. */
public final class Waits {
  private Waits() {}

  /** What {@code stage} completes with, within 40 seconds. */
  public static <T> T await(CompletionStage<T> stage) throws Exception {
    return stage.toCompletableFuture().get(40, TimeUnit.SECONDS);
  }

  /** The first delivery of the watch's latest run, once it reads delivered (within 5 s). */
  public static JsonNode delivered(InProcessService service, String token, String watchId)
      throws Exception {
    JsonNode delivery = null;
    for (int i = 0; i < 50; i++) {
      delivery =
          InProcessService.json(
                  service.call("GET", "/watches/" + watchId + "/runs?limit=1", token, null), 200)
              .at("/runs/0/deliveries/0");
      if (delivery.get("state").asText().equals("delivered")) break;
      Thread.sleep(100);
    }
    assertEquals(delivery.toString(), "delivered", delivery.get("state").asText());
    return delivery;
  }
}
