package io.periscope.notify;

import static io.periscope.notify.TelegramSenderTest.await;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.json.Json;
import jakarta.mail.internet.MimeUtility;
import java.nio.charset.StandardCharsets;
import okhttp3.OkHttpClient;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

/** Webhook, ntfy, Slack and Discord channels against receivers on loopback. */
public class WebhookSendersTest {
  private final OkHttpClient client = new OkHttpClient();
  private MockWebServer server;

  @Before
  public void start() throws Exception {
    server = new MockWebServer();
    server.start();
  }

  @After
  public void stop() throws Exception {
    server.shutdown();
  }

  private ChannelId channel(String kind, String path) {
    return ChannelId.parse(kind + ":" + server.url(path)).orElseThrow();
  }

  private static JsonNode json(RecordedRequest request) throws Exception {
    return Json.parse(request.getBody().readByteArray());
  }

  @Test
  public void aWebhookReceivesTheAlertAsDocumentedJson() throws Exception {
    server.enqueue(new MockResponse().setResponseCode(204));
    ChannelId channel = channel("webhook", "/hook/alice");

    Delivery delivery = await(new WebhookSender(client).send(channel, Alerts.confirmed()));

    assertEquals(Delivery.delivered(channel.id()), delivery);
    RecordedRequest request = server.takeRequest();
    assertEquals("/hook/alice", request.getPath());
    assertTrue(request.getHeader("Content-Type").startsWith("application/json"));
    JsonNode body = json(request);
    assertEquals("periscope.alert", body.get("type").asText());
    assertEquals("alice", body.get("owner").asText());
    assertEquals("acme-launch", body.get("watchId").asText());
    assertEquals("Acme launch", body.get("watchName").asText());
    assertEquals("confirmed", body.get("strength").asText());
    assertEquals(0.92, body.get("confidence").asDouble(), 0);
    assertEquals("Acme set the launch date for <May 3> & said so.", body.get("summary").asText());
    assertEquals("Acme sets launch date", body.at("/evidence/0/title").asText());
    assertEquals(
        "https://news.example.com/acme?id=1&ref=feed", body.at("/evidence/0/url").asText());
    assertEquals("Acme announces a launch date", body.get("condition").asText());
    assertEquals("2025-05-01T12:00:00Z", body.get("at").asText());
    assertEquals("weak", WebhookSender.payload(Alerts.weak()).get("strength").asText());
  }

  @Test
  public void aWebhookAnsweringAnErrorIsAFailedDelivery() throws Exception {
    server.enqueue(new MockResponse().setResponseCode(500));
    Delivery delivery =
        await(new WebhookSender(client).send(channel("webhook", "/hook/x"), Alerts.confirmed()));
    assertFalse(delivery.ok());
    assertEquals("HTTP 500", delivery.error());
    assertTrue("a 5xx may pass", delivery.retryable());
  }

  @Test
  public void failuresSayWhetherTheyMayPassAndHowLongTheReceiverAskedToWait() throws Exception {
    server.enqueue(new MockResponse().setResponseCode(429).setHeader("Retry-After", "120"));
    server.enqueue(new MockResponse().setResponseCode(404));
    server.enqueue(new MockResponse().setResponseCode(408));
    WebhookSender sender = new WebhookSender(client);

    Delivery limited = await(sender.send(channel("webhook", "/h"), Alerts.confirmed()));
    Delivery gone = await(sender.send(channel("webhook", "/h"), Alerts.confirmed()));
    Delivery slow = await(sender.send(channel("webhook", "/h"), Alerts.confirmed()));
    server.shutdown(); // its port now refuses connections
    Delivery unreachable = await(sender.send(channel("webhook", "/h"), Alerts.confirmed()));

    assertTrue(limited.retryable());
    assertEquals(java.time.Duration.ofSeconds(120), limited.retryAfter());
    assertFalse("another 4xx is permanent", gone.retryable());
    assertTrue(slow.retryable());
    assertEquals(null, slow.retryAfter());
    assertTrue(unreachable.error(), unreachable.retryable());
  }

