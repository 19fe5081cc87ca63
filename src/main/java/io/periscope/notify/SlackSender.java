package io.periscope.notify;

import io.periscope.json.Json;
import java.util.concurrent.CompletionStage;
import okhttp3.Headers;
import okhttp3.OkHttpClient;
import okhttp3.RequestBody;

/** The {@code slack:<incoming webhook url>} channel: {@code {"text": <mrkdwn>}}. */
public final class SlackSender implements ChannelSender {
  /** Slack truncates longer message text. */
  private static final int MAX_TEXT = 40_000;

  private final OkHttpClient client;

  /** {@code client} must be the SSRF-guarded one: the URL is the user's. */
  public SlackSender(OkHttpClient client) {
    this.client = client.newBuilder().callTimeout(WebhookSender.CALL_TIMEOUT).build();
  }

  @Override
  public CompletionStage<Delivery> send(ChannelId channel, Alert alert) {
    var body =
        Json.MAPPER
            .createObjectNode()
            .put("text", AlertFormat.truncate(AlertFormat.slackMrkdwn(alert), MAX_TEXT));
    return HttpCalls.post(
        client, channel, RequestBody.create(Json.bytes(body), HttpCalls.JSON), Headers.of());
  }
}
