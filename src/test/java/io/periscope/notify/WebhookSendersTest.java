package io.periscope.notify;

import static io.periscope.testing.Waits.await;
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
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import okhttp3.OkHttpClient;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

/**
 * Webhook, ntfy, Slack, Discord, Gotify, Matrix, Pushover and Apprise channels against receivers on
 * loopback: the wire request each one makes.
 */
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
    assertEquals(
        "weak",
        Json.parse(WebhookSender.payload(Alerts.weak(), Alerts.weak().id()))
            .get("strength")
            .asText());
  }

  /** The body's bytes are what the service's mapper wrote of the payload as a JSON tree. */
  @Test
  public void aWebhooksBodyIsTheDocumentedJsonByteForByte() throws Exception {
    Alert odd =
        new Alert(
            "bob",
            "w\u00e9",
            "Caf\u00e9 \u201cquotes\u201d \ud83d\ude80",
            Alert.Strength.NOTICE,
            1.0 / 3,
            "line one\nline \"two\"\t\\ </script> \u0001",
            List.of(),
            "",
            Instant.parse("2026-11-28T09:00:00.123456789Z"),
            "run-odd");
    Map<Alert, String> written =
        Map.of(
            Alerts.confirmed(),
            "{\"type\":\"periscope.alert\",\"id\":\"alert_CC8FvfEerQnnAWsvi3KniE\",\"owner\":\"alice\",\"watchId\":\"acme-launch\",\"watchName\":\"Acme"
                + " launch\",\"strength\":\"confirmed\",\"confidence\":0.92,\"summary\":\"Acme set"
                + " the launch date for <May 3> & said so.\",\"evidence\":[{\"title\":\"Acme sets"
                + " launch date\","
                + "\"url\":\"https://news.example.com/acme?id=1&ref=feed\"}],\"condition\":\"Acme"
                + " announces a launch date\",\"at\":\"2025-05-01T12:00:00Z\"}",
            odd,
            "{\"type\":\"periscope.notice\",\"id\":\"alert_vbEluu45zBHLj3ti3l8GJP\",\"owner\":\"bob\",\"watchId\":\"w\u00e9\",\"watchName\":\"Caf\u00e9"
                + " \u201cquotes\u201d \\uD83D\\uDE80\","
                + "\"strength\":\"notice\",\"confidence\":0.3333333333333333,\"summary\":\"line"
                + " one\\n"
                + "line \\\"two\\\"\\t\\\\ </script> \\u0001\","
                + "\"evidence\":[],\"condition\":\"\",\"at\":\"2026-11-28T09:00:00.123456789Z\"}");
    for (Map.Entry<Alert, String> alert : written.entrySet())
      assertEquals(
          alert.getValue(),
          new String(
              WebhookSender.payload(alert.getKey(), alert.getKey().id()), StandardCharsets.UTF_8));
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
        (owner, url) -> {
          askedFor.add(owner + " " + url);
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
    assertEquals(
        "the secret of the owner's endpoint",
        List.of("alice " + channel.target(), "alice " + channel.target()),
        askedFor);
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
        (owner, url) -> CompletableFuture.failedFuture(new IllegalStateException("cannot decrypt"));
    Delivery delivery =
        await(
            new WebhookSender(client, broken, Clock.systemUTC())
                .send(channel("webhook", "/hook"), Alerts.confirmed()));
    assertFalse(delivery.ok());
    assertEquals("not sent: the webhook signing secret could not be read", delivery.error());
    assertFalse("no key decrypts it: trying again fails the same way", delivery.retryable());
    assertEquals(0, server.getRequestCount());
  }

  @Test
  public void aSecretWhoseAskTimedOutIsTriedAgain() throws Exception {
    WebhookSecrets away =
        (owner, url) -> CompletableFuture.failedFuture(new java.util.concurrent.TimeoutException());
    Delivery delivery =
        await(
            new WebhookSender(client, away, Clock.systemUTC())
                .send(channel("webhook", "/hook"), Alerts.confirmed()));
    assertFalse(delivery.ok());
    assertTrue("its entity may answer later", delivery.retryable());
    assertEquals(0, server.getRequestCount());
  }

  @Test
  public void aWebhookAnsweringAnErrorIsAFailedDelivery() throws Exception {
    server.enqueue(new MockResponse().setResponseCode(500));
    Delivery delivery = await(unsigned().send(channel("webhook", "/hook/x"), Alerts.confirmed()));
    assertFalse(delivery.ok());
    assertEquals("HTTP 500", delivery.error());
    assertTrue("a 5xx may pass", delivery.retryable());
  }

  @Test
  public void failuresSayWhetherTheyMayPassAndHowLongTheReceiverAskedToWait() throws Exception {
    server.enqueue(new MockResponse().setResponseCode(429).setHeader("Retry-After", "120"));
    server.enqueue(new MockResponse().setResponseCode(404));
    server.enqueue(new MockResponse().setResponseCode(408));
    WebhookSender sender = unsigned();

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

  /** The channel with a credential in the server URL's user part, as an owner writes it. */
  private ChannelId withCredential(String kind, String credential, String path) {
    okhttp3.HttpUrl url = server.url(path);
    return ChannelId.parse(
            kind
                + ":http://"
                + credential
                + "@"
                + url.host()
                + ":"
                + url.port()
                + url.encodedPath())
        .orElseThrow();
  }

  @Test
  public void ntfySendsAnAccessTokenAsBearerAndUserAndPasswordAsBasicNeverInTheUrl()
      throws Exception {
    server.enqueue(new MockResponse().setBody("{}"));
    server.enqueue(new MockResponse().setBody("{}"));
    NtfySender ntfy = new NtfySender(client);
    assertTrue(await(ntfy.send(withCredential("ntfy", "tk_secret1", "/t"), Alerts.weak())).ok());
    assertTrue(await(ntfy.send(withCredential("ntfy", "me:pa%40ss", "/t"), Alerts.weak())).ok());

    RecordedRequest token = server.takeRequest();
    assertEquals("/t", token.getPath());
    assertEquals("Bearer tk_secret1", token.getHeader("Authorization"));
    assertFalse(token.getRequestUrl().toString().contains("tk_secret1"));
    assertEquals(
        okhttp3.Credentials.basic("me", "pa@ss"), server.takeRequest().getHeader("Authorization"));
  }

  @Test
  public void gotifyGetsItsMessageWithTheApplicationTokenInItsHeader() throws Exception {
    server.enqueue(new MockResponse().setBody("{\"id\": 1}"));
    Delivery delivery =
        await(
            new GotifySender(client)
                .send(withCredential("gotify", "AppToken.1", "/gotify/"), Alerts.confirmed()));
    assertTrue(delivery.error(), delivery.ok());
    RecordedRequest request = server.takeRequest();
    assertEquals("POST", request.getMethod());
    assertEquals("/gotify/message", request.getPath());
    assertEquals("AppToken.1", request.getHeader("X-Gotify-Key"));
    JsonNode body = json(request);
    assertEquals(AlertFormat.headline(Alerts.confirmed()), body.get("title").asText());
    assertEquals(AlertFormat.plainBody(Alerts.confirmed()), body.get("message").asText());
    assertEquals(8, body.get("priority").asInt());
    assertEquals("text/plain", body.at("/extras/client::display/contentType").asText());
    assertEquals(
        "https://news.example.com/acme?id=1&ref=feed",
        body.at("/extras/client::notification/click/url").asText());
  }

  @Test
  public void matrixPutsAnMTextIntoTheRoomWithTheAlertIdAsTransactionId() throws Exception {
    server.enqueue(new MockResponse().setBody("{\"event_id\": \"$e\"}"));
    server.enqueue(
        new MockResponse().setResponseCode(401).setBody("{\"errcode\":\"M_UNKNOWN_TOKEN\"}"));
    ChannelId room = withCredential("matrix", "syt_secret", "/!abc:example.org");
    MatrixSender matrix = new MatrixSender(client);
    assertTrue(await(matrix.send(room, Alerts.confirmed())).ok());
    Delivery refused = await(matrix.send(room, Alerts.confirmed()));

    RecordedRequest request = server.takeRequest();
    assertEquals("PUT", request.getMethod());
    assertEquals(
        "/_matrix/client/v3/rooms/!abc:example.org/send/m.room.message/" + Alerts.confirmed().id(),
        request.getPath());
    assertEquals("Bearer syt_secret", request.getHeader("Authorization"));
    JsonNode body = json(request);
    assertEquals("m.text", body.get("msgtype").asText());
    assertEquals(AlertFormat.plainText(Alerts.confirmed()), body.get("body").asText());
    assertEquals("org.matrix.custom.html", body.get("format").asText());
    assertTrue(body.get("formatted_body").asText().contains("&lt;May 3&gt;"));
    assertFalse(body.get("formatted_body").asText().contains("\n"));
    assertEquals("HTTP 401", refused.error());
  }

  @Test
  public void pushoverGetsItsFormWithUserKeyAndApplicationToken() throws Exception {
    server.enqueue(new MockResponse().setBody("{\"status\":1}"));
    String user = "u".repeat(29) + "1";
    String app = "a".repeat(29) + "2";
    ChannelId channel = ChannelId.parse("pushover:" + user + "@" + app).orElseThrow();
    Delivery delivery =
        await(
            new PushoverSender(client, server.url("/").toString())
                .send(channel, Alerts.withEvidence(200)));
    assertTrue(delivery.error(), delivery.ok());
    RecordedRequest request = server.takeRequest();
    assertEquals("/1/messages.json", request.getPath());
    Map<String, String> form = new java.util.HashMap<>();
    for (String pair : request.getBody().readUtf8().split("&")) {
      String[] kv = pair.split("=", 2);
      form.put(kv[0], java.net.URLDecoder.decode(kv[1], StandardCharsets.UTF_8));
    }
    assertEquals(app, form.get("token"));
    assertEquals(user, form.get("user"));
    assertEquals(AlertFormat.headline(Alerts.withEvidence(200)), form.get("title"));
    assertTrue(form.get("message").length() <= 1024);
    assertEquals("https://news.example.com/articles/0?a=1&b=2", form.get("url"));
    assertEquals("0", form.get("priority"));
  }

  @Test
  public void appriseGetsTitleBodyAndType() throws Exception {
    server.enqueue(new MockResponse().setBody("ok"));
    assertTrue(
        await(
                new AppriseSender(client)
                    .send(channel("apprise", "/notify/periscope"), Alerts.weak()))
            .ok());
    RecordedRequest request = server.takeRequest();
    assertEquals("/notify/periscope", request.getPath());
    JsonNode body = json(request);
    assertEquals(AlertFormat.headline(Alerts.weak()), body.get("title").asText());
    assertEquals(AlertFormat.plainBody(Alerts.weak()), body.get("body").asText());
    assertEquals("info", body.get("type").asText());
    assertEquals("text", body.get("format").asText());
  }

  @Test
  public void anUnreachableChannelNeverNamesItsCredential() throws Exception {
    ChannelId room = withCredential("matrix", "syt_hidden", "/!abc:example.org");
    ChannelId gotify = withCredential("gotify", "hidden.token", "/");
    server.shutdown();
    for (Delivery d :
        List.of(
            await(new MatrixSender(client).send(room, Alerts.confirmed())),
            await(new GotifySender(client).send(gotify, Alerts.confirmed())))) {
      assertFalse(d.ok());
      assertFalse(d.error(), d.error().contains("hidden"));
    }
  }
}
