package io.periscope.keys;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.periscope.provider.ProviderFailure;
import io.periscope.testing.EntityTestKits;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.apache.pekko.Done;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJunitResource;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import org.junit.Before;
import org.junit.ClassRule;
import org.junit.Test;

public class KeyPoolEntityTest {
  @ClassRule
  public static final TestKitJunitResource testKit =
      new TestKitJunitResource(EntityTestKits.config());

  private static final Instant NOON = Instant.parse("2026-11-22T12:00:00Z");

  private EventSourcedBehaviorTestKit<
          KeyPoolEntity.Command, KeyPoolEntity.Event, KeyPoolEntity.State>
      pool;

  /**
   * A pool of each test's own: an earlier test's pool is still alive, and writes its counted uses
   * when their time comes.
   */
  private final String poolId = "model-" + java.util.UUID.randomUUID();

  @Before
  public void setUp() {
    pool = EventSourcedBehaviorTestKit.create(testKit.system(), KeyPoolEntity.create(poolId));
    pool.<StatusReply<Done>>runCommand(
        r ->
            new KeyPoolEntity.Seed(
                List.of(
                    new KeyPoolEntity.NewKey("a", "cipher-a", "sk-…aaaa"),
                    new KeyPoolEntity.NewKey("b", "cipher-b", "sk-…bbbb")),
                r));
  }

  @Test
  public void seedingTwiceAddsNothing() {
    var result =
        pool.<StatusReply<Done>>runCommand(
            r ->
                new KeyPoolEntity.Seed(
                    List.of(new KeyPoolEntity.NewKey("a", "cipher-a2", "sk-…aaaa")), r));
    assertTrue(result.events().isEmpty());
    assertEquals(2, pool.getState().keys().size());
  }

  @Test
  public void aThousandUsesWriteAFewCountsNotAnEventEachAndKeepTheirCount() {
    for (int i = 0; i < 1_000; i++)
      pool.<StatusReply<KeyPoolEntity.Lease>>runCommand(r -> new KeyPoolEntity.Acquire(NOON, r));
    pool.runCommand(new KeyPoolEntity.WriteUses());
    List<Object> written = pool.persistenceTestKit().persistedInStorage("KeyPool|" + poolId);
    // the two keys' additions, then a count per key each WRITE_USES_AT uses or WRITE_USES_AFTER
    assertTrue("events written: " + written.size(), written.size() - 2 <= 1_000 / 10);
    assertTrue(
        written.stream()
            .skip(2)
            .allMatch(
                e ->
                    e instanceof KeyPoolEntity.KeyUsesCounted c
                        && c.uses() >= 1
                        && c.uses() <= KeyPoolEntity.WRITE_USES_AT));
    pool.restart();
    var status =
        pool.<StatusReply<KeyPoolEntity.PoolStatus>>runCommand(
            r -> new KeyPoolEntity.GetStatus(NOON, r));
    assertEquals(
        "the uses are counted still",
        1_000,
        status.reply().getValue().keys().stream()
            .mapToLong(KeyPoolEntity.KeyView::usedToday)
            .sum());
  }

  @Test
  public void acquireSpreadsUseAndMetersIt() {
    var first =
        pool.<StatusReply<KeyPoolEntity.Lease>>runCommand(r -> new KeyPoolEntity.Acquire(NOON, r));
    var second =
        pool.<StatusReply<KeyPoolEntity.Lease>>runCommand(r -> new KeyPoolEntity.Acquire(NOON, r));
    assertTrue(first.reply().isSuccess() && second.reply().isSuccess());
    assertTrue(
        "the least used key goes next",
        !first.reply().getValue().keyId().equals(second.reply().getValue().keyId()));
    var status =
        pool.<StatusReply<KeyPoolEntity.PoolStatus>>runCommand(
            r -> new KeyPoolEntity.GetStatus(NOON, r));
    assertTrue(status.reply().getValue().keys().stream().allMatch(k -> k.usedToday() == 1));
  }

