package io.periscope.keys;

import static io.periscope.testing.InProcessService.json;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.periscope.devices.Vapid;
import io.periscope.entity.Asks;
import io.periscope.runtime.Entities;
import io.periscope.runtime.ShardedEntities;
import io.periscope.testing.CapturedLogs;
import io.periscope.testing.InProcessService;
import io.periscope.testing.LoggedAlerts;
import io.periscope.testing.StandardWebhooksReceiver;
import io.periscope.testing.TestJournals;
import io.periscope.watch.Watch;
import io.periscope.watch.WatchEntity;
import io.periscope.watch.WatchSource;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

/**
 * Secrets rotate without losing the stored keys: a journal whose keys an earlier version encrypted
 * under AUTH_JWT_SECRET keeps working after the upgrade, re-encrypting moves its keys to
 * ENCRYPTION_KEY, after which AUTH_JWT_SECRET can change (the only way to end every token) and
 * ENCRYPTION_KEY itself can rotate; a key no configured key can read is made dead, and the operator
 * is told.
 */
public class KeyRotationTest {
  static final String OLD_JWT_SECRET = "the-jwt-secret-of-the-earlier-version-32";
  static final String NEW_JWT_SECRET = "a-rotated-jwt-secret-that-ends-all-tokens";
  static final String K1 = "first-encryption-key-of-at-least-32-bytes";
  static final String K2 = "second-encryption-key-of-at-least-32-bytes";
  static final String MODEL_KEY = "sk-stored-by-the-old-version-0001";

  static final String NTFY_PASSWORD = "ntfy-password-of-the-old-version";
  private final MockWebServer provider = new MockWebServer();
  private final MockWebServer ntfy = new MockWebServer();

  /** The key of every probe the provider saw. */
  private final ConcurrentLinkedDeque<String> probedWith = new ConcurrentLinkedDeque<>();

  private Config journal;

