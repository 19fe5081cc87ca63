package io.periscope.notify;

import java.util.concurrent.CompletionStage;
import okhttp3.FormBody;
import okhttp3.Headers;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;

/**
 * The {@code pushover:<user key>@<application token>} channel: Pushover's {@code POST
 * /1/messages.json} (form fields {@code token}, {@code user}, {@code title}, {@code message},
 * {@code url}, {@code priority}: 0 for confirmed alerts, -1, quiet, otherwise) at {@code
 * PUSHOVER_API_BASE_URL}, an endpoint the operator configures and so trusts.
 */
public final class PushoverSender implements ChannelSender {
  /** Pushover refuses longer titles, messages and URLs. */
  private static final int MAX_TITLE = 250;

  private static final int MAX_MESSAGE = 1024;
  private static final int MAX_URL = 512;

  private final OkHttpClient client;
  private final HttpUrl messages;

  /**
   * @param apiBase Pushover's API, {@code https://api.pushover.net} unless a test says otherwise
   */
  public PushoverSender(OkHttpClient client, String apiBase) {
    this.client = client.newBuilder().callTimeout(WebhookSender.CALL_TIMEOUT).build();
    this.messages = HttpUrl.get(apiBase).newBuilder().addPathSegments("1/messages.json").build();
  }

  @Override
  public CompletionStage<Delivery> send(ChannelId channel, Alert alert) {
    int at = channel.target().indexOf('@');
    FormBody.Builder form =
        new FormBody.Builder()
            .add("token", channel.target().substring(at + 1))
            .add("user", channel.target().substring(0, at))
            .add("title", AlertFormat.truncate(AlertFormat.headline(alert), MAX_TITLE))
            .add("message", AlertFormat.truncate(AlertFormat.plainBody(alert), MAX_MESSAGE))
            .add("priority", alert.strength() == Alert.Strength.CONFIRMED ? "0" : "-1");
    AlertFormat.firstLink(alert)
        .filter(u -> u.length() <= MAX_URL)
        .ifPresent(u -> form.add("url", u));
    return HttpCalls.send(client, channel, messages, "POST", form.build(), Headers.of());
  }
}
