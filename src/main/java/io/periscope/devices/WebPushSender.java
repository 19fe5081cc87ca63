package io.periscope.devices;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.zerodeplibs.webpush.PushSubscription;
import com.zerodeplibs.webpush.VAPIDKeyPair;
import com.zerodeplibs.webpush.header.Urgency;
import com.zerodeplibs.webpush.httpclient.OkHttpClientRequestPreparer;
import com.zerodeplibs.webpush.httpclient.PreparerBuilder;
import io.periscope.entity.Asks;
import io.periscope.json.Json;
import io.periscope.notify.Alert;
import io.periscope.notify.AlertFormat;
import io.periscope.notify.Delivery;
import io.periscope.notify.HttpCalls;
import io.periscope.notify.PushSender;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import org.apache.pekko.Done;

/**
 * The {@code push} channel: an alert goes to every device of the watch's owner at once, each as one
 * Web Push request — the payload encrypted for the device (RFC 8291, {@code aes128gcm}), signed
 * with the service's VAPID key (RFC 8292, {@code Authorization: vapid t=…, k=…}), {@code TTL} one
 * day, {@code Urgency} high for a confirmed alert and normal for a weak one — over the SSRF-guarded
 * client (the endpoint is the user's). A device whose push service answers 404 or 410 is gone and
 * removed; any other failure is that device's failed delivery.
 *
 * <p>The payload, UTF-8 JSON of at most {@link #MAX_PAYLOAD_BYTES} bytes (the service worker shows
 * it):
 *
 * <pre>{@code
 * {"type": "periscope.alert", "watchId": "acme-launch", "watchName": "Acme launch",
 *  "strength": "confirmed" | "weak",
 *  "confidence": 0.92, "summary": "…", "url": "https://… (the first evidence, when there is one)",
 *  "at": "2025-05-01T12:00:00Z"}
 * }</pre>
 */
public final class WebPushSender implements PushSender {
  public static final String CHANNEL = "push";

  /** How long a push service keeps an alert for a device that is offline. */
  static final Duration TTL = Duration.ofDays(1);

  static final Duration CALL_TIMEOUT = Duration.ofSeconds(20);

  /** Under the 3,993 bytes one aes128gcm record of 4,096 can carry. */
  static final int MAX_PAYLOAD_BYTES = 3000;

  private static final int MAX_SUMMARY = 500;
  private static final int MAX_URL = 500;

  private final DevicesEntity.Refs devices;
  private final Asks asks;
  private final Vapid vapid;
  private final OkHttpClient client;

  /** {@code guarded} must be the SSRF-guarded client: endpoints are the users'. */
  public WebPushSender(DevicesEntity.Refs devices, Asks asks, Vapid vapid, OkHttpClient guarded) {
    this.devices = devices;
    this.asks = asks;
    this.vapid = vapid;
    this.client = guarded.newBuilder().callTimeout(CALL_TIMEOUT).build();
  }

  @Override
  public CompletionStage<List<Delivery>> send(Alert alert) {
    return asks.<DevicesEntity.Command, DevicesEntity.Devices>ask(
            devices.devices(alert.owner()), DevicesEntity.GetDevices::new)
        .handle(
            (devices, failure) -> {
              if (failure != null) return failedAll("the devices could not be read");
              if (devices.devices().isEmpty()) return failedAll("no device is registered");
              return vapid
                  .keys()
                  .handle(
                      (keys, noKeys) ->
                          noKeys != null
                              ? failedAll("the VAPID keys could not be read")
                              : sendToAll(devices.devices(), keys.toKeyPair(), alert))
                  .thenCompose(all -> all);
            })
        .thenCompose(all -> all);
  }

  private CompletionStage<List<Delivery>> sendToAll(
      List<Device> devices, VAPIDKeyPair keys, Alert alert) {
    String payload = payload(alert);
    List<CompletableFuture<Delivery>> each =
        devices.stream()
            .map(
                d ->
                    sendTo(alert.owner(), d, keys, payload, alert.strength()).toCompletableFuture())
            .toList();
    return CompletableFuture.allOf(each.toArray(CompletableFuture[]::new))
        .thenApply(done -> each.stream().map(CompletableFuture::join).toList());
  }

