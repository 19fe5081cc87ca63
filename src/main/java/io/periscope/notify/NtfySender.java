package io.periscope.notify;

import jakarta.mail.internet.MimeUtility;
import java.io.UnsupportedEncodingException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import okhttp3.Credentials;
import okhttp3.Headers;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.RequestBody;

/**
 * The {@code ntfy:<topic url>} channel ({@code ntfy:https://<access token>@host/topic} or {@code
 * https://<user>:<password>@…} for a protected topic): the plain-text body POSTed to the topic,
 * with the headline as Title, priority high for confirmed alerts and default for others, a tag per
 * strength, the first cited URL as Click, and the alert's id as the sequence id.
 */
public final class NtfySender implements ChannelSender {
  private static final MediaType TEXT = MediaType.get("text/plain; charset=utf-8");

  /** ntfy refuses longer messages as attachments unless configured otherwise. */
  private static final int MAX_BODY = 4000;

  private static final Map<Alert.Strength, String> TAGS =
      Map.of(
          Alert.Strength.CONFIRMED, "bell",
          Alert.Strength.WEAK, "grey_question",
          Alert.Strength.TEST, "test_tube",
          Alert.Strength.NOTICE, "warning");

  private final OkHttpClient client;

  /** {@code client} must be the SSRF-guarded one: the URL is the user's. */
  public NtfySender(OkHttpClient client) {
    this.client = client.newBuilder().callTimeout(WebhookSender.CALL_TIMEOUT).build();
  }

  @Override
  public CompletionStage<Delivery> send(ChannelId channel, Alert alert) {
    boolean confirmed = alert.strength() == Alert.Strength.CONFIRMED;
    Headers.Builder headers =
        new Headers.Builder()
            .add("Title", headerText(AlertFormat.headline(alert)))
            .add("Priority", confirmed ? "high" : "default")
            .add("Tags", TAGS.get(alert.strength()))
            // ntfy 2.16+ clients replace a notification by one of the same sequence id, so an
            // alert delivered twice shows once; earlier servers ignore the header.
            .add("X-Sequence-ID", alert.id());
    AlertFormat.firstLink(alert).ifPresent(u -> headers.add("Click", u));
    ChannelId.credential(channel.target()).ifPresent(c -> headers.add("Authorization", auth(c)));
    String body = AlertFormat.truncate(AlertFormat.plainBody(alert), MAX_BODY);
    return HttpCalls.post(
        client,
        channel,
        RequestBody.create(body.getBytes(StandardCharsets.UTF_8), TEXT),
        headers.build());
  }

  /**
   * An access token ({@code tk_…}) as a bearer token, {@code user:password} as basic
   * authentication: the two ways ntfy takes them.
   */
  private static String auth(String credential) {
    int colon = credential.indexOf(':');
    return colon < 0
        ? "Bearer " + credential
        : Credentials.basic(
            credential.substring(0, colon),
            credential.substring(colon + 1),
            StandardCharsets.UTF_8);
  }

  /** HTTP headers are ASCII: anything else goes as an RFC 2047 encoded word, which ntfy decodes. */
  static String headerText(String text) {
    String line = AlertFormat.oneLine(text);
    if (line.chars().allMatch(c -> c >= 0x20 && c < 0x7f)) return line;
    try {
      return MimeUtility.encodeText(line, "UTF-8", "B").replaceAll("\\s+", " ");
    } catch (UnsupportedEncodingException e) {
      throw new IllegalStateException("UTF-8 is always supported", e);
    }
  }
}
