package io.periscope.notify;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.json.Json;
import java.util.concurrent.CompletionStage;
import okhttp3.Headers;
import okhttp3.OkHttpClient;
import okhttp3.RequestBody;

/**
 * The {@code discord:<webhook url>} channel: {@code {"content": <markdown, at most 2000
 * characters>}}, with mentions disabled so a summary quoting "@everyone" pings nobody.
 */
public final class DiscordSender implements ChannelSender {
  private final OkHttpClient client;

  /** {@code client} must be the SSRF-guarded one: the URL is the user's. */
  public DiscordSender(OkHttpClient client) {
    this.client = client.newBuilder().callTimeout(WebhookSender.CALL_TIMEOUT).build();
  }

  @Override
  public CompletionStage<Delivery> send(ChannelId channel, Alert alert) {
    ObjectNode body =
        Json.MAPPER.createObjectNode().put("content", AlertFormat.discordMarkdown(alert));
    body.putObject("allowed_mentions").putArray("parse");
    return HttpCalls.post(
        client, channel, RequestBody.create(Json.bytes(body), HttpCalls.JSON), Headers.of());
  }
}
