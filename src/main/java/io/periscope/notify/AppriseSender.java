package io.periscope.notify;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.json.Json;
import java.util.concurrent.CompletionStage;
import okhttp3.Headers;
import okhttp3.OkHttpClient;
import okhttp3.RequestBody;

/**
 * The {@code apprise:<url>} channel: a self-hosted Apprise API server's notify endpoint (usually
 * {@code https://<server>/notify/<configuration key>}), which passes the alert on to whatever
 * services that configuration names. JSON {@code {title, body, type, format: "text"}}, {@code type}
 * {@code warning} for confirmed alerts and {@code info} otherwise.
 */
public final class AppriseSender implements ChannelSender {
  private final OkHttpClient client;

  /** {@code client} must be the SSRF-guarded one: the URL is the user's. */
  public AppriseSender(OkHttpClient client) {
    this.client = client.newBuilder().callTimeout(WebhookSender.CALL_TIMEOUT).build();
  }

  @Override
  public CompletionStage<Delivery> send(ChannelId channel, Alert alert) {
    ObjectNode body =
        Json.MAPPER
            .createObjectNode()
            .put("title", AlertFormat.headline(alert))
            .put("body", AlertFormat.plainBody(alert))
            .put("type", alert.strength() == Alert.Strength.CONFIRMED ? "warning" : "info")
            .put("format", "text");
    return HttpCalls.post(
        client, channel, RequestBody.create(Json.bytes(body), HttpCalls.JSON), Headers.of());
  }
}