  @Test
  public void leasesAskedForTogetherAreSpreadOverTheKeysAndAllMetered() {
    var live = testKit.spawn(KeyPoolEntity.create("together-" + java.util.UUID.randomUUID()));
    var seeded = testKit.<StatusReply<Done>>createTestProbe();
    live.tell(
        new KeyPoolEntity.Seed(
            List.of(
                new KeyPoolEntity.NewKey("a", "cipher-a", "sk-…aaaa"),
                new KeyPoolEntity.NewKey("b", "cipher-b", "sk-…bbbb")),
            seeded.ref()));
    seeded.receiveMessage();
    var leases = testKit.<StatusReply<KeyPoolEntity.Lease>>createTestProbe();
    for (int i = 0; i < 6; i++) live.tell(new KeyPoolEntity.Acquire(NOON, leases.ref()));
    var keys = leases.receiveSeveralMessages(6).stream().map(r -> r.getValue().keyId()).toList();
    // uses leased but not yet written count when picking: three each, not six on the first key
    assertEquals(3, keys.stream().filter("a"::equals).count());
    var status = testKit.<StatusReply<KeyPoolEntity.PoolStatus>>createTestProbe();
    live.tell(new KeyPoolEntity.GetStatus(NOON, status.ref()));
    assertTrue(
        status.receiveMessage().getValue().keys().stream().allMatch(k -> k.usedToday() == 3));
  }

  @Test
  public void aRateLimitedKeyCoolsDownUntilItsTimeAndADeadKeyStaysDead() {
    pool.<StatusReply<Done>>runCommand(
        r ->
            new KeyPoolEntity.Report(
                "a",
                ProviderFailure.Kind.RATE_LIMITED,
                NOON.plusSeconds(20),
                "rate-limited (HTTP 429)",
                r));
    pool.<StatusReply<Done>>runCommand(
        r ->
            new KeyPoolEntity.Report(
                "b", ProviderFailure.Kind.INVALID_KEY, null, "invalid-key (HTTP 401)", r));
    var during =
        pool.<StatusReply<KeyPoolEntity.Lease>>runCommand(r -> new KeyPoolEntity.Acquire(NOON, r));
    assertTrue("no usable key while a cools down and b is dead", during.reply().isError());
    var after =
        pool.<StatusReply<KeyPoolEntity.Lease>>runCommand(
            r -> new KeyPoolEntity.Acquire(NOON.plus(Duration.ofSeconds(21)), r));
    assertEquals("a", after.reply().getValue().keyId());
    var status =
        pool.<StatusReply<KeyPoolEntity.PoolStatus>>runCommand(
            r -> new KeyPoolEntity.GetStatus(NOON, r));
    assertEquals(
        List.of("cooldown", "dead"),
        status.reply().getValue().keys().stream().map(KeyPoolEntity.KeyView::status).toList());
  }

  @Test
  public void transientFailuresDoNotConcernTheKey() {
    var result =
        pool.<StatusReply<Done>>runCommand(
            r ->
                new KeyPoolEntity.Report(
                    "a", ProviderFailure.Kind.TRANSIENT, null, "transient (HTTP 500)", r));
    assertTrue(result.events().isEmpty());
  }

