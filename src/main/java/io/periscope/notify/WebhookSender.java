package io.periscope.notify;

import com.fasterxml.jackson.core.JsonGenerator;
import io.periscope.json.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeoutException;
import okhttp3.Headers;
import okhttp3.OkHttpClient;
import okhttp3.RequestBody;

/**
 * The {@code webhook:<url>} channel: a JSON POST of the alert, any 2xx answer counting as
 * delivered.
 *
 * <pre>{@code
 * {"type": "periscope.alert" | "periscope.test", "id": "alert_…", "owner": "alice",
 *  "watchId": "acme-launch", "watchName": "Acme launch",
 *  "strength": "confirmed" | "weak" | "test", "confidence": 0.92, "summary": "…",
 *  "evidence": [{"title": "…", "url": "https://…"}], "condition": "…",
 *  "at": "2025-05-01T12:00:00Z"}
 * }</pre>
 *
 * <p>It follows Standard Webhooks: {@code webhook-id} is the alert's stable id (the same on every
 * retry, so a receiver de-duplicates by it), {@code webhook-timestamp} the attempt's time in
 * seconds, and {@code webhook-signature} signs both with the body, keyed with the endpoint's secret
 * (made when it is first needed, so every user's webhook is signed).
 */
public final class WebhookSender implements ChannelSender {
  static final Duration CALL_TIMEOUT = Duration.ofSeconds(20);

  private final OkHttpClient client;
  private final WebhookSecrets secrets;
  private final Clock clock;

  /** {@code client} must be the SSRF-guarded one: the URL is the user's. */
  public WebhookSender(OkHttpClient client, WebhookSecrets secrets, Clock clock) {
    this.client = client.newBuilder().callTimeout(CALL_TIMEOUT).build();
    this.secrets = secrets;
    this.clock = clock;
  }

  @Override
  public CompletionStage<Delivery> send(ChannelId channel, Alert alert) {
    String id = alert.id(); // a digest: once for the body, the header and the signature
    byte[] body = payload(alert, id);
    return secrets
        .secret(alert.owner(), channel.target())
        .handle(
            (secret, failure) -> {
              if (failure != null) {
                return CompletableFuture.completedFuture(unread(channel.id(), failure));
              }
              long timestamp = clock.instant().getEpochSecond();
              Headers.Builder headers =
                  new Headers.Builder()
                      .add("webhook-id", id)
                      .add("webhook-timestamp", Long.toString(timestamp));
              secret.ifPresent(
                  s ->
                      headers.add(
                          "webhook-signature", WebhookSignature.sign(s, id, timestamp, body)));
              return HttpCalls.post(
                  client, channel, RequestBody.create(body, HttpCalls.JSON), headers.build());
            })
        .thenCompose(sent -> sent);
  }

  /**
   * A secret that was not read: retried when the ask for it timed out (its entity moving between
   * nodes, or held by a node of the previous release that does not know the request, during a
   * rolling upgrade), failed for good otherwise (a secret no key of the keyring decrypts).
   */
  private static Delivery unread(String channel, Throwable failure) {
    String error = "not sent: the webhook signing secret could not be read";
    Throwable cause =
        failure instanceof CompletionException && failure.getCause() != null
            ? failure.getCause()
            : failure;
    return cause instanceof TimeoutException
        ? Delivery.retryable(channel, error, null)
        : Delivery.failed(channel, error);
  }

  /**
   * The documented payload above, {@code id} being the alert's: written straight to its bytes, as
   * the service's mapper writes JSON, with no tree of it made first.
   */
  static byte[] payload(Alert alert, String id) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(512);
    try (JsonGenerator json = Json.MAPPER.writer().createGenerator(out)) {
      json.writeStartObject();
      json.writeStringField(
          "type",
          switch (alert.strength()) {
            case TEST -> "periscope.test";
            case NOTICE -> "periscope.notice";
            default -> "periscope.alert";
          });
      json.writeStringField("id", id);
      json.writeStringField("owner", alert.owner());
      json.writeStringField("watchId", alert.watchId());
      json.writeStringField("watchName", alert.watchName());
      json.writeStringField("strength", alert.strength().name().toLowerCase(Locale.ROOT));
      json.writeNumberField("confidence", alert.confidence());
      json.writeStringField("summary", alert.summary());
      json.writeArrayFieldStart("evidence");
      for (Alert.Evidence e : alert.evidence()) {
        json.writeStartObject();
        json.writeStringField("title", e.title());
        json.writeStringField("url", e.url());
        json.writeEndObject();
      }
      json.writeEndArray();
      json.writeStringField("condition", alert.condition());
      json.writeStringField("at", alert.at().toString());
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write a webhook's payload", e);
    }
    return out.toByteArray();
  }
}
