package io.periscope.watch;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import com.typesafe.config.Config;
import io.periscope.history.WatchEvents;
import io.periscope.persistence.JournalSchema;
import io.periscope.testing.EntityTestKits;
import io.periscope.testing.NeedsPostgres;
import io.periscope.testing.TestJournals;
import io.periscope.testing.TestWatches;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJunitResource;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.pattern.StatusReply;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * The versions of a watch's definition: the kind of each change and its fields, changes written
 * before actors were recorded (their JSON without {@code actor} or {@code restoredFrom}, a state
 * snapshot without versions), and a watch recovered from such an old journal on both journals.
 */
public class WatchVersionsTest {
  @ClassRule
  public static final TestKitJunitResource testKit =
      new TestKitJunitResource(EntityTestKits.config());

  private static Watch watch(String condition, boolean enabled) {
    Watch w = TestWatches.acme("Acme", null);
    return new Watch(
        w.id(),
        w.owner(),
        w.name(),
        w.sources(),
        w.schedule(),
        condition,
        w.channels(),
        w.threshold(),
        w.weakThreshold(),
        enabled,
        w.timeZone());
  }

  private static final Instant AT = Instant.parse("2026-11-01T02:30:00Z");

  @Test
  public void eachChangeIsNamedWithTheFieldsItChanged() {
    Actor ann = Actor.owner("ann");
    var created = new WatchEntity.Created(watch("a", true), AT, null, ann, null);
    WatchVersion v1 = WatchVersions.of(created, null, 1);
    assertEquals(WatchVersions.CREATED, v1.change());
    assertEquals(ann, v1.actor());
    var disabled = new WatchEntity.Replaced(watch("a", false), AT, null, Actor.admin("root"), null);
    assertEquals(WatchVersions.DISABLED, WatchVersions.of(disabled, watch("a", true), 2).change());
    assertEquals(List.of("enabled"), WatchVersions.of(disabled, watch("a", true), 2).changed());
    var enabled = new WatchEntity.Replaced(watch("a", true), AT, null, Actor.cli(), null);
    assertEquals(WatchVersions.ENABLED, WatchVersions.of(enabled, watch("a", false), 3).change());
    var replaced = new WatchEntity.Replaced(watch("b", false), AT, null, ann, null);
    WatchVersion v4 = WatchVersions.of(replaced, watch("a", true), 4);
    assertEquals(WatchVersions.REPLACED, v4.change());
    assertEquals(List.of("condition", "enabled"), v4.changed());
    var deleted = new WatchEntity.Deleted(AT, Actor.importBy("ann"));
    WatchVersion v5 = WatchVersions.of(deleted, watch("b", false), 5);
    assertEquals(WatchVersions.DELETED, v5.change());
    assertNull(v5.watch());
    var restored = new WatchEntity.Created(watch("a", true), AT, null, ann, 1);
    WatchVersion v6 = WatchVersions.of(restored, null, 6);
    assertEquals(WatchVersions.RESTORED, v6.change());
    assertEquals(Integer.valueOf(1), v6.restoredFrom());

    WatchVersions.Difference d =
        WatchVersions.differences(watch("a", true), watch("b", true)).get(0);
    assertEquals("condition", d.field());
    assertEquals("a", d.before().asText());
    assertEquals("b", d.after().asText());
  }

  @Test
  public void versionsKeepTheNewestOnly() {
    List<WatchVersion> versions = List.of();
    Watch before = null;
    for (int i = 0; i < WatchVersions.KEPT + 5; i++) {
      Watch w = watch("c" + i, true);
      versions =
          WatchVersions.after(
              versions, new WatchEntity.Replaced(w, AT, null, Actor.cli(), null), before);
      before = w;
    }
    assertEquals(WatchVersions.KEPT, versions.size());
    assertEquals(WatchVersions.KEPT + 5, versions.get(versions.size() - 1).version());
    assertEquals(6, versions.get(0).version());
  }

