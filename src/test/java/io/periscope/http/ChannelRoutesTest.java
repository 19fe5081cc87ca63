package io.periscope.http;

import static io.periscope.testing.InProcessService.json;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import io.periscope.json.Json;
import io.periscope.testing.ApiClient;
import io.periscope.testing.FakeUpstream;
import io.periscope.testing.InProcessService;
import io.periscope.testing.Mailbox;
import io.periscope.testing.StandardWebhooksReceiver;
import io.periscope.testing.TestJournals;
import io.periscope.testing.TestWatches;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Channels reach only what their owner may reach: the operator's Telegram chats are for
 * administrators and the chats they open, {@code email:} is for the account's verified address and
 * addresses their mailboxes confirmed; a watch naming anything else is refused, and a permission
 * taken back refuses the deliveries it covered (recorded on the run) while the other channels go
 * on.
 */
public class ChannelRoutesTest {
  static FakeUpstream upstream;
  static Mailbox mailbox;
  static InProcessService service;
  static String root;
  static String alice;
  static String bob;

  @BeforeClass
  public static void start() throws Exception {
    upstream = new FakeUpstream(Duration.ZERO, Duration.ZERO, true, 1);
    mailbox = new Mailbox();
    service =
        new InProcessService(
            mailbox
                .smtpConfig()
                .withFallback(
                    ConfigFactory.parseMap(
                        Map.of(
                            "periscope.fetch.allow-private-networks",
                            true,
                            "periscope.model.base-url",
                            upstream.base() + "/v1",
                            "periscope.model.api-keys",
                            "sk-channels-test-0001",
                            "periscope.rate-limits.auth-per-ip-per-minute",
                            1000,
                            "periscope.telegram.chat-open",
                            false)))
                .withFallback(TestJournals.h2()));
    root = service.signedIn("root", "admin");
    alice = service.signedIn("alice", "user");
    bob = service.signedIn("bob", "user");
  }

  @AfterClass
  public static void stop() throws Exception {
    service.close();
    mailbox.close();
    upstream.close();
  }

  static String watch(String id, String... channels) {
    return TestWatches.body(id)
        .name("Acme")
        .condition("Acme sets a date")
        .feed(upstream.feedUrl(id))
        .threshold(0.5)
        .channels(List.of(channels))
        .json();
  }

  static void refused(HttpResponse<String> r, int index) throws Exception {
    JsonNode body = json(r, 400);
    assertEquals(
        body.toString(), "[\"channels\"," + index + "]", body.at("/issues/0/path").toString());
  }

  @Test
  public void theOperatorsChatsAreForAdministratorsAndTheChatsTheyOpen() throws Exception {
    refused(
        service.call(
            "POST", "/watches", alice, watch("tg-1", "webhook:http://x.example/h", "telegram")),
        1);
    refused(service.call("POST", "/watches", alice, watch("tg-2", "telegram:-100123")), 0);
    json(
        service.call("POST", "/watches", root, watch("tg-3", "telegram", "telegram:-100123")), 201);
    ApiClient.error(
        service.call("PUT", "/admin/telegram-chats/default", alice, "{\"everyone\": true}"), 403);

    JsonNode opened =
        json(
            service.call("PUT", "/admin/telegram-chats/default", root, "{\"everyone\": true}"),
            200);
    assertTrue(opened.get("everyone").asBoolean());
    json(service.call("POST", "/watches", alice, watch("tg-4", "telegram")), 201);
    json(
        service.call("PUT", "/admin/telegram-chats/-100123", root, "{\"owners\": [\"bob\"]}"), 200);
    refused(service.call("POST", "/watches", alice, watch("tg-5", "telegram:-100123")), 0);
    json(service.call("POST", "/watches", bob, watch("tg-5", "telegram:-100123")), 201);
    JsonNode chats = json(service.call("GET", "/admin/telegram-chats", root, null), 200);
    assertEquals(2, chats.get("chats").size());

    json(service.call("DELETE", "/admin/telegram-chats/default", root, null), 204);
    ApiClient.error(service.call("DELETE", "/admin/telegram-chats/default", root, null), 404);
    refused(service.call("PUT", "/watches/tg-4", alice, watch("tg-4", "telegram")), 0);
    ApiClient.error(
        service.call("PUT", "/admin/telegram-chats/not-a-chat", root, "{\"everyone\": true}"), 404);
    ApiClient.error(service.call("PUT", "/admin/telegram-chats/-1", root, "{}"), 400);
  }