  @Test
  public void retryAfterIsReadAsSecondsOrAsAnHttpDate() {
    java.time.Instant now = java.time.Instant.parse("2026-11-25T10:00:00Z");
    assertEquals(java.time.Duration.ofSeconds(30), HttpCalls.retryAfter(" 30 ", now));
    assertEquals(
        java.time.Duration.ofSeconds(90),
        HttpCalls.retryAfter("Wed, 25 Nov 2026 10:01:30 GMT", now));
    assertEquals(
        java.time.Duration.ZERO, HttpCalls.retryAfter("Wed, 25 Nov 2026 09:00:00 GMT", now));
    assertEquals(null, HttpCalls.retryAfter("soon", now));
    assertEquals(null, HttpCalls.retryAfter(null, now));
  }

  @Test
  public void anUnreachableWebhookFailsWithoutNamingItsSecretPath() throws Exception {
    ChannelId channel = channel("slack", "/services/T000/B000/very-secret-path");
    server.shutdown();
    Delivery delivery = await(new SlackSender(client).send(channel, Alerts.confirmed()));
    assertFalse(delivery.ok());
    assertFalse(delivery.error(), delivery.error().contains("very-secret-path"));
  }

  @Test
  public void ntfyGetsTheBodyWithTitlePriorityTagsAndClick() throws Exception {
    server.enqueue(new MockResponse().setBody("{}"));
    server.enqueue(new MockResponse().setBody("{}"));
    NtfySender ntfy = new NtfySender(client);

    assertTrue(await(ntfy.send(channel("ntfy", "/acme-topic"), Alerts.confirmed())).ok());
    assertTrue(await(ntfy.send(channel("ntfy", "/acme-topic"), Alerts.weak())).ok());

    RecordedRequest confirmed = server.takeRequest();
    assertEquals("/acme-topic", confirmed.getPath());
    // The headline has an emoji and a dash, which travel as an RFC 2047 encoded word.
    assertEquals(
        AlertFormat.headline(Alerts.confirmed()),
        MimeUtility.decodeText(confirmed.getHeader("Title")));
    assertEquals("high", confirmed.getHeader("Priority"));
    assertEquals("bell", confirmed.getHeader("Tags"));
    assertEquals("https://news.example.com/acme?id=1&ref=feed", confirmed.getHeader("Click"));
    assertEquals(
        AlertFormat.plainBody(Alerts.confirmed()),
        confirmed.getBody().readString(StandardCharsets.UTF_8));

    RecordedRequest weak = server.takeRequest();
    assertEquals("default", weak.getHeader("Priority"));
    assertTrue(MimeUtility.decodeText(weak.getHeader("Title")).contains("unconfirmed"));
  }

  @Test
  public void slackGetsMrkdwnText() throws Exception {
    server.enqueue(new MockResponse().setBody("ok"));
    assertTrue(
        await(new SlackSender(client).send(channel("slack", "/services/T/B/x"), Alerts.confirmed()))
            .ok());
    JsonNode body = json(server.takeRequest());
    assertEquals(AlertFormat.slackMrkdwn(Alerts.confirmed()), body.get("text").asText());
  }

  @Test
  public void discordGetsContentWithinItsLimitAndNoMentions() throws Exception {
    server.enqueue(new MockResponse().setResponseCode(204));
    Alert alert = Alerts.withEvidence(100);
    assertTrue(
        await(new DiscordSender(client).send(channel("discord", "/api/webhooks/1/x"), alert)).ok());
    JsonNode body = json(server.takeRequest());
    String content = body.get("content").asText();
    assertTrue(content.startsWith("🔔 **Acme launch** — condition met (90%)"));
    assertTrue(content.length() <= 2000);
    assertTrue(body.at("/allowed_mentions/parse").isArray());
    assertEquals(0, body.at("/allowed_mentions/parse").size());
  }
}