  @Test
  public void usesAreWrittenWithinTheirTimeAndACrashLosesOnlyTheUnwritten() throws Exception {
    pool.<StatusReply<KeyPoolEntity.Lease>>runCommand(r -> new KeyPoolEntity.Acquire(NOON, r));
    pool.<StatusReply<KeyPoolEntity.Lease>>runCommand(r -> new KeyPoolEntity.Acquire(NOON, r));
    assertEquals("counted at once", 2, usedToday(NOON));
    long deadline = System.nanoTime() + KeyPoolEntity.WRITE_USES_AFTER.plusSeconds(5).toNanos();
    List<Object> written;
    do {
      Thread.sleep(100);
      written = pool.persistenceTestKit().persistedInStorage("KeyPool|" + poolId);
    } while (written.size() < 4 && System.nanoTime() < deadline);
    java.time.LocalDate day = NOON.atZone(java.time.ZoneOffset.UTC).toLocalDate();
    assertEquals(
        "one count per key, written without being asked",
        java.util.Set.of(
            new KeyPoolEntity.KeyUsesCounted("a", day, 1),
            new KeyPoolEntity.KeyUsesCounted("b", day, 1)),
        java.util.Set.copyOf(written.subList(2, written.size())));

    // a use not written yet is what a crash loses: the documented bound
    pool.<StatusReply<KeyPoolEntity.Lease>>runCommand(r -> new KeyPoolEntity.Acquire(NOON, r));
    assertEquals(3, usedToday(NOON));
    pool.restart();
    assertEquals(2, usedToday(NOON));
  }

  @Test
  public void aFlushOrAStopWritesTheCountedUsesFirst() {
    pool.<StatusReply<KeyPoolEntity.Lease>>runCommand(r -> new KeyPoolEntity.Acquire(NOON, r));
    var flushed = pool.<StatusReply<Done>>runCommand(KeyPoolEntity.Flush::new);
    assertTrue(flushed.reply().isSuccess());
    assertEquals(1, flushed.events().size());

    // sharding's stop message (a hand-over, a passivation) on a live pool
    String id = "stopped-" + java.util.UUID.randomUUID();
    var live = testKit.spawn(KeyPoolEntity.create(id));
    var done = testKit.<StatusReply<Done>>createTestProbe();
    live.tell(
        new KeyPoolEntity.Seed(
            List.of(new KeyPoolEntity.NewKey("a", "cipher-a", "sk-…aaaa")), done.ref()));
    done.receiveMessage();
    var leases = testKit.<StatusReply<KeyPoolEntity.Lease>>createTestProbe();
    live.tell(new KeyPoolEntity.Acquire(NOON, leases.ref()));
    live.tell(new KeyPoolEntity.Acquire(NOON, leases.ref()));
    leases.receiveSeveralMessages(2);
    live.tell(new KeyPoolEntity.Stop());
    done.expectTerminated(live);
    var again = testKit.spawn(KeyPoolEntity.create(id));
    var status = testKit.<StatusReply<KeyPoolEntity.PoolStatus>>createTestProbe();
    again.tell(new KeyPoolEntity.GetStatus(NOON, status.ref()));
    assertEquals(
        "nothing was lost", 2, status.receiveMessage().getValue().keys().get(0).usedToday());
  }

  private long usedToday(Instant now) {
    return keys(now).mapToLong(KeyPoolEntity.KeyView::usedToday).sum();
  }

  private java.util.stream.Stream<KeyPoolEntity.KeyView> keys(Instant now) {
    return pool
        .<StatusReply<KeyPoolEntity.PoolStatus>>runCommand(r -> new KeyPoolEntity.GetStatus(now, r))
        .reply()
        .getValue()
        .keys()
        .stream();
  }

  @Test
  public void usageIsPerUtcDayAndSurvivesRestart() {
    pool.<StatusReply<KeyPoolEntity.Lease>>runCommand(r -> new KeyPoolEntity.Acquire(NOON, r));
    pool.runCommand(new KeyPoolEntity.WriteUses());
    pool.restart();
    Instant tomorrow = NOON.plus(Duration.ofDays(1));
    assertEquals(1, usedToday(NOON));
    assertEquals(0, usedToday(tomorrow));
  }

  private List<String> statuses(Instant now) {
    return keys(now).map(KeyPoolEntity.KeyView::status).toList();
  }

