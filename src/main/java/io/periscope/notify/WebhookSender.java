package io.periscope.notify;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.json.Json;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CompletionStage;
import okhttp3.Headers;
import okhttp3.OkHttpClient;
import okhttp3.RequestBody;

/**
 * The {@code webhook:<url>} channel: a JSON POST of the alert, any 2xx answer counting as
 * delivered.
 *
 * <pre>{@code
 * {"type": "periscope.alert", "owner": "alice", "watchId": "acme-launch",
 *  "watchName": "Acme launch", "strength": "confirmed" | "weak", "confidence": 0.92,
 *  "summary": "…", "evidence": [{"title": "…", "url": "https://…"}], "condition": "…",
 *  "at": "2025-05-01T12:00:00Z"}
 * }</pre>
 */
public final class WebhookSender implements ChannelSender {
  static final Duration CALL_TIMEOUT = Duration.ofSeconds(20);

  private final OkHttpClient client;

  /** {@code client} must be the SSRF-guarded one: the URL is the user's. */
  public WebhookSender(OkHttpClient client) {
    this.client = client.newBuilder().callTimeout(CALL_TIMEOUT).build();
  }

  @Override
  public CompletionStage<Delivery> send(ChannelId channel, Alert alert) {
    return HttpCalls.post(
        client,
        channel,
        RequestBody.create(Json.bytes(payload(alert)), HttpCalls.JSON),
        Headers.of());
  }

  /** The documented payload above. */
  public static ObjectNode payload(Alert alert) {
    ObjectNode json =
        Json.MAPPER
            .createObjectNode()
            .put("type", "periscope.alert")
            .put("owner", alert.owner())
            .put("watchId", alert.watchId())
            .put("watchName", alert.watchName())
            .put("strength", alert.strength().name().toLowerCase(Locale.ROOT))
            .put("confidence", alert.confidence())
            .put("summary", alert.summary());
    ArrayNode evidence = json.putArray("evidence");
    for (Alert.Evidence e : alert.evidence())
      evidence.addObject().put("title", e.title()).put("url", e.url());
    json.put("condition", alert.condition());
    json.put("at", alert.at().toString());
    return json;
  }
}