  @Test
  public void emailGoesToTheOwnVerifiedAddressOrOnesTheirMailboxesConfirmed() throws Exception {
    String carol = service.signedIn("carol", "user");
    json(service.call("POST", "/watches", carol, watch("mail-1", "email:Carol@Example.org")), 201);
    refused(service.call("POST", "/watches", carol, watch("mail-2", "email:team@example.org")), 0);

    HttpResponse<String> asked =
        service.call(
            "POST", "/channels/email-addresses", carol, "{\"address\": \"team@example.org\"}");
    assertEquals(asked.body(), 202, asked.statusCode());
    Mailbox.Received mail = mailbox.await("team@example.org", 1);
    assertTrue(mail.text(), mail.text().contains("\"carol\""));
    service.call("POST", "/channels/email-addresses", carol, "{\"address\": \"team@example.org\"}");
    Thread.sleep(500);
    assertEquals(
        "an address gets a mail a minute at most", 1, mailbox.to("team@example.org").size());
    refused(service.call("POST", "/watches", carol, watch("mail-2", "email:team@example.org")), 0);

    JsonNode confirmed =
        json(
            service.call(
                "POST",
                "/auth/confirm-email-channel",
                null,
                "{\"token\": \"" + mail.token() + "\"}"),
            200);
    assertEquals("team@example.org", confirmed.get("address").asText());
    JsonNode listed = json(service.call("GET", "/channels/email-addresses", carol, null), 200);
    assertEquals(
        "[{\"address\":\"team@example.org\",\"confirmed\":true}]",
        listed.get("addresses").toString());
    json(service.call("POST", "/watches", carol, watch("mail-2", "email:team@example.org")), 201);
    refused(service.call("POST", "/watches", alice, watch("mail-3", "email:team@example.org")), 0);
    ApiClient.error(
        service.call(
            "POST", "/auth/confirm-email-channel", null, "{\"token\": \"" + mail.token() + "\"}"),
        400);
  }

  @Test
  public void aPermissionTakenBackRefusesItsDeliveriesAndTheOtherChannelsGoOn() throws Exception {
    String dora = service.signedIn("dora", "user");
    service.call("POST", "/channels/email-addresses", dora, "{\"address\": \"desk@example.org\"}");
    String token = mailbox.await("desk@example.org", 1).token();
    json(
        service.call("POST", "/auth/confirm-email-channel", null, "{\"token\": \"" + token + "\"}"),
        200);
    String hook = "webhook:" + upstream.hookUrl("dora");
    json(
        service.call("POST", "/watches", dora, watch("dora-1", "email:desk@example.org", hook)),
        201);
    json(service.call("DELETE", "/channels/email-addresses/desk@example.org", dora, null), 204);

    JsonNode run = json(service.call("POST", "/watches/dora-1/run", dora, null), 200).get("result");
    assertEquals(run.toString(), "alert", run.get("outcome").asText());
    JsonNode deliveries = run.get("deliveries");
    assertEquals(deliveries.toString(), 2, deliveries.size());
    assertFalse(deliveries.get(0).get("ok").asBoolean());
    assertTrue(deliveries.get(0).get("error").asText().startsWith("refused:"));
    assertTrue(deliveries.get(1).get("ok").asBoolean());
    assertEquals(1, run.get("notificationsSent").asInt());
    Thread.sleep(500);
    assertEquals(
        "only the confirmation reached the address", 1, mailbox.to("desk@example.org").size());
  }

