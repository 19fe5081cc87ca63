package io.periscope.notify;

import static io.periscope.testing.TestTelegram.TOKEN;
import static io.periscope.testing.TestTelegram.settings;
import static io.periscope.testing.Waits.await;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

/** The Telegram channel against a Bot API on loopback. */
public class TelegramSenderTest {
  private static final String OK = "{\"ok\":true,\"result\":{\"message_id\":1}}";

  private MockWebServer server;
  private TelegramSender sender;

  @Before
  public void start() throws Exception {
    server = new MockWebServer();
    server.start();
    sender = new TelegramSender(new OkHttpClient(), settings(server, "1001", ""));
  }

  @After
  public void stop() throws Exception {
    server.shutdown();
  }

  private JsonNode body(RecordedRequest request) throws Exception {
    return Json.parse(request.getBody().readByteArray());
  }

  @Test
  public void theBareChannelGoesToTheConfiguredChatAsHtml() throws Exception {
    server.enqueue(new MockResponse().setBody(OK));
    Delivery delivery =
        await(sender.send(ChannelId.parse("telegram").orElseThrow(), Alerts.confirmed()));
    assertEquals(Delivery.delivered("telegram"), delivery);
    RecordedRequest request = server.takeRequest();
    assertEquals("POST", request.getMethod());
    assertEquals("/bot" + TOKEN + "/sendMessage", request.getPath());
    JsonNode body = body(request);
    assertEquals("1001", body.get("chat_id").asText());
    assertEquals("HTML", body.get("parse_mode").asText());
    assertTrue(body.get("disable_web_page_preview").asBoolean());
    assertEquals(AlertFormat.telegramHtml(Alerts.confirmed()), body.get("text").asText());
  }

  @Test
  public void aChatChannelGoesToThatChat() throws Exception {
    server.enqueue(new MockResponse().setBody(OK));
    Delivery delivery =
        await(sender.send(ChannelId.parse("telegram:-100200300").orElseThrow(), Alerts.weak()));
    assertTrue(delivery.ok());
    assertEquals("telegram:-100200300", delivery.channel());
    assertEquals("-100200300", body(server.takeRequest()).get("chat_id").asText());
  }

  @Test
  public void aLongAlertIsSentAsSeveralMessagesOfAtMost4096Characters() throws Exception {
    Alert alert = Alerts.withEvidence(80);
    String html = AlertFormat.telegramHtml(alert);
    assertTrue(html.length() > 2 * 4096);
    for (int i = 0; i < 5; i++) server.enqueue(new MockResponse().setBody(OK));

    assertTrue(await(sender.send(ChannelId.parse("telegram").orElseThrow(), alert)).ok());

    List<String> texts = new ArrayList<>();
    RecordedRequest request;
    while ((request = server.takeRequest(200, TimeUnit.MILLISECONDS)) != null) {
      texts.add(body(request).get("text").asText());
    }
    assertEquals(3, texts.size());
    for (String text : texts) assertTrue(text.length() <= 4096);
    assertEquals(
        "the parts, in order, are the whole message cut between lines",
        html,
        String.join("\n", texts));
  }

  @Test
  public void aRateLimitIsWaitedOutAsRetryAfterSays() throws Exception {
    server.enqueue(
        new MockResponse()
            .setResponseCode(429)
            .setBody(
                "{\"ok\":false,\"error_code\":429,\"description\":\"Too Many Requests: retry after"
                    + " 1\",\"parameters\":{\"retry_after\":1}}"));
    server.enqueue(new MockResponse().setBody(OK));
    long started = System.nanoTime();

    Delivery delivery =
        await(sender.send(ChannelId.parse("telegram").orElseThrow(), Alerts.confirmed()));

    long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    assertTrue(delivery.error(), delivery.ok());
    assertEquals(2, server.getRequestCount());
    assertTrue("waited " + elapsedMillis + " ms", elapsedMillis >= 950);
    server.takeRequest();
    assertEquals(
        body(server.takeRequest()).get("text").asText(),
        AlertFormat.telegramHtml(Alerts.confirmed()));
  }

  @Test
  public void aRateLimitLongerThanTheBoundFailsWithoutWaiting() throws Exception {
    server.enqueue(
        new MockResponse()
            .setResponseCode(429)
            .setBody("{\"ok\":false,\"error_code\":429,\"parameters\":{\"retry_after\":3600}}"));
    long started = System.nanoTime();

    Delivery delivery =
        await(sender.send(ChannelId.parse("telegram").orElseThrow(), Alerts.confirmed()));

    assertFalse(delivery.ok());
    assertEquals("rate limited by Telegram (retry after 3600 s)", delivery.error());
    assertTrue("tried again later, as Telegram asked", delivery.retryable());
    assertEquals(java.time.Duration.ofHours(1), delivery.retryAfter());
    assertEquals(1, server.getRequestCount());
    assertTrue(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started) < 5);
  }

  @Test
  public void retriesAreBounded() throws Exception {
    for (int i = 0; i < 4; i++) {
      server.enqueue(
          new MockResponse()
              .setResponseCode(429)
              .setBody("{\"ok\":false,\"error_code\":429,\"parameters\":{\"retry_after\":0}}"));
    }
    Delivery delivery =
        await(sender.send(ChannelId.parse("telegram").orElseThrow(), Alerts.confirmed()));
    assertFalse(delivery.ok());
    assertEquals(1 + TelegramSender.MAX_RETRIES, server.getRequestCount());
  }

  @Test
  public void aRejectedTokenFailsWithoutNamingTheToken() throws Exception {
    server.enqueue(
        new MockResponse()
            .setResponseCode(401)
            .setBody("{\"ok\":false,\"error_code\":401,\"description\":\"Unauthorized\"}"));
    Delivery delivery =
        await(sender.send(ChannelId.parse("telegram").orElseThrow(), Alerts.confirmed()));
    assertFalse(delivery.ok());
    assertEquals("Telegram answered 401: Unauthorized", delivery.error());
    assertFalse("a rejected token is permanent", delivery.retryable());
    assertFalse(delivery.error().contains(TOKEN));
  }

  @Test
  public void anUnreachableApiFailsWithoutNamingTheToken() throws Exception {
    server.shutdown(); // its port now refuses connections
    Delivery delivery =
        await(sender.send(ChannelId.parse("telegram").orElseThrow(), Alerts.confirmed()));
    assertFalse(delivery.ok());
    assertTrue("no connection may pass", delivery.retryable());
    assertFalse(delivery.error(), delivery.error().contains(TOKEN));
    assertFalse(delivery.error(), delivery.error().contains("secret-bot-token"));
  }

  @Test
  public void withoutAChatTheBareChannelFails() throws Exception {
    TelegramSender noChat = new TelegramSender(new OkHttpClient(), settings(server, "", ""));
    Delivery delivery =
        await(noChat.send(ChannelId.parse("telegram").orElseThrow(), Alerts.confirmed()));
    assertEquals(Delivery.failed("telegram", "TELEGRAM_CHAT_ID is not set"), delivery);
    assertEquals(0, server.getRequestCount());
  }

  @Test
  public void settingsNeverPrintTheToken() {
    assertFalse(settings(server, "1", "2").toString().contains(TOKEN));
  }
}
