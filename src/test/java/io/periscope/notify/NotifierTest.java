package io.periscope.notify;

import static io.periscope.testing.Waits.await;
import static java.util.concurrent.CompletableFuture.completedFuture;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.periscope.ratelimit.FixedWindowRateLimiter;
import io.periscope.testing.CapturedLogs;
import io.periscope.testing.LoggedAlerts;
import io.periscope.testing.TestTelegram;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

/**
 * Dispatch to a watch's channels: real senders against a Bot API and a webhook receiver on
 * loopback.
 */
public class NotifierTest {
  private MockWebServer telegramApi;
  private MockWebServer receiver;
  private Notifier notifier;
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

  /** Every channel may be used, 100 deliveries an hour. */
  private static final ChannelPolicy OPEN = (owner, channels) -> completedFuture(Map.of());

  @Before
  public void start() throws Exception {
    telegramApi = new MockWebServer();
    telegramApi.start();
    receiver = new MockWebServer();
    receiver.start();
    notifier = notifier(OPEN, 100);
  }

  private Notifier notifier(ChannelPolicy policy, int perHour) {
    OkHttpClient client = new OkHttpClient();
    return new Notifier(
        Map.of(
            ChannelId.Kind.TELEGRAM,
                new TelegramSender(client, TestTelegram.settings(telegramApi, "1001", "")),
            ChannelId.Kind.WEBHOOK,
                new WebhookSender(client, WebhookSecrets.NONE, java.time.Clock.systemUTC())),
        java.util.Optional.empty(),
        policy,
        new FixedWindowRateLimiter(perHour, Duration.ofHours(1), Clock.systemUTC()),
        LoggedAlerts.create(),
        new NotifyMeters(meters));
  }

  @Test
  public void aRefusedChannelIsAFailedDeliveryTheOtherChannelsStillGetTheAlert() throws Exception {
    receiver.enqueue(new MockResponse().setBody("{}"));
    receiver.enqueue(new MockResponse().setBody("{}"));
    String webhook = "webhook:" + receiver.url("/hook/alice");
    Notifier policed =
        notifier(
            (owner, channels) ->
                completedFuture(
                    owner.equals("alice") && channels.contains("telegram")
                        ? Map.of("telegram", "this Telegram chat is the operator's")
                        : Map.of()),
            100);
    try (CapturedLogs logs = new CapturedLogs()) {
      for (int run = 0; run < 2; run++) {
        assertEquals(
            List.of(
                Delivery.failed("telegram", "refused: this Telegram chat is the operator's"),
                Delivery.delivered(webhook)),
            await(policed.send(List.of("telegram", webhook), Alerts.confirmed())));
      }
      assertEquals("nothing reached the chat", 0, telegramApi.getRequestCount());
      assertEquals(
          "the operator is told once",
          1,
          logs.lines().stream().filter(l -> l.contains("kind=channel-refused")).count());
    }
    assertEquals(2.0, deliveries("telegram", "failed"), 0);
    assertEquals(2.0, deliveries("webhook", "delivered"), 0);
    assertEquals(2.0, meters.get("periscope.alerts").tag("result", "partial").counter().count(), 0);
    assertTrue(
        "the channel's address is no label",
        meters.getMeters().stream()
            .flatMap(m -> m.getId().getTags().stream())
            .noneMatch(t -> t.getValue().contains("127.0.0.1") || t.getValue().contains("alice")));
  }

  private double deliveries(String channel, String result) {
    return meters
        .get("periscope.deliveries")
        .tag("channel", channel)
        .tag("result", result)
        .counter()
        .count();
  }

  @Test
  public void anOwnerOverItsHourlyDeliveriesSendsNoMore() throws Exception {
    for (int i = 0; i < 3; i++) receiver.enqueue(new MockResponse().setBody("{}"));
    String webhook = "webhook:" + receiver.url("/hook/alice");
    Notifier limited = notifier(OPEN, 2);
    assertTrue(await(limited.send(List.of(webhook), Alerts.ofRun("run-1"))).get(0).ok());
    assertTrue(await(limited.send(List.of(webhook), Alerts.ofRun("run-2"))).get(0).ok());
    Delivery third = await(limited.send(List.of(webhook), Alerts.ofRun("run-3"))).get(0);
    assertFalse(third.ok());
    assertTrue(third.error(), third.error().startsWith("not sent:"));
    assertEquals(2, receiver.getRequestCount());
  }