  @Test
  public void aWebhookSecretIsShownOnceSignsTheOwnersWebhooksAndCanBeRotatedOrRemoved()
      throws Exception {
    String erin = service.signedIn("erin", "user");
    assertFalse(
        json(service.call("GET", "/channels/webhook-secret", erin, null), 200)
            .get("exists")
            .asBoolean());
    JsonNode made = json(service.call("POST", "/channels/webhook-secret", erin, null), 201);
    String secret = made.get("secret").asText();
    assertTrue(secret, secret.matches("whsec_[A-Za-z0-9+/]{43}="));
    HttpResponse<String> shown = service.call("GET", "/channels/webhook-secret", erin, null);
    JsonNode status = json(shown, 200);
    assertTrue(status.get("exists").asBoolean());
    assertEquals(made.get("createdAt"), status.get("createdAt"));
    assertFalse("shown only once", shown.body().contains(secret.substring(6, 20)));
    assertFalse(
        "another owner's",
        json(service.call("GET", "/channels/webhook-secret", bob, null), 200)
            .get("exists")
            .asBoolean());

    try (MockWebServer receiver = new MockWebServer()) {
      receiver.enqueue(new MockResponse().setResponseCode(204));
      receiver.start();
      json(
          service.call(
              "POST", "/watches", erin, watch("erin-1", "webhook:" + receiver.url("/erin"))),
          201);
      JsonNode run =
          json(service.call("POST", "/watches/erin-1/run", erin, null), 200).get("result");
      assertTrue(run.toString(), run.at("/deliveries/0/ok").asBoolean());
      RecordedRequest hook = receiver.takeRequest(5, TimeUnit.SECONDS);
      byte[] body = hook.getBody().readByteArray();
      assertTrue(StandardWebhooksReceiver.verifies(secret, hook, body));
      assertEquals(Json.parse(body).get("id").asText(), hook.getHeader("webhook-id"));
    }

    String rotated =
        json(service.call("POST", "/channels/webhook-secret", erin, null), 201)
            .get("secret")
            .asText();
    assertFalse(rotated.equals(secret));
    json(service.call("DELETE", "/channels/webhook-secret", erin, null), 204);
    ApiClient.error(service.call("DELETE", "/channels/webhook-secret", erin, null), 404);
    assertFalse(
        json(service.call("GET", "/channels/webhook-secret", erin, null), 200)
            .get("exists")
            .asBoolean());
  }