  @Test
  public void changesWrittenBeforeActorsReadWithNone() throws Exception {
    var created = new WatchEntity.Created(watch("a", true), AT, AT, Actor.owner("ann"), null);
    var old =
        (WatchEntity.Created)
            EntityTestKits.roundTrip(
                testKit.system(),
                created,
                json ->
                    json.replaceAll(",?\"actor\":\\{[^}]*\\}", "")
                        .replace(",\"restoredFrom\":null", ""));
    assertNull(old.actor());
    assertNull(old.restoredFrom());
    assertEquals(created.watch(), old.watch());
    var deleted = new WatchEntity.Deleted(AT, Actor.cli());
    var oldDelete =
        (WatchEntity.Deleted)
            EntityTestKits.roundTrip(
                testKit.system(), deleted, json -> json.replaceAll(",?\"actor\":\\{[^}]*\\}", ""));
    assertNull(oldDelete.actor());
    // a snapshot written before versions: none, and the next change starts them
    WatchEntity.State state =
        (WatchEntity.State)
            EntityTestKits.roundTrip(
                testKit.system(),
                io.periscope.watch.WatchEvents.apply(WatchEntity.State.EMPTY, created),
                json -> json.replaceAll(",?\"versions\":\\[.*\\]", ""));
    assertEquals(List.of(), state.versions());
    assertEquals(created.watch(), state.watch());
  }

  @Test(timeout = 60_000)
  public void anOldJournalReadsOnH2() throws Exception {
    oldJournalReads(TestJournals.h2());
  }

  @Test(timeout = 60_000)
  @Category(NeedsPostgres.class)
  public void anOldJournalReadsOnPostgres() throws Exception {
    TestJournals.requirePostgres();
    oldJournalReads(TestJournals.postgres());
  }

  /**
   * A watch whose journal holds changes written before actors (no actor, no restore) recovers with
   * a version for each, and records the actors of the changes after.
   */
  private static void oldJournalReads(Config journal) throws Exception {
    ActorTestKit kit = ActorTestKit.create(journal);
    try {
      JournalSchema.create(kit.system());
      String accountId = "o" + UUID.randomUUID().toString().substring(0, 8);
      WatchEvents old = new WatchEvents(kit);
      old.write(accountId, "w", new WatchEntity.Created(watch("a", true), AT, null, null, null));
      old.write(accountId, "w", new WatchEntity.Replaced(watch("a", false), AT, null, null, null));
      old.write(accountId, "w", new WatchEntity.Deleted(AT, null));
      RunPipeline never = (w, memory, trigger, at) -> new CompletableFuture<RunPipeline.Outcome>();
      ActorRef<WatchEntity.Command> entity =
          kit.spawn(
              WatchEntity.create(WatchEntity.entityId(accountId, "w"), never, Clock.systemUTC()));
      TestProbe<StatusReply<Watch>> wrote = kit.createTestProbe();
      entity.tell(
          new WatchEntity.Create(watch("b", true), Actor.owner(accountId), null, wrote.ref()));
      assertEquals(watch("b", true), wrote.receiveMessage(Duration.ofSeconds(10)).getValue());
      TestProbe<StatusReply<WatchVersions.Kept>> kept = kit.createTestProbe();
      entity.tell(new WatchEntity.GetVersions(kept.ref()));
      List<WatchVersion> versions =
          kept.receiveMessage(Duration.ofSeconds(10)).getValue().versions();
      assertEquals(
          List.of("1 created null", "2 disabled null", "3 deleted null", "4 created owner"),
          versions.stream()
              .map(
                  v ->
                      v.version()
                          + " "
                          + v.change()
                          + " "
                          + (v.actor() == null ? null : v.actor().kind()))
              .toList());
      assertTrue(versions.get(3).changed().contains("condition"));
    } finally {
      ActorTestKit.shutdown(kit.system(), Duration.ofSeconds(10));
    }
  }
}
