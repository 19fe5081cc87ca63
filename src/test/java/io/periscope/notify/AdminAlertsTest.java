package io.periscope.notify;

import static io.periscope.testing.Waits.await;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.json.Json;
import io.periscope.testing.TestTelegram;
import java.util.List;
import okhttp3.OkHttpClient;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

/** Operational alerts against a Bot API on loopback. */
public class AdminAlertsTest {
  private MockWebServer telegramApi;

  @Before
  public void start() throws Exception {
    telegramApi = new MockWebServer();
    telegramApi.start();
  }

  @After
  public void stop() throws Exception {
    telegramApi.shutdown();
  }

  private AdminAlerts alerts(String chat, String adminChat) {
    return new AdminAlerts(
        new TelegramSender(
            new OkHttpClient(), TestTelegram.settings(telegramApi, chat, adminChat)));
  }

  private JsonNode sent() throws Exception {
    RecordedRequest request = telegramApi.takeRequest();
    return Json.parse(request.getBody().readByteArray());
  }

  @Test
  public void anAlertGoesToTheAdminChatMarkedWithAWarningSign() throws Exception {
    telegramApi.enqueue(new MockResponse().setBody("{\"ok\":true,\"result\":{}}"));

    await(
        alerts("1001", "2002")
            .alert(
                AdminAlerts.Kind.ALL_SOURCES_FAILED,
                "alice",
                "acme-launch",
                "2 of 2 sources failed: <feed> answered 404"));

    JsonNode body = sent();
    assertEquals("2002", body.get("chat_id").asText());
    assertEquals("HTML", body.get("parse_mode").asText());
    assertEquals(
        "⚠️ <b>Periscope: all-sources-failed</b>\n"
            + "<code>alice/acme-launch</code>: 2 of 2 sources failed: &lt;feed&gt; answered 404",
        body.get("text").asText());
  }

  @Test
  public void withoutAnAdminChatItGoesToTheNormalChat() throws Exception {
    telegramApi.enqueue(new MockResponse().setBody("{\"ok\":true,\"result\":{}}"));

    await(
        alerts("1001", "")
            .alert(AdminAlerts.Kind.SCHEDULER_TICK_CRASHED, "IllegalStateException: boom"));

    JsonNode body = sent();
    assertEquals("1001", body.get("chat_id").asText());
    assertTrue(body.get("text").asText().startsWith("\u26a0"));
    assertTrue(body.get("text").asText().contains("scheduler-tick-crashed"));
  }

  @Test
  public void aFailingTelegramCompletesNormally() throws Exception {
    telegramApi.enqueue(new MockResponse().setResponseCode(500).setBody("{\"ok\":false}"));
    assertNull(
        await(alerts("1001", "2002").alert(AdminAlerts.Kind.WATCH_ERRORED, "alice", "w", "boom")));
    assertEquals(1, telegramApi.getRequestCount());

    telegramApi.shutdown();
    assertNull(
        await(
            alerts("1001", "2002")
                .alert(AdminAlerts.Kind.VERDICT_UNAVAILABLE, "alice", "w", "bad JSON")));
  }

  @Test
  public void withoutTelegramTheAlertIsOnlyLogged() throws Exception {
    AdminAlerts unconfigured =
        new AdminAlerts(
            new TelegramSender(
                new OkHttpClient(),
                new TelegramSettings(telegramApi.url("/").toString(), "", "", "")));
    assertNull(
        await(unconfigured.alert(AdminAlerts.Kind.SCHEDULED_RUN_CRASHED, "alice", "w", "boom")));
    assertEquals(0, telegramApi.getRequestCount());
  }