  @Test
  public void everyWebhookIsSignedWithItsEndpointsOwnSecretWhichOnlyAWatchesTokenReads()
      throws Exception {
    String fay = service.signedIn("fay", "user");
    try (MockWebServer receiver = new MockWebServer()) {
      for (int i = 0; i < 3; i++) receiver.enqueue(new MockResponse().setResponseCode(204));
      receiver.start();
      String first = receiver.url("/fay-1").toString();
      String second = receiver.url("/fay-2?token=fay-receiver-token").toString();
      String secondShown = receiver.url("/fay-2").toString() + "?••••";
      json(
          service.call(
              "POST", "/watches", fay, watch("fay-1", "webhook:" + first, "webhook:" + second)),
          201);
      // made when the watch was saved, before anything was sent
      JsonNode firstSecret = endpointSecret(fay, first, 200);
      JsonNode secondSecret = endpointSecret(fay, secondShown, 200);
      assertEquals(
          "the endpoint as answers show it", secondShown, secondSecret.get("url").asText());
      assertFalse(
          "each endpoint its own",
          firstSecret.get("secret").asText().equals(secondSecret.get("secret").asText()));
      JsonNode status = json(service.call("GET", "/channels/webhook-secret", fay, null), 200);
      assertFalse("no account secret", status.get("exists").asBoolean());
      assertEquals(2, status.get("endpoints").size());

      JsonNode run = json(service.call("POST", "/watches/fay-1/run", fay, null), 200).get("result");
      assertEquals(run.toString(), 2, run.get("notificationsSent").asInt());
      Map<String, String> secretOf =
          Map.of(
              "/fay-1", firstSecret.get("secret").asText(),
              "/fay-2?token=fay-receiver-token", secondSecret.get("secret").asText());
      for (int i = 0; i < 2; i++) {
        RecordedRequest hook = receiver.takeRequest(5, TimeUnit.SECONDS);
        assertTrue(
            hook.getPath(),
            StandardWebhooksReceiver.verifies(
                secretOf.get(hook.getPath()), hook, hook.getBody().readByteArray()));
      }

      // rotation: one endpoint's new secret signs its next delivery
      JsonNode rotated =
          json(
              service.call(
                  "POST",
                  "/channels/webhook-secret?url=" + java.net.URLEncoder.encode(first, UTF_8),
                  fay,
                  null),
              201);
      assertFalse(rotated.get("secret").asText().equals(firstSecret.get("secret").asText()));
      assertEquals(rotated.get("secret"), endpointSecret(fay, first, 200).get("secret"));
      json(
          service.call(
              "POST",
              "/channels/test",
              fay,
              Json.text(Map.of("channels", List.of("webhook:" + first)))),
          200);
      RecordedRequest hook = receiver.takeRequest(5, TimeUnit.SECONDS);
      assertTrue(
          StandardWebhooksReceiver.verifies(
              rotated.get("secret").asText(), hook, hook.getBody().readByteArray()));
    }

    endpointSecret(fay, "https://never-used.example.org/hook", 404);
    endpointSecret(fay, "not a url", 400);
    String reader =
        json(
                service.call(
                    "POST",
                    "/account/tokens",
                    fay,
                    Json.text(Map.of("name", "dashboard", "scopes", List.of("read")))),
                201)
            .get("token")
            .asText();
    assertEquals(
        "a secret is a credential: not for a read-only token",
        403,
        service
            .call(
                "GET",
                "/channels/webhook-secret?url="
                    + java.net.URLEncoder.encode("https://x.org/", UTF_8),
                reader,
                null)
            .statusCode());
    assertEquals(403, service.call("GET", "/channels/webhook-secret", reader, null).statusCode());
    assertEquals(
        "reading the rest still is",
        200,
        service.call("GET", "/watches", reader, null).statusCode());
  }

  private static JsonNode endpointSecret(String token, String url, int status) throws Exception {
    return json(
        service.call(
            "GET",
            "/channels/webhook-secret?url=" + java.net.URLEncoder.encode(url, UTF_8),
            token,
            null),
        status);
  }

  @Test
  public void aTestSendTriesEachChannelOnceAndSaysWhatHappenedOnEach() throws Exception {
    String gina = service.signedIn("gina", "user");
    try (MockWebServer up = new MockWebServer();
        MockWebServer down = new MockWebServer()) {
      up.enqueue(new MockResponse().setResponseCode(204));
      down.enqueue(new MockResponse().setResponseCode(503));
      down.enqueue(new MockResponse().setResponseCode(204));
      String good = "webhook:" + up.url("/good");
      String bad = "webhook:" + down.url("/bad");

      JsonNode unknown =
          json(
              service.call(
                  "POST",
                  "/channels/test",
                  gina,
                  Json.text(Map.of("channels", List.of(good, "carrier-pigeon:home")))),
              400);
      assertEquals("[\"channels\",1]", unknown.at("/issues/0/path").toString());
      refused(
          service.call(
              "POST",
              "/channels/test",
              gina,
              Json.text(Map.of("channels", List.of(good, "email:someone@example.org")))),
          1);
      json(service.call("POST", "/channels/test", gina, "{\"channels\": []}"), 400);
      assertEquals("bad input sends nothing", 0, up.getRequestCount());

      JsonNode results =
          json(
                  service.call(
                      "POST",
                      "/channels/test",
                      gina,
                      Json.text(Map.of("channels", List.of(good, bad)))),
                  200)
              .get("results");
      assertEquals(results.toString(), 2, results.size());
      assertEquals(good, results.at("/0/channel").asText());
      assertTrue(results.at("/0/ok").asBoolean());
      assertEquals(bad, results.at("/1/channel").asText());
      assertFalse(results.at("/1/ok").asBoolean());
      assertEquals("HTTP 503", results.at("/1/error").asText());
      JsonNode sent = Json.parse(up.takeRequest(5, TimeUnit.SECONDS).getBody().readByteArray());
      assertEquals("periscope.test", sent.get("type").asText());
      assertEquals("test", sent.get("strength").asText());
      Thread.sleep(300);
      assertEquals("a test send is not retried", 1, down.getRequestCount());

      json(service.call("POST", "/watches", gina, watch("gina-1", good, "push")), 201);
      up.enqueue(new MockResponse().setResponseCode(204));
      JsonNode watchResults =
          json(service.call("POST", "/watches/gina-1/channels/test", gina, null), 200)
              .get("results");
      assertEquals(watchResults.toString(), 2, watchResults.size());
      assertTrue(watchResults.at("/0/ok").asBoolean());
      assertEquals("push", watchResults.at("/1/channel").asText());
      JsonNode forWatch = Json.parse(up.takeRequest(5, TimeUnit.SECONDS).getBody().readByteArray());
      assertEquals("gina-1", forWatch.get("watchId").asText());
      assertEquals("Acme", forWatch.get("watchName").asText());
      ApiClient.error(service.call("POST", "/watches/gina-1/channels/test", bob, null), 404);
      ApiClient.error(service.call("POST", "/watches/none/channels/test", bob, null), 404);
    }
  }

