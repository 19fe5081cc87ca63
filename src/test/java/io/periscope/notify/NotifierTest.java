package io.periscope.notify;

import static io.periscope.notify.TelegramSenderTest.await;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

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

  @Before
  public void start() throws Exception {
    telegramApi = new MockWebServer();
    telegramApi.start();
    receiver = new MockWebServer();
    receiver.start();
    OkHttpClient client = new OkHttpClient();
    notifier =
        new Notifier(
            Map.of(
                ChannelId.Kind.TELEGRAM,
                    new TelegramSender(
                        client, TelegramSenderTest.settings(telegramApi, "1001", "")),
                ChannelId.Kind.WEBHOOK, new WebhookSender(client)),
            java.util.Optional.empty());
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