  @Test
  public void adminChannelsTakeTheAlertToAWebhookAndAnNtfyTopicInsteadOfTelegram()
      throws Exception {
    try (MockWebServer hook = new MockWebServer();
        MockWebServer ntfy = new MockWebServer()) {
      hook.enqueue(new MockResponse().setResponseCode(204));
      ntfy.enqueue(new MockResponse().setResponseCode(200));
      hook.start();
      ntfy.start();
      com.typesafe.config.Config config =
          withAdminChannels(
              "webhook:" + hook.url("/ops") + ", ntfy:" + ntfy.url("/periscope-ops"), "2002");

      await(
          AdminAlerts.create(config, new OkHttpClient())
              .alert(
                  AdminAlerts.Kind.DELIVERY_FAILED,
                  "alice",
                  "acme-launch",
                  "the alert of run r1 to a webhook channel was not delivered: HTTP 410"));

      JsonNode payload =
          Json.parse(
              hook.takeRequest(5, java.util.concurrent.TimeUnit.SECONDS).getBody().readByteArray());
      assertEquals("periscope.notice", payload.get("type").asText());
      assertEquals(
          "delivery-failed\nalice/acme-launch: the alert of run r1 to a webhook channel was not"
              + " delivered: HTTP 410",
          payload.get("summary").asText());
      RecordedRequest topic = ntfy.takeRequest(5, java.util.concurrent.TimeUnit.SECONDS);
      assertEquals("/periscope-ops", topic.getPath());
      String title = topic.getHeader("Title"); // RFC 2047, as ntfy reads non-ASCII headers
      assertEquals(
          "⚠️ Periscope: delivery-failed",
          new String(
              java.util.Base64.getDecoder()
                  .decode(title.substring("=?UTF-8?B?".length(), title.length() - 2)),
              java.nio.charset.StandardCharsets.UTF_8));
      assertTrue(topic.getBody().readUtf8().startsWith("alice/acme-launch: the alert of run r1"));
      assertEquals("the admin chat is not used", 0, telegramApi.getRequestCount());
    }
  }

  @Test
  public void aDeadAdminChannelNeitherFailsTheAlertNorKeepsItFromTheOthers() throws Exception {
    try (MockWebServer hook = new MockWebServer()) {
      hook.enqueue(new MockResponse().setResponseCode(204));
      hook.start();
      telegramApi.enqueue(new MockResponse().setResponseCode(500).setBody("{\"ok\":false}"));
      com.typesafe.config.Config config =
          withAdminChannels("telegram:555 webhook:" + hook.url("/ops"), "");

      assertNull(
          await(
              AdminAlerts.create(config, new OkHttpClient())
                  .alert(AdminAlerts.Kind.SCHEDULER_TICK_CRASHED, "IllegalStateException: boom")));
      RecordedRequest toChat = telegramApi.takeRequest(5, java.util.concurrent.TimeUnit.SECONDS);
      assertEquals("555", Json.parse(toChat.getBody().readByteArray()).get("chat_id").asText());
      JsonNode payload =
          Json.parse(
              hook.takeRequest(5, java.util.concurrent.TimeUnit.SECONDS).getBody().readByteArray());
      assertEquals(
          "scheduler-tick-crashed\nIllegalStateException: boom", payload.get("summary").asText());
    }
  }

  /** The embedded profile with {@code ADMIN_CHANNELS} and the Telegram bot on loopback. */
  private com.typesafe.config.Config withAdminChannels(String channels, String adminChat) {
    return io.periscope.config.Profiles.load(
        "embedded",
        com.typesafe.config.ConfigFactory.parseMap(
            java.util.Map.of(
                "ADMIN_CHANNELS",
                channels,
                "TELEGRAM_API_BASE_URL",
                telegramApi.url("/").toString(),
                "TELEGRAM_BOT_TOKEN",
                "123:abc",
                "TELEGRAM_ADMIN_CHAT_ID",
                adminChat)));
  }

  private static com.typesafe.config.Config withAdminChannels(String value) {
    return io.periscope.config.Profiles.load(
        "embedded",
        com.typesafe.config.ConfigFactory.parseMap(java.util.Map.of("ADMIN_CHANNELS", value)));
  }

  @Test
  public void adminChannelsAreAListInTheChannelGrammarAndABadOneStopsTheStart() {
    assertEquals(
        List.of(),
        AdminAlerts.channels(
            io.periscope.config.Profiles.load(
                "embedded", com.typesafe.config.ConfigFactory.parseMap(java.util.Map.of()))));
    assertEquals(
        List.of(
            "webhook:https://ops.example.org/hook",
            "ntfy:https://ntfy.example.org/ops",
            "telegram"),
        AdminAlerts.channels(
            withAdminChannels(
                " webhook:https://ops.example.org/hook,ntfy:https://ntfy.example.org/ops"
                    + "  telegram, telegram")));
    for (String bad :
        List.of(
            "webhook:ftp://ops.example.org",
            "push",
            "telegram, gotify:https://x.org/?token=s3cret")) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> AdminAlerts.create(withAdminChannels(bad), new okhttp3.OkHttpClient()));
      assertTrue(e.getMessage(), e.getMessage().startsWith("ADMIN_CHANNELS: entry "));
      assertFalse("no part of a value in the message", e.getMessage().contains("s3cret"));
    }
  }
}
