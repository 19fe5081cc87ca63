package io.periscope.notify;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.json.Json;
import java.util.concurrent.CompletionStage;
import okhttp3.Headers;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.RequestBody;

/**
 * The {@code gotify:https://<application token>@<server>[/path]} channel: Gotify's {@code POST
 * /message} with the token in {@code X-Gotify-Key}, the headline as title, the body as plain text,
 * priority 8 for confirmed alerts and 5 otherwise, and the first cited page as the tap target.
 */
public final class GotifySender implements ChannelSender {
  private final OkHttpClient client;

  /** {@code client} must be the SSRF-guarded one: the URL is the user's. */
  public GotifySender(OkHttpClient client) {
    this.client = client.newBuilder().callTimeout(WebhookSender.CALL_TIMEOUT).build();
  }

  @Override
  public CompletionStage<Delivery> send(ChannelId channel, Alert alert) {
    HttpUrl server = HttpUrl.parse(channel.target());
    ObjectNode body =
        Json.MAPPER
            .createObjectNode()
            .put("title", AlertFormat.headline(alert))
            .put("message", AlertFormat.plainBody(alert))
            .put("priority", alert.strength() == Alert.Strength.CONFIRMED ? 8 : 5);
    ObjectNode extras = body.putObject("extras");
    extras.putObject("client::display").put("contentType", "text/plain");
    AlertFormat.firstLink(alert)
        .ifPresent(u -> extras.putObject("client::notification").putObject("click").put("url", u));
    return HttpCalls.send(
        client,
        channel,
        server == null ? null : server.newBuilder().addPathSegment("message").build(),
        "POST",
        RequestBody.create(Json.bytes(body), HttpCalls.JSON),
        Headers.of("X-Gotify-Key", ChannelId.credential(channel.target()).orElse("")));
  }
}
