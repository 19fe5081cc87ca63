package io.periscope.keys;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.periscope.entity.Asks;
import io.periscope.provider.ProviderFailure;
import io.periscope.runtime.LocalEntities;
import io.periscope.testing.LoggedAlerts;
import io.periscope.testing.TestJournals;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/** The pool client against real entities on an H2 journal: retries, cooldowns and dead keys. */
public class KeyPoolsTest {
  private static ActorTestKit testKit;
  private static KeyPools pools;

  @BeforeClass
  public static void start() {
    testKit = ActorTestKit.create(TestJournals.h2());
    io.periscope.persistence.JournalSchema.create(testKit.system());
    pools =
        new KeyPools(
            new LocalEntities(testKit.system()),
            new Asks(testKit.system(), Duration.ofSeconds(10)),
            new KeyCipher("a-service-secret-of-at-least-32-bytes!!"),
            LoggedAlerts.create(),
            Clock.systemUTC());
  }

  @AfterClass
  public static void stop() {
    testKit.shutdownTestKit();
  }

  private static <T> T await(java.util.concurrent.CompletionStage<T> stage) throws Exception {
    return stage.toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  private static Map<String, String> statuses(String pool) throws Exception {
    return await(pools.status(pool)).keys().stream()
        .collect(Collectors.toMap(KeyPoolEntity.KeyView::label, KeyPoolEntity.KeyView::status));
  }

  @Test
  public void aRateLimitedKeyIsCooledDownAndTheCallSucceedsOnTheNext() throws Exception {
    await(
        pools.seed("t-rate", List.of("sk-limited-0000000000000001", "sk-good-00000000000000002")));
    List<String> tried = new CopyOnWriteArrayList<>();
    // Two calls: the least used key goes first, so the limited key is tried in one of them, either
    // way.
    for (int call = 0; call < 2; call++) {
      String answer =
          await(
              pools.withKey(
                  "t-rate",
                  key -> {
                    tried.add(key);
                    return key.contains("limited")
                        ? CompletableFuture.failedFuture(
                            new ProviderFailure(
                                ProviderFailure.Kind.RATE_LIMITED,
                                429,
                                Duration.ofSeconds(30),
                                "rate limited"))
                        : CompletableFuture.completedFuture("ok with " + key.substring(0, 7));
                  }));
      assertEquals("ok with sk-good", answer);
    }
    assertEquals(
        "the cooling key is not tried again",
        1,
        tried.stream().filter(k -> k.contains("limited")).count());
    assertEquals("cooldown", statuses("t-rate").get("sk-…0001"));
    assertEquals("active", statuses("t-rate").get("sk-…0002"));
  }

  @Test
  public void aKeyNoEncryptionKeyCanReadDiesWithAnAlertAndTheCallGoesOnWithAnother()
      throws Exception {
    // sealed under an encryption key this service no longer has
    KeyCipher lost = KeyCipher.keyring(List.of("an-encryption-key-this-node-lost-32b"), "unused");
    String lostKey = "sk-lost-00000000000000005";
    await(
        pools.<org.apache.pekko.Done>ask(
            "t-lost",
            reply ->
                new KeyPoolEntity.Seed(
                    List.of(
                        new KeyPoolEntity.NewKey(
                            KeyCipher.fingerprint(lostKey),
                            lost.encrypt(lostKey),
                            KeyCipher.mask(lostKey))),
                    reply)));
    await(pools.seed("t-lost", List.of("sk-read-00000000000000006")));
    List<String> tried = new CopyOnWriteArrayList<>();
    try (io.periscope.testing.CapturedLogs logs = new io.periscope.testing.CapturedLogs()) {
      for (int call = 0; call < 3; call++) {
        assertEquals(
            "ok",
            await(
                pools.withKey(
                    "t-lost",
                    key -> {
                      tried.add(key);
                      return CompletableFuture.completedFuture("ok");
                    })));
      }
      assertEquals(
          "the readable key answered every call",
          List.of("sk-read-00000000000000006"),
          tried.stream().distinct().toList());
      assertEquals("dead", statuses("t-lost").get("sk-…0005"));
      assertEquals(
          "one alert for the key",
          1,
          logs.lines().stream().filter(l -> l.contains("kind=key-undecryptable")).count());
    }
  }

  @Test
  public void anInvalidKeyDiesAndIsNotTriedAgain() throws Exception {
    await(pools.seed("t-dead", List.of("sk-dead-00000000000000003", "sk-live-00000000000000004")));
    for (int i = 0; i < 3; i++) {
      await(
          pools.withKey(
              "t-dead",
              key ->
                  key.contains("dead")
                      ? CompletableFuture.failedFuture(
                          new ProviderFailure(
                              ProviderFailure.Kind.INVALID_KEY, 401, null, "bad key"))
                      : CompletableFuture.completedFuture("ok")));
    }
    Map<String, String> status = statuses("t-dead");
    assertEquals("dead", status.get("sk-…0003"));
    long deadUses =
        await(pools.status("t-dead")).keys().stream()
            .filter(k -> k.status().equals("dead"))
            .mapToLong(KeyPoolEntity.KeyView::usedToday)
            .sum();
    assertTrue("a dead key is used at most once", deadUses <= 1);
  }

  @Test
  public void aRejectedRequestIsNotRetried() throws Exception {
    await(
        pools.seed(
            "t-rejected", List.of("sk-one-000000000000000005", "sk-two-000000000000000006")));
    List<String> tried = new CopyOnWriteArrayList<>();
    ExecutionException failed =
        org.junit.Assert.assertThrows(
            ExecutionException.class,
            () ->
                await(
                    pools.withKey(
                        "t-rejected",
                        key -> {
                          tried.add(key);
                          return CompletableFuture.failedFuture(
                              new ProviderFailure(ProviderFailure.Kind.REJECTED, 400, null, "bad"));
                        })));
    assertTrue(failed.getCause() instanceof ProviderFailure);
    assertEquals(1, tried.size());
  }

  @Test
  public void transientFailuresAreRetriedAFewTimesThenReported() throws Exception {
    await(pools.seed("t-transient", List.of("sk-flaky-00000000000000007")));
    List<String> tried = new CopyOnWriteArrayList<>();
    ExecutionException failed =
        org.junit.Assert.assertThrows(
            ExecutionException.class,
            () ->
                await(
                    pools.withKey(
                        "t-transient",
                        key -> {
                          tried.add(key);
                          return CompletableFuture.failedFuture(
                              new ProviderFailure(
                                  ProviderFailure.Kind.TRANSIENT, 500, null, "5xx"));
                        })));
    assertEquals(KeyPools.MAX_ATTEMPTS, tried.size());
    assertEquals(ProviderFailure.Kind.TRANSIENT, ((ProviderFailure) failed.getCause()).kind());
    assertEquals(
        "a transient failure leaves the key active",
        "active",
        statuses("t-transient").get("sk-…0007"));
  }

  @Test
  public void anEmptyPoolHasNoUsableKey() throws Exception {
    ExecutionException failed =
        org.junit.Assert.assertThrows(
            ExecutionException.class,
            () ->
                await(pools.withKey("t-empty", key -> CompletableFuture.completedFuture("never"))));
    assertTrue(failed.getCause() instanceof KeyPools.NoUsableKey);
    assertTrue(await(pools.status("t-empty")).keys().isEmpty());
    assertEquals(false, await(pools.hasUsableKey("t-empty")));
  }

  @Test
  public void aPoolWhoseKeysAreAllDeadOrCoolingHasNoUsableKey() throws Exception {
    await(
        pools.seed("t-usable", List.of("sk-dying-0000000000000008", "sk-tired-0000000000000009")));
    assertEquals(true, await(pools.hasUsableKey("t-usable")));
    for (int i = 0; i < 2; i++) {
      org.junit.Assert.assertThrows(
          ExecutionException.class,
          () ->
              await(
                  pools.withKey(
                      "t-usable",
                      key ->
                          CompletableFuture.failedFuture(
                              key.contains("dying")
                                  ? new ProviderFailure(
                                      ProviderFailure.Kind.INVALID_KEY, 401, null, "bad key")
                                  : new ProviderFailure(
                                      ProviderFailure.Kind.RATE_LIMITED,
                                      429,
                                      Duration.ofMinutes(5),
                                      "slow down")))));
    }
    assertEquals(Map.of("sk-…0008", "dead", "sk-…0009", "cooldown"), statuses("t-usable"));
    assertEquals(false, await(pools.hasUsableKey("t-usable")));
  }

  @Test
  public void aFailureWhoseMessageEchoesTheKeyLeavesThePoolWithoutIt() throws Exception {
    String key = "sk-echoed-00000000000000010";
    await(pools.seed("t-echo", List.of(key)));
    ExecutionException failed =
        org.junit.Assert.assertThrows(
            ExecutionException.class,
            () ->
                await(
                    pools.withKey(
                        "t-echo",
                        k ->
                            CompletableFuture.failedFuture(
                                new ProviderFailure(
                                    ProviderFailure.Kind.REJECTED,
                                    400,
                                    null,
                                    "provider answered HTTP 400 (" + k + ")")))));
    assertEquals("the provider answered HTTP 400", failed.getCause().getMessage());
  }
}