  @Test
  public void aRemovedKeyIsNotSeededAgainEvenAfterARestartButAnAdminMayAddItBack() {
    var removed = pool.<StatusReply<Done>>runCommand(r -> new KeyPoolEntity.Remove("a", r));
    assertEquals(List.of(new KeyPoolEntity.KeyRemoved("a")), removed.events());
    pool.restart();

    var reseeded =
        pool.<StatusReply<Done>>runCommand(
            r ->
                new KeyPoolEntity.Seed(
                    List.of(new KeyPoolEntity.NewKey("a", "cipher-a", "sk-…aaaa")), r));
    assertTrue("seeding does not undo an admin's removal", reseeded.events().isEmpty());
    assertEquals(java.util.Set.of("b"), pool.getState().keys().keySet());

    var added =
        pool.<StatusReply<Done>>runCommand(
            r -> new KeyPoolEntity.Add(new KeyPoolEntity.NewKey("a", "cipher-a", "sk-…aaaa"), r));
    assertTrue(added.reply().isSuccess());
    assertTrue(pool.getState().keys().containsKey("a"));
    assertTrue("adding forgets the removal", pool.getState().removed().isEmpty());
  }

  @Test
  public void addingAKeyThePoolHoldsIsRefusedAndChangesNothing() {
    var again =
        pool.<StatusReply<Done>>runCommand(
            r -> new KeyPoolEntity.Add(new KeyPoolEntity.NewKey("a", "cipher-a2", "sk-…aaaa"), r));
    assertTrue(again.reply().isError());
    assertTrue(again.events().isEmpty());
    assertEquals("cipher-a", pool.getState().keys().get("a").ciphertext());
  }

  @Test
  public void commandsAboutAKeyThePoolDoesNotHoldAreRefused() {
    assertTrue(
        pool.<StatusReply<Done>>runCommand(r -> new KeyPoolEntity.Remove("nope", r))
            .reply()
            .isError());
    assertTrue(
        pool.<StatusReply<Done>>runCommand(r -> new KeyPoolEntity.SetDailyLimit("nope", 5L, r))
            .reply()
            .isError());
    assertTrue(
        pool.<StatusReply<Done>>runCommand(r -> new KeyPoolEntity.Accept("nope", r))
            .reply()
            .isError());
    assertTrue(
        pool.<StatusReply<KeyPoolEntity.Lease>>runCommand(
                r -> new KeyPoolEntity.GetSealed("nope", r))
            .reply()
            .isError());
    assertEquals(
        new KeyPoolEntity.Lease("b", "cipher-b"),
        pool.<StatusReply<KeyPoolEntity.Lease>>runCommand(r -> new KeyPoolEntity.GetSealed("b", r))
            .reply()
            .getValue());
  }

  @Test
  public void aKeyAtItsDailyLimitIsSkippedUntilTheNextUtcDayOrUntilTheLimitIsLifted() {
    pool.<StatusReply<Done>>runCommand(r -> new KeyPoolEntity.SetDailyLimit("a", 1L, r));
    pool.<StatusReply<Done>>runCommand(r -> new KeyPoolEntity.SetDailyLimit("b", 1L, r));
    pool.restart();
    var first =
        pool.<StatusReply<KeyPoolEntity.Lease>>runCommand(r -> new KeyPoolEntity.Acquire(NOON, r));
    var second =
        pool.<StatusReply<KeyPoolEntity.Lease>>runCommand(r -> new KeyPoolEntity.Acquire(NOON, r));
    assertEquals(
        List.of("a", "b"),
        List.of(first.reply().getValue().keyId(), second.reply().getValue().keyId()));
    assertTrue(
        "both keys are at their limit",
        pool.<StatusReply<KeyPoolEntity.Lease>>runCommand(r -> new KeyPoolEntity.Acquire(NOON, r))
            .reply()
            .isError());
    Instant tomorrow = NOON.plus(Duration.ofDays(1));
    assertEquals(
        "the next UTC day starts afresh",
        List.of("a", "b"),
        List.of(
            pool.<StatusReply<KeyPoolEntity.Lease>>runCommand(
                    r -> new KeyPoolEntity.Acquire(tomorrow, r))
                .reply()
                .getValue()
                .keyId(),
            pool.<StatusReply<KeyPoolEntity.Lease>>runCommand(
                    r -> new KeyPoolEntity.Acquire(tomorrow, r))
                .reply()
                .getValue()
                .keyId()));

    pool.<StatusReply<Done>>runCommand(r -> new KeyPoolEntity.SetDailyLimit("b", null, r));
    assertEquals(
        "b",
        pool.<StatusReply<KeyPoolEntity.Lease>>runCommand(
                r -> new KeyPoolEntity.Acquire(tomorrow, r))
            .reply()
            .getValue()
            .keyId());
    assertEquals(null, pool.getState().keys().get("b").dailyLimit());
  }

