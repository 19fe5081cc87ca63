package io.periscope.notify;

import static io.periscope.notify.TelegramSenderTest.await;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.json.Json;
import io.periscope.testing.MutableClock;
import io.periscope.testing.StandardWebhooksReceiver;
import jakarta.mail.internet.MimeUtility;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
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

    Delivery delivery = await(unsigned().send(channel, Alerts.confirmed()));

    assertEquals(Delivery.delivered(channel.id()), delivery);
    RecordedRequest request = server.takeRequest();
    assertEquals("/hook/alice", request.getPath());
    assertTrue(request.getHeader("Content-Type").startsWith("application/json"));
    JsonNode body = json(request);
    assertEquals("periscope.alert", body.get("type").asText());
    assertEquals(Alerts.confirmed().id(), body.get("id").asText());
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

  private static final Instant NOW = Instant.parse("2026-11-25T18:00:00Z");

  private WebhookSender unsigned() {
    return new WebhookSender(client, WebhookSecrets.NONE, Clock.fixed(NOW, ZoneOffset.UTC));
  }

  @Test
  public void anUnsignedWebhookCarriesTheAlertsIdAndTheAttemptsTime() throws Exception {
    server.enqueue(new MockResponse().setResponseCode(204));
    await(unsigned().send(channel("webhook", "/hook"), Alerts.confirmed()));
    RecordedRequest request = server.takeRequest();
    assertTrue(request.getHeader("webhook-id").matches("alert_[A-Za-z0-9_-]{22}"));
    assertEquals(Long.toString(NOW.getEpochSecond()), request.getHeader("webhook-timestamp"));
    assertNull(request.getHeader("webhook-signature"));
  }

  @Test
  public void aSignedWebhookVerifiesUnderTheOwnersSecretAndKeepsItsIdOnEveryAttempt()
      throws Exception {
    server.enqueue(new MockResponse().setResponseCode(503));
    server.enqueue(new MockResponse().setResponseCode(204));
    String secret = WebhookSignature.newSecret();
    List<String> askedFor = new ArrayList<>();
    WebhookSecrets secrets =
        owner -> {
          askedFor.add(owner);
          return CompletableFuture.completedFuture(Optional.of(secret));
        };
    MutableClock clock = new MutableClock(NOW);
    WebhookSender sender = new WebhookSender(client, secrets, clock);
    ChannelId channel = channel("webhook", "/signed");

    assertFalse(await(sender.send(channel, Alerts.confirmed())).ok());
    clock.set(NOW.plus(Duration.ofSeconds(90)));
    assertTrue(await(sender.send(channel, Alerts.confirmed())).ok());

    RecordedRequest first = server.takeRequest();
    RecordedRequest retry = server.takeRequest();
    assertEquals(List.of("alice", "alice"), askedFor);
    assertEquals(first.getHeader("webhook-id"), retry.getHeader("webhook-id"));
    assertEquals(Long.toString(NOW.getEpochSecond()), first.getHeader("webhook-timestamp"));
    assertEquals(Long.toString(NOW.getEpochSecond() + 90), retry.getHeader("webhook-timestamp"));
    for (RecordedRequest r : List.of(first, retry)) {
      byte[] body = r.getBody().readByteArray();
      assertTrue(StandardWebhooksReceiver.verifies(secret, r, body));
      assertFalse(StandardWebhooksReceiver.verifies(WebhookSignature.newSecret(), r, body));
      byte[] tampered = Arrays.copyOf(body, body.length);
      tampered[tampered.length - 2] ^= 1;
      assertFalse(StandardWebhooksReceiver.verifies(secret, r, tampered));
    }
    // another run's alert is another message
    assertNotEquals(
        Alerts.confirmed().id(),
        new Alert(
                "alice",
                "acme-launch",
                "Acme launch",
                Alert.Strength.CONFIRMED,
                0.92,
                "",
                List.of(),
                "",
                Alerts.AT,
                "another-run")
            .id());
  }

  @Test
  public void aSecretThatCannotBeReadSendsNothing() throws Exception {
    WebhookSecrets broken =
        owner -> CompletableFuture.failedFuture(new IllegalStateException("cannot decrypt"));
    Delivery delivery =
        await(
            new WebhookSender(client, broken, Clock.systemUTC())
                .send(channel("webhook", "/hook"), Alerts.confirmed()));
    assertFalse(delivery.ok());
    assertEquals("not sent: the webhook signing secret could not be read", delivery.error());
    assertEquals(0, server.getRequestCount());
  }

  @Test
  public void aWebhookAnsweringAnErrorIsAFailedDelivery() throws Exception {
    server.enqueue(new MockResponse().setResponseCode(500));
    Delivery delivery = await(unsigned().send(channel("webhook", "/hook/x"), Alerts.confirmed()));
    assertFalse(delivery.ok());
    assertEquals("HTTP 500", delivery.error());
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
    assertEquals(Alerts.confirmed().id(), confirmed.getHeader("X-Sequence-ID"));
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