  @Test
  public void theRetriesOfADeliveryCountOnceAgainstTheHourlyLimit() throws Exception {
    for (int i = 0; i < 3; i++) receiver.enqueue(new MockResponse().setResponseCode(503));
    receiver.enqueue(new MockResponse().setBody("{}"));
    receiver.enqueue(new MockResponse().setBody("{}"));
    String dead = "webhook:" + receiver.url("/hook/dead");
    Notifier limited = notifier(OPEN, 2);
    for (int attempt = 1; attempt <= 4; attempt++) {
      Delivery d = await(limited.send(List.of(dead), Alerts.ofRun("run-1"))).get(0);
      assertEquals("attempt " + attempt + ": " + d.error(), attempt == 4, d.ok());
    }
    assertTrue(
        "another alert still has the hour's second delivery",
        await(limited.send(List.of(dead), Alerts.ofRun("run-2"))).get(0).ok());
    assertEquals(5, receiver.getRequestCount());
  }

  @Test
  public void permissionsThatCannotBeReadSendNothing() throws Exception {
    Notifier unknown =
        notifier(
            (owner, channels) ->
                java.util.concurrent.CompletableFuture.failedFuture(
                    new java.util.concurrent.TimeoutException("no answer")),
            100);
    List<Delivery> deliveries =
        await(unknown.send(List.of("webhook:" + receiver.url("/hook")), Alerts.confirmed()));
    assertFalse(deliveries.get(0).ok());
    assertEquals(0, receiver.getRequestCount());
  }

  @After
  public void stop() throws Exception {
    telegramApi.shutdown();
    receiver.shutdown();
  }

  @Test
  public void everyChannelGetsADeliveryInTheWatchsOrder() throws Exception {
    telegramApi.enqueue(new MockResponse().setBody("{\"ok\":true,\"result\":{}}"));
    receiver.enqueue(new MockResponse().setBody("{\"ok\":true}"));
    String webhook = "webhook:" + receiver.url("/hook/alice");

    List<Delivery> deliveries =
        await(
            notifier.send(
                List.of(
                    webhook,
                    "telegram",
                    "carrier-pigeon:coop",
                    "push",
                    "email:alice@example.com",
                    webhook),
                Alerts.confirmed()));

    assertEquals(
        List.of(
            Delivery.delivered(webhook),
            Delivery.delivered("telegram"),
            Delivery.failed("carrier-pigeon:coop", "unknown channel"),
            Delivery.failed("push", "push is not configured"),
            Delivery.failed("email:alice@example.com", "email is not configured")),
        deliveries);
    assertTrue(receiver.takeRequest().getBody().readUtf8().contains("Acme sets launch date"));
    assertEquals("a channel listed twice is sent to once", 1, receiver.getRequestCount());
    assertEquals(1, telegramApi.getRequestCount());
  }

  @Test
  public void channelsAreSentToAtTheSameTime() throws Exception {
    telegramApi.enqueue(
        new MockResponse()
            .setBody("{\"ok\":true,\"result\":{}}")
            .setHeadersDelay(1, TimeUnit.SECONDS));
    receiver.enqueue(new MockResponse().setBody("{}").setHeadersDelay(1, TimeUnit.SECONDS));
    long started = System.nanoTime();

    List<Delivery> deliveries =
        await(
            notifier.send(
                List.of("telegram", "webhook:" + receiver.url("/hook/slow")), Alerts.confirmed()));

    long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    assertTrue(deliveries.stream().allMatch(Delivery::ok));
    assertTrue("two one-second answers took " + elapsedMillis + " ms", elapsedMillis < 1900);
  }
}