  @Before
  public void start() throws Exception {
    provider.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) {
            probedWith.add(request.getHeader("Authorization").replace("Bearer ", ""));
            return new MockResponse().setBody("{\"object\": \"list\", \"data\": []}");
          }
        });
    provider.start();
    ntfy.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) {
            return new MockResponse().setResponseCode(200);
          }
        });
    ntfy.start();
    journal = TestJournals.h2(); // one in-memory journal, kept across the services below
  }

  @After
  public void stop() throws Exception {
    provider.shutdown();
    ntfy.shutdown();
  }

  private InProcessService service(String jwtSecret, String encryptionKeys) throws Exception {
    return new InProcessService(
        ConfigFactory.parseMap(
                Map.of(
                    "periscope.encryption.keys",
                    encryptionKeys,
                    "periscope.model.base-url",
                    provider.url("/v1").toString(),
                    // the webhook receiver of the signature check is on loopback
                    "periscope.fetch.allow-private-networks",
                    true))
            .withFallback(journal),
        Clock.systemUTC(),
        jwtSecret);
  }

  /** Probes the stored key: answers the status, and whether the provider got the very key. */
  private String probe(InProcessService service, String admin) throws Exception {
    probedWith.clear();
    var r =
        service.call(
            "POST",
            "/admin/keys/model/" + KeyCipher.fingerprint(MODEL_KEY) + "/probe",
            admin,
            null);
    if (r.statusCode() == 200) assertEquals(List.of(MODEL_KEY), List.copyOf(probedWith));
    return r.statusCode() + " " + r.body();
  }

  private static JsonNode reencrypt(InProcessService service, String admin) throws Exception {
    return json(service.call("POST", "/admin/encryption/re-encrypt", admin, null), 200);
  }

  @Test
  public void keysOfAnOldJournalSurviveTheUpgradeAndEveryRotation() throws Exception {
    String vapidPublicKey;
    String webhookSecret;
    // 1. What an earlier version wrote: the pool's key and the VAPID private key sealed under a
    // key derived from AUTH_JWT_SECRET, without a key id.
    try (InProcessService old = service(OLD_JWT_SECRET, K1)) {
      Entities entities = new ShardedEntities(old.system);
      Asks asks = new Asks(old.system, Duration.ofSeconds(10));
      KeyCipher oldCipher = new KeyCipher(OLD_JWT_SECRET);
      new KeyPools(entities, asks, oldCipher, LoggedAlerts.create(), Clock.systemUTC())
          .seed(KeyPoolEntity.MODEL, List.of(MODEL_KEY))
          .toCompletableFuture()
          .get(10, TimeUnit.SECONDS);
      vapidPublicKey =
          new Vapid(Optional.empty(), Optional.empty(), entities, asks, oldCipher)
              .keys()
              .toCompletableFuture()
              .get(10, TimeUnit.SECONDS)
              .publicKey();
      // and a watch's channel with its credential in plain text
      asks.<WatchEntity.Command, Watch>ask(
              entities.watch("root", "old-watch"),
              r ->
                  new WatchEntity.Create(
                      new Watch(
                          "old-watch",
                          "root",
                          "old",
                          List.of(new WatchSource("rss", "https://example.org/feed", null, null)),
                          "0 0 1 1 *",
                          "c",
                          List.of(ntfyChannel()),
                          0.5,
                          null,
                          true,
                          null),
                      null,
                      null,
                      r))
          .toCompletableFuture()
          .get(10, TimeUnit.SECONDS);
    }

    // 2. The upgrade: ENCRYPTION_KEY is new, AUTH_JWT_SECRET the same; the old keys still work.
    try (InProcessService upgraded = service(OLD_JWT_SECRET, K1)) {
      String root = upgraded.signedIn("root", "admin");
      assertTrue(probe(upgraded, root), probe(upgraded, root).startsWith("200"));
      assertEquals(vapidPublicKey, vapidKey(upgraded, root));
      JsonNode moved = reencrypt(upgraded, root);
      // the pool key, VAPID, and the channel's credential, sealed now
      assertEquals(moved.toString(), 3, moved.get("reencrypted").asInt());
      assertEquals(0, moved.get("undecryptable").asInt());
      webhookSecret =
          json(upgraded.call("POST", "/channels/webhook-secret", root, null), 201)
              .get("secret")
              .asText();
      assertEquals(4, reencrypt(upgraded, root).get("current").asInt()); // and the secret
    }

    // 3. AUTH_JWT_SECRET rotated: every token ends, the stored keys stay readable.
    try (InProcessService rotated = service(NEW_JWT_SECRET, K1)) {
      String root = rotated.login("root", "root-passphrase");
      assertTrue(probe(rotated, root).startsWith("200"));
      assertEquals(vapidPublicKey, vapidKey(rotated, root));
    }

    // 4. ENCRYPTION_KEY rotated: the new key first, the old one still listed until re-encrypted.
    try (InProcessService both = service(NEW_JWT_SECRET, K2 + "," + K1)) {
      String root = both.login("root", "root-passphrase");
      assertTrue(probe(both, root).startsWith("200"));
      assertEquals(4, reencrypt(both, root).get("reencrypted").asInt());
    }
    try (InProcessService onlyNew = service(NEW_JWT_SECRET, K2)) {
      String root = onlyNew.login("root", "root-passphrase");
      assertTrue(probe(onlyNew, root).startsWith("200"));
      assertEquals(vapidPublicKey, vapidKey(onlyNew, root));
      assertSignedWith(webhookSecret, onlyNew, root);
      JsonNode sent =
          json(onlyNew.call("POST", "/watches/old-watch/channels/test", root, null), 200);
      assertTrue(sent.toString(), sent.at("/results/0/ok").asBoolean());
      assertEquals(
          "the channel's credential, sealed under the new key",
          "Basic "
              + java.util.Base64.getEncoder()
                  .encodeToString(("alice:" + NTFY_PASSWORD).getBytes(StandardCharsets.UTF_8)),
          ntfy.takeRequest(5, TimeUnit.SECONDS).getHeader("Authorization"));
    }

    // 5. The key that sealed them is gone: the pool's key is dead, and the operator is told.
    try (CapturedLogs logs = new CapturedLogs();
        InProcessService lost =
            service(NEW_JWT_SECRET, "a-third-key-that-sealed-nothing-32-bytes")) {
      String root = lost.login("root", "root-passphrase");
      String answer = probe(lost, root);
      assertTrue(answer, answer.startsWith("422"));
      assertTrue("no call carried anything", probedWith.isEmpty());
      JsonNode key =
          json(
              lost.call("GET", "/admin/keys/model/" + KeyCipher.fingerprint(MODEL_KEY), root, null),
              200);
      assertEquals("dead", key.get("status").asText());
      assertTrue(key.toString(), key.get("lastProblem").asText().startsWith("undecryptable"));
      assertTrue(logs.lines().stream().anyMatch(l -> l.contains("kind=key-undecryptable")));
      JsonNode sent = json(lost.call("POST", "/watches/old-watch/channels/test", root, null), 200);
      assertTrue(
          sent.toString(), sent.at("/results/0/error").asText().contains("no longer configured"));
    }
  }

  /** A test send to a webhook arrives signed with {@code secret}, checked as a receiver would. */
  private static void assertSignedWith(String secret, InProcessService service, String token)
      throws Exception {
    try (MockWebServer receiver = new MockWebServer()) {
      receiver.enqueue(new MockResponse().setResponseCode(204));
      receiver.start();
      String body = "{\"channels\": [\"webhook:" + receiver.url("/hook") + "\"]}";
      JsonNode sent = json(service.call("POST", "/channels/test", token, body), 200);
      assertTrue(sent.toString(), sent.at("/results/0/ok").asBoolean());
      RecordedRequest hook = receiver.takeRequest(5, TimeUnit.SECONDS);
      assertTrue(StandardWebhooksReceiver.verifies(secret, hook, hook.getBody().readByteArray()));
    }
  }

  private String ntfyChannel() {
    return "ntfy:http://alice:" + NTFY_PASSWORD + "@localhost:" + ntfy.getPort() + "/alerts";
  }

  private static String vapidKey(InProcessService service, String token) throws Exception {
    return json(service.call("GET", "/devices/vapid-public-key", token, null), 200)
        .get("publicKey")
        .asText();
  }
}
