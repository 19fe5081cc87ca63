package io.periscope.devices;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.auth0.jwt.interfaces.DecodedJWT;
import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.entity.Asks;
import io.periscope.json.Json;
import io.periscope.keys.KeyCipher;
import io.periscope.net.SafeHttp;
import io.periscope.notify.Alert;
import io.periscope.notify.Delivery;
import io.periscope.persistence.JournalSchema;
import io.periscope.runtime.LocalEntities;
import io.periscope.testing.FakePushService;
import io.periscope.testing.TestJournals;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import okhttp3.mockwebserver.RecordedRequest;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.After;
import org.junit.AfterClass;
import org.junit.Before;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The push channel against a fake push service on loopback: each request is checked as a browser's
 * push service and the browser would check it — the VAPID JWT verifies against the service's public
 * key, the payload decrypts with the subscription's private key — and the devices live in their
 * real entity on an H2 journal.
 */
public class WebPushSenderTest {
  private static ActorTestKit testKit;
  private static LocalEntities entities;
  private static Asks asks;

  private final VapidKeys keys = VapidKeys.generate();
  private FakePushService pushService;
  private String owner;

  @BeforeClass
  public static void startEntities() throws Exception {
    testKit = ActorTestKit.create(TestJournals.h2());
    JournalSchema.create(testKit.system());
    entities = new LocalEntities(testKit.system());
    asks = new Asks(testKit.system(), Duration.ofSeconds(10));
  }

  @AfterClass
  public static void stopEntities() {
    testKit.shutdownTestKit();
  }

  @Before
  public void start() throws Exception {
    pushService = new FakePushService();
    owner = "owner-" + UUID.randomUUID();
  }

  @After
  public void stop() throws Exception {
    pushService.close();
  }

  private WebPushSender sender(boolean allowPrivateNetworks, Optional<String> subject) {
    Vapid vapid =
        new Vapid(
            Optional.of(keys),
            subject,
            entities,
            asks,
            new KeyCipher("web-push-test-secret-of-32-bytes"));
    return new WebPushSender(
        entities,
        asks,
        vapid,
        pushService.trusting(new SafeHttp(allowPrivateNetworks).guardedClient()));
  }

  private Device register(FakePushService.Subscriber s, String name) throws Exception {
    DeviceValidator.Subscription subscription =
        DeviceValidator.validate(Json.MAPPER.readTree(s.registration(name)));
    return asks.<DevicesEntity.Command, DevicesEntity.Registered>ask(
            entities.devices(owner),
            r -> new DevicesEntity.Register(subscription, Instant.now(), r))
        .toCompletableFuture()
        .get(10, TimeUnit.SECONDS)
        .device();
  }

  private List<String> deviceIds() throws Exception {
    return asks
        .<DevicesEntity.Command, DevicesEntity.Devices>ask(
            entities.devices(owner), DevicesEntity.GetDevices::new)
        .toCompletableFuture()
        .get(10, TimeUnit.SECONDS)
        .devices()
        .stream()
        .map(Device::id)
        .toList();
  }

  private Alert alert(Alert.Strength strength) {
    return new Alert(
        owner,
        "acme-launch",
        "Acme launch",
        strength,
        0.92,
        "Acme set the launch date for 3 May.",
        List.of(new Alert.Evidence("Acme sets launch date", "https://news.example.com/acme?id=1")),
        "Acme announces a launch date",
        Instant.parse("2026-05-01T12:00:00Z"),
        "alert-push");
  }