  @Test
  public void testSendsAreRateLimitedPerOwner() throws Exception {
    String hana = service.signedIn("hana", "user");
    int answered = 0;
    HttpResponse<String> last = null;
    while (answered < 10) {
      last = service.call("POST", "/watches/none/channels/test", hana, null);
      answered++;
      if (last.statusCode() == 429) break;
      assertEquals(404, last.statusCode());
    }
    assertEquals(6, answered);
    assertTrue(last.headers().firstValue("Retry-After").isPresent());
    assertEquals(
        "another owner is not held back",
        404,
        service.call("POST", "/watches/none/channels/test", bob, null).statusCode());
  }

  @Test
  public void aTestSendReachesEveryKindOfUserUrlChannel() throws Exception {
    String ida = service.signedIn("ida", "user");
    try (MockWebServer receiver = new MockWebServer()) {
      for (int i = 0; i < 7; i++) receiver.enqueue(new MockResponse().setBody("{}"));
      receiver.start();
      String hostPort = receiver.getHostName() + ":" + receiver.getPort();
      List<String> channels =
          List.of(
              "webhook:http://" + hostPort + "/webhook",
              "ntfy:http://tk_ida@" + hostPort + "/ntfy-topic",
              "slack:http://" + hostPort + "/slack",
              "discord:http://" + hostPort + "/discord",
              "gotify:http://gotify-token@" + hostPort + "/",
              "matrix:http://syt_ida@" + hostPort + "/!room:example.org",
              "apprise:http://" + hostPort + "/notify/ida");
      JsonNode results =
          json(
                  service.call(
                      "POST", "/channels/test", ida, Json.text(Map.of("channels", channels))),
                  200)
              .get("results");
      assertEquals(results.toString(), channels.size(), results.size());
      for (int i = 0; i < channels.size(); i++) {
        assertEquals(
            "the answer shows the credential masked",
            io.periscope.notify.ChannelMask.mask(channels.get(i)),
            results.get(i).get("channel").asText());
        assertTrue(results.get(i).toString(), results.get(i).get("ok").asBoolean());
      }
      java.util.Set<String> paths = new java.util.HashSet<>();
      for (int i = 0; i < channels.size(); i++)
        paths.add(receiver.takeRequest(5, TimeUnit.SECONDS).getPath().replaceAll("alert_.*", ""));
      assertEquals(
          java.util.Set.of(
              "/webhook",
              "/ntfy-topic",
              "/slack",
              "/discord",
              "/message",
              "/_matrix/client/v3/rooms/!room:example.org/send/m.room.message/",
              "/notify/ida"),
          paths);
    }
  }
}
