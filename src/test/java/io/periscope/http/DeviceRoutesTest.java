package io.periscope.http;

import static io.periscope.testing.ApiClient.error;
import static io.periscope.testing.InProcessService.json;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import com.zerodeplibs.webpush.key.PublicKeySources;
import io.periscope.devices.VapidKeys;
import io.periscope.json.Json;
import io.periscope.testing.FakePushService;
import io.periscope.testing.InProcessService;
import io.periscope.testing.TestJournals;
import java.net.http.HttpResponse;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * /devices over real HTTP: registration, listing, removal, owner scoping, validation, and the VAPID
 * public key.
 */
public class DeviceRoutesTest {
  static InProcessService service;
  static FakePushService pushService;
  static String alice;
  static String bob;
  static String carol;

  @BeforeClass
  public static void start() throws Exception {
    service = new InProcessService(TestJournals.h2());
    pushService = new FakePushService();
    alice = service.signedIn("alice", "user");
    bob = service.signedIn("bob", "user");
    carol = service.signedIn("carol", "user");
  }

  @AfterClass
  public static void stop() throws Exception {
    service.close();
    pushService.close();
  }

  @Test
  public void devicesAreRegisteredListedUpdatedAndRemovedWithoutShowingTheirSecrets()
      throws Exception {
    FakePushService.Subscriber phone = pushService.subscribe(201);
    FakePushService.Subscriber laptop = pushService.subscribe(201);
    HttpResponse<String> created =
        service.call("POST", "/devices", carol, phone.registration("phone"));
    JsonNode device = json(created, 201);
    String id = device.get("id").asText();
    assertEquals("phone", device.get("name").asText());
    assertEquals("localhost", device.get("pushService").asText());
    assertTrue(device.get("registeredAt").isTextual());
    for (String secret : List.of(phone.endpoint(), phone.p256dh(), phone.auth())) {
      assertFalse("never answered: " + secret, created.body().contains(secret));
    }
    JsonNode again =
        json(service.call("POST", "/devices", carol, phone.registration("my phone")), 200);
    assertEquals("the same endpoint is the same device", id, again.get("id").asText());
    json(service.call("POST", "/devices", carol, laptop.registration("laptop")), 201);

    JsonNode listed = json(service.call("GET", "/devices", carol, null), 200).get("devices");
    assertEquals(List.of("my phone", "laptop"), listed.findValuesAsText("name"));
    assertFalse(service.call("GET", "/devices", carol, null).body().contains(laptop.endpoint()));
    assertEquals(
        "my phone",
        json(service.call("GET", "/devices/" + id, carol, null), 200).get("name").asText());
    assertEquals(204, service.call("DELETE", "/devices/" + id, carol, null).statusCode());
    error(service.call("DELETE", "/devices/" + id, carol, null), 404);
    error(service.call("GET", "/devices/" + id, carol, null), 404);
    assertEquals(
        List.of("laptop"),
        json(service.call("GET", "/devices", carol, null), 200)
            .get("devices")
            .findValuesAsText("name"));
  }

  @Test
  public void anotherOwnersDeviceIsNotFound() throws Exception {
    String id =
        json(
                service.call(
                    "POST",
                    "/devices",
                    alice,
                    pushService.subscribe(201).registration("alice's phone")),
                201)
            .get("id")
            .asText();
    error(service.call("GET", "/devices/" + id, bob, null), 404);
    error(service.call("DELETE", "/devices/" + id, bob, null), 404);
    assertEquals(0, json(service.call("GET", "/devices", bob, null), 200).get("devices").size());
    assertEquals(200, service.call("GET", "/devices/" + id, alice, null).statusCode());
  }

  @Test
  public void badSubscriptionsAre400WithIssues() throws Exception {
    FakePushService.Subscriber s = pushService.subscribe(201);
    JsonNode all =
        error(
            service.call(
                "POST",
                "/devices",
                alice,
                Json.text(
                    Map.of(
                        "name",
                        " ",
                        "endpoint",
                        s.endpoint().replace("https:", "http:"),
                        "keys",
                        Map.of("p256dh", s.auth(), "auth", s.p256dh())))),
            400);
    assertEquals(
        "[[\"name\"], [\"endpoint\"], [\"keys\",\"p256dh\"], [\"keys\",\"auth\"]]",
        all.get("issues").findValues("path").toString());
    String notOnTheCurve = "BA" + "A".repeat(85);
    error(
        service.call(
            "POST",
            "/devices",
            alice,
            Json.text(
                Map.of(
                    "name",
                    "x",
                    "endpoint",
                    s.endpoint(),
                    "keys",
                    Map.of("p256dh", notOnTheCurve, "auth", s.auth())))),
        400);
    error(
        service.call(
            "POST",
            "/devices",
            alice,
            Json.text(
                Map.of(
                    "name",
                    "x".repeat(101),
                    "endpoint",
                    s.endpoint(),
                    "keys",
                    Map.of("p256dh", s.p256dh(), "auth", s.auth())))),
        400);
    error(
        service.call(
            "POST",
            "/devices",
            alice,
            Json.text(
                Map.of(
                    "name",
                    "x",
                    "endpoint",
                    "https://user:pw@push.example/1",
                    "keys",
                    Map.of("p256dh", s.p256dh(), "auth", s.auth())))),
        400);
    error(
        service.call(
            "POST",
            "/devices",
            alice,
            "{\"name\": \"x\", \"endpoint\": \"https://push.example/1\"}"),
        400);
    error(service.call("POST", "/devices", alice, "[]"), 400);
    error(service.call("PUT", "/devices", alice, "{}"), 405);
    error(service.call("GET", "/devices", null, null), 401);
  }

  @Test
  public void theVapidPublicKeyIsServedBehindATokenAndStaysTheSame() throws Exception {
    error(service.call("GET", "/devices/vapid-public-key", null, null), 401);
    String key =
        json(service.call("GET", "/devices/vapid-public-key", alice, null), 200)
            .get("publicKey")
            .asText();
    assertEquals(
        key,
        json(service.call("GET", "/devices/vapid-public-key", bob, null), 200)
            .get("publicKey")
            .asText());
    // A P-256 point, as browsers take it: extracting it checks the curve equation.
    assertEquals(65, Base64.getUrlDecoder().decode(key).length);
    PublicKeySources.ofUncompressedBytes(Base64.getUrlDecoder().decode(key)).extract();
  }

  @Test
  public void aConfiguredVapidKeyIsTheOneServed() throws Exception {
    VapidKeys keys = VapidKeys.generate();
    try (InProcessService configured =
        new InProcessService(
            ConfigFactory.parseMap(
                    Map.of(
                        "periscope.push.vapid-public-key",
                        keys.publicKey(),
                        "periscope.push.vapid-private-key",
                        keys.privateKey()))
                .withFallback(TestJournals.h2()))) {
      configured.account("dave", "user", "dave-passphrase");
      String token = configured.login("dave", "dave-passphrase");
      HttpResponse<String> served =
          configured.send("GET", "/devices/vapid-public-key", token, null, Map.of());
      assertEquals("{\"publicKey\":\"" + keys.publicKey() + "\"}", served.body());
    }
  }
}