  private List<Delivery> send(WebPushSender sender, Alert alert) throws Exception {
    return sender.send(alert).toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  @Test
  public void everyDeviceGetsAnEncryptedVapidSignedPush() throws Exception {
    FakePushService.Subscriber phone = pushService.subscribe(201);
    FakePushService.Subscriber laptop = pushService.subscribe(201);
    Device phoneDevice = register(phone, "phone");
    Device laptopDevice = register(laptop, "laptop");

    List<Delivery> deliveries =
        send(sender(true, Optional.of("mailto:ops@example.org")), alert(Alert.Strength.CONFIRMED));

    assertEquals(
        List.of(
            new Delivery("push", phoneDevice.id(), true, null),
            new Delivery("push", laptopDevice.id(), true, null)),
        deliveries);
    for (FakePushService.Subscriber s : List.of(phone, laptop)) {
      RecordedRequest request = pushService.receivedBy(s).get(0);
      assertEquals("POST", request.getMethod());
      assertEquals("aes128gcm", request.getHeader("Content-Encoding"));
      assertEquals("application/octet-stream", request.getHeader("Content-Type"));
      assertEquals("86400", request.getHeader("TTL"));
      assertEquals("high", request.getHeader("Urgency"));
      DecodedJWT vapid = FakePushService.verifiedVapid(request, keys.publicKey());
      assertEquals("mailto:ops@example.org", vapid.getSubject());
      assertTrue(
          "RFC 8292: at most 24 hours ahead",
          vapid.getExpiresAtAsInstant().isBefore(Instant.now().plus(Duration.ofHours(24))));
      JsonNode payload = Json.MAPPER.readTree(FakePushService.decrypt(request, s));
      assertEquals("periscope.alert", payload.get("type").asText());
      assertEquals("acme-launch", payload.get("watchId").asText());
      assertEquals("confirmed", payload.get("strength").asText());
      assertEquals("Acme set the launch date for 3 May.", payload.get("summary").asText());
      assertEquals("https://news.example.com/acme?id=1", payload.get("url").asText());
    }
  }

  @Test
  public void aGoneDeviceIsRemovedAndAFailingOneIsAFailedDelivery() throws Exception {
    FakePushService.Subscriber gone = pushService.subscribe(410);
    FakePushService.Subscriber failing = pushService.subscribe(500);
    FakePushService.Subscriber fine = pushService.subscribe(201);
    Device goneDevice = register(gone, "old phone");
    Device failingDevice = register(failing, "tablet");
    Device fineDevice = register(fine, "laptop");

    List<Delivery> deliveries = send(sender(true, Optional.empty()), alert(Alert.Strength.WEAK));

    assertEquals(
        List.of(
            new Delivery(
                "push",
                goneDevice.id(),
                false,
                "HTTP 410: the subscription is gone, the device was removed"),
            new Delivery("push", failingDevice.id(), false, "HTTP 500"),
            new Delivery("push", fineDevice.id(), true, null)),
        deliveries);
    assertEquals(List.of(failingDevice.id(), fineDevice.id()), deviceIds());
    assertEquals("normal", pushService.receivedBy(fine).get(0).getHeader("Urgency"));
    assertEquals(
        "no subject configured, none sent",
        null,
        FakePushService.verifiedVapid(pushService.receivedBy(fine).get(0), keys.publicKey())
            .getSubject());
  }

  @Test
  public void anEndpointOnAPrivateAddressIsRefusedAndNeverRequested() throws Exception {
    FakePushService.Subscriber local = pushService.subscribe(201);
    Device device = register(local, "phone");

    List<Delivery> deliveries =
        send(sender(false, Optional.empty()), alert(Alert.Strength.CONFIRMED));

    assertEquals(1, deliveries.size());
    assertFalse(deliveries.get(0).ok());
    // reads like any failed connection: nothing tells an internal address from a dead one
    assertTrue(deliveries.get(0).error(), deliveries.get(0).error().contains("could not connect"));
    assertFalse("the endpoint is a secret", deliveries.get(0).error().contains(local.endpoint()));
    assertEquals(0, pushService.receivedBy(local).size());
    assertEquals("a refusal is not a gone device", List.of(device.id()), deviceIds());
  }

  @Test
  public void anOwnerWithoutDevicesGetsOneFailedDelivery() throws Exception {
    assertEquals(
        List.of(Delivery.failed("push", "no device is registered")),
        send(sender(true, Optional.empty()), alert(Alert.Strength.CONFIRMED)));
  }

  @Test
  public void theGeneratedKeyPairIsOneForTheClusterAndItsPrivateKeyIsStoredEncrypted()
      throws Exception {
    KeyCipher cipher = new KeyCipher("web-push-test-secret-of-32-bytes");
    Vapid oneNode = new Vapid(Optional.empty(), Optional.empty(), entities, asks, cipher);
    Vapid otherNode = new Vapid(Optional.empty(), Optional.empty(), entities, asks, cipher);
    VapidKeys first = oneNode.keys().toCompletableFuture().get(10, TimeUnit.SECONDS);
    VapidKeys second = otherNode.keys().toCompletableFuture().get(10, TimeUnit.SECONDS);
    assertEquals(first, second);
    assertEquals(
        "usable: the pair parses and matches",
        first,
        VapidKeys.parse(first.publicKey(), first.privateKey()));
    VapidKeyEntity.StoredKeys stored =
        asks.<VapidKeyEntity.Command, VapidKeyEntity.StoredKeys>ask(
                entities.vapidKey(),
                r ->
                    new VapidKeyEntity.GetOrAdopt(
                        new VapidKeyEntity.StoredKeys("other", "other"), r))
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
    assertFalse(stored.privateKeyCiphertext().contains(first.privateKey()));
    assertEquals(first.privateKey(), cipher.decrypt(stored.privateKeyCiphertext()));
  }
}
