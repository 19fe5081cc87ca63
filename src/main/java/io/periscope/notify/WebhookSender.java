package io.periscope.notify;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.json.Json;
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
    byte[] body = Json.bytes(payload(alert));
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
                      .add("webhook-id", alert.id())
                      .add("webhook-timestamp", Long.toString(timestamp));
              secret.ifPresent(
                  s ->
                      headers.add(
                          "webhook-signature",
                          WebhookSignature.sign(s, alert.id(), timestamp, body)));
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

  /** The documented payload above. */
  public static ObjectNode payload(Alert alert) {
    ObjectNode json =
        Json.MAPPER
            .createObjectNode()
            .put(
                "type",
                switch (alert.strength()) {
                  case TEST -> "periscope.test";
                  case NOTICE -> "periscope.notice";
                  default -> "periscope.alert";
                })
            .put("id", alert.id())
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