  private CompletionStage<Delivery> sendTo(
      String accountId, Device device, VAPIDKeyPair keys, String payload, Alert.Strength strength) {
    Request request;
    try {
      PreparerBuilder<OkHttpClientRequestPreparer> builder =
          OkHttpClientRequestPreparer.getBuilder()
              .pushSubscription(subscription(device))
              .pushMessage(payload)
              .ttl(TTL.toSeconds(), TimeUnit.SECONDS)
              .urgency(
                  strength == Alert.Strength.CONFIRMED
                      ? Urgency.UrgencyOption.HIGH
                      : Urgency.UrgencyOption.NORMAL);
      vapid.subject().ifPresent(builder::vapidJWTSubject);
      request = builder.build(keys).toRequest();
    } catch (RuntimeException e) {
      return CompletableFuture.completedFuture(failed(device, "the subscription cannot be used"));
    }
    // The endpoint is a capability URL: failure reasons never quote it.
    String[] secrets = {device.endpoint(), URI.create(device.endpoint()).getRawPath()};
    return HttpCalls.execute(client, request)
        .handle(
            (answer, failure) -> {
              if (failure != null)
                return CompletableFuture.completedFuture(
                    failed(device, HttpCalls.reason(failure, secrets)));
              if (answer.ok())
                return CompletableFuture.completedFuture(
                    new Delivery(CHANNEL, device.id(), true, null));
              if (answer.code() == 404 || answer.code() == 410) {
                String gone =
                    "HTTP " + answer.code() + ": the subscription is gone, the device was removed";
                return asks.<DevicesEntity.Command, Done>ask(
                        devices.devices(accountId),
                        r -> new DevicesEntity.RemoveGone(device.id(), device.endpoint(), r))
                    .handle(
                        (removed, notRemoved) ->
                            failed(
                                device,
                                notRemoved == null
                                    ? gone
                                    : "HTTP "
                                        + answer.code()
                                        + ": the subscription is gone; removing the device"
                                        + " failed"));
              }
              return CompletableFuture.completedFuture(failed(device, "HTTP " + answer.code()));
            })
        .thenCompose(delivery -> delivery);
  }

  private static PushSubscription subscription(Device device) {
    PushSubscription.Keys keys = new PushSubscription.Keys();
    keys.setP256dh(device.p256dh());
    keys.setAuth(device.auth());
    PushSubscription subscription = new PushSubscription();
    subscription.setEndpoint(device.endpoint());
    subscription.setKeys(keys);
    return subscription;
  }

  /** The documented payload above, shortened until it fits. */
  static String payload(Alert alert) {
    String url = alert.evidence().isEmpty() ? null : alert.evidence().get(0).url();
    String json =
        payload(
            alert,
            AlertFormat.truncate(alert.summary(), MAX_SUMMARY),
            url != null && !url.isEmpty() && url.length() <= MAX_URL ? url : null);
    return json.getBytes(StandardCharsets.UTF_8).length <= MAX_PAYLOAD_BYTES
        ? json
        : payload(alert, AlertFormat.truncate(alert.summary(), 100), null);
  }

  private static String payload(Alert alert, String summary, String url) {
    ObjectNode json =
        Json.MAPPER
            .createObjectNode()
            .put("type", "periscope.alert")
            .put("watchId", alert.watchId())
            .put("watchName", alert.watchName())
            .put("strength", alert.strength().name().toLowerCase(Locale.ROOT))
            .put("confidence", alert.confidence())
            .put("summary", summary);
    if (url != null) json.put("url", url);
    json.put("at", alert.at().toString());
    return Json.text(json);
  }

  private static Delivery failed(Device device, String reason) {
    return new Delivery(CHANNEL, device.id(), false, reason);
  }

  private static CompletionStage<List<Delivery>> failedAll(String reason) {
    return CompletableFuture.completedFuture(List.of(Delivery.failed(CHANNEL, reason)));
  }
}
