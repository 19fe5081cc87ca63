package io.periscope.notify;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.json.Json;
import java.net.URI;
import java.util.concurrent.CompletionStage;
import okhttp3.Headers;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.RequestBody;

/**
 * The {@code matrix:https://<access token>@<homeserver>/<room id>} channel: an {@code m.text}
 * message (plain text, and the HTML Matrix clients render) sent to the room with the client-server
 * API's {@code PUT /_matrix/client/v3/rooms/<room>/send/m.room.message/<transaction id>}. The
 * transaction id is the alert's id, so the homeserver keeps a repeated attempt (same token) from
 * posting the message twice.
 */
public final class MatrixSender implements ChannelSender {
  private final OkHttpClient client;

  /** {@code client} must be the SSRF-guarded one: the URL is the user's. */
  public MatrixSender(OkHttpClient client) {
    this.client = client.newBuilder().callTimeout(WebhookSender.CALL_TIMEOUT).build();
  }

  @Override
  public CompletionStage<Delivery> send(ChannelId channel, Alert alert) {
    HttpUrl given = HttpUrl.parse(channel.target());
    HttpUrl url =
        given == null
            ? null
            : given
                .newBuilder()
                .encodedPath("/")
                .addPathSegments("_matrix/client/v3/rooms")
                .addPathSegment(URI.create(channel.target()).getPath().substring(1))
                .addPathSegments("send/m.room.message")
                .addPathSegment(alert.id())
                .build();
    ObjectNode body =
        Json.MAPPER
            .createObjectNode()
            .put("msgtype", "m.text")
            .put("body", AlertFormat.plainText(alert))
            .put("format", "org.matrix.custom.html")
            .put("formatted_body", AlertFormat.telegramHtml(alert).replace("\n", "<br>"));
    return HttpCalls.send(
        client,
        channel,
        url,
        "PUT",
        RequestBody.create(Json.bytes(body), HttpCalls.JSON),
        Headers.of("Authorization", "Bearer " + ChannelId.credential(channel.target()).orElse("")));
  }
}