  @Test
  public void anAcceptedProbeRevivesADeadKeyAndEndsACooldown() {
    pool.<StatusReply<Done>>runCommand(
        r ->
            new KeyPoolEntity.Report(
                "a", ProviderFailure.Kind.INVALID_KEY, null, "invalid-key (HTTP 401)", r));
    pool.<StatusReply<Done>>runCommand(
        r ->
            new KeyPoolEntity.Report(
                "b",
                ProviderFailure.Kind.QUOTA_EXHAUSTED,
                NOON.plus(Duration.ofHours(6)),
                "quota-exhausted (HTTP 429)",
                r));
    assertEquals(List.of("dead", "cooldown"), statuses(NOON));

    pool.<StatusReply<Done>>runCommand(r -> new KeyPoolEntity.Accept("a", r));
    pool.<StatusReply<Done>>runCommand(r -> new KeyPoolEntity.Accept("b", r));
    pool.restart();

    assertEquals(List.of("active", "active"), statuses(NOON));
    assertTrue(pool.getState().keys().values().stream().allMatch(k -> k.lastProblem() == null));
  }

  @Test
  public void aUseWrittenAfterItsKeyWasRemovedRecovers() {
    // The journal a lease picked just before an admin removed its key leaves behind.
    EventSourcedBehaviorTestKit<KeyPoolEntity.Command, KeyPoolEntity.Event, KeyPoolEntity.State>
        journal =
            EventSourcedBehaviorTestKit.create(
                testKit.system(), KeyPoolEntity.create("removed-while-leased"));
    journal
        .persistenceTestKit()
        .persistForRecovery(
            "KeyPool|removed-while-leased",
            List.of(
                new KeyPoolEntity.KeyAdded("a", "cipher-a", "sk-…aaaa"),
                new KeyPoolEntity.KeyAdded("b", "cipher-b", "sk-…bbbb"),
                new KeyPoolEntity.KeyRemoved("a"),
                new KeyPoolEntity.KeyUsed("a", NOON.atZone(java.time.ZoneOffset.UTC).toLocalDate()),
                new KeyPoolEntity.KeyCooledDown("a", NOON.plus(Duration.ofHours(1)), "late"),
                new KeyPoolEntity.KeyUsed(
                    "b", NOON.atZone(java.time.ZoneOffset.UTC).toLocalDate())));
    journal.restart();

    assertEquals(java.util.Set.of("b"), journal.getState().keys().keySet());
    assertEquals(java.util.Set.of("a"), journal.getState().removed());
    var lease =
        journal.<StatusReply<KeyPoolEntity.Lease>>runCommand(
            r -> new KeyPoolEntity.Acquire(NOON, r));
    assertEquals("b", lease.reply().getValue().keyId());
    journal.runCommand(new KeyPoolEntity.WriteUses());
    assertEquals(
        2,
        journal
            .getState()
            .keys()
            .get("b")
            .usedOn(NOON.atZone(java.time.ZoneOffset.UTC).toLocalDate()));
  }
}
