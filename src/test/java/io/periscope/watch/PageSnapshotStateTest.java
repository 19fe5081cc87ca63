package io.periscope.watch;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import io.periscope.source.PageSnapshot;
import io.periscope.testing.EntityTestKits;
import io.periscope.testing.TestWatches;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJunitResource;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.SerializerWithStringManifest;
import org.junit.ClassRule;
import org.junit.Test;

/** What a watch saw of its pages: kept in its state with the seen set, read from old journals. */
public class PageSnapshotStateTest {
  @ClassRule
  public static final TestKitJunitResource testKit =
      new TestKitJunitResource(EntityTestKits.config());

  private static final WatchSource PAGE =
      new WatchSource(WatchSource.PAGE, "https://acme.example/pricing", null, null, "#plans", null);
  private static final PageSnapshot SEEN =
      new PageSnapshot(List.of(new PageSnapshot.Block("Team | $49", "plans")), "\"v1\"", null);

  private static Object roundTrip(Object value) throws Exception {
    var serializer =
        (SerializerWithStringManifest)
            SerializationExtension.get(testKit.system()).findSerializerFor(value);
    return serializer.fromBinary(serializer.toBinary(value), serializer.manifest(value));
  }

  private static Watch watch(WatchSource... sources) {
    return TestWatches.onSources("alice", "acme", sources);
  }

  private static RunRecord record() {
    return RunRecords.crashed(RunRecord.TRIGGER_MANUAL, Instant.EPOCH, new RuntimeException("x"));
  }

  @Test
  public void aRunsPagesAreKeptAndTheSnapshotsOfRemovedSourcesDropped() throws Exception {
    WatchEntity.State state =
        WatchEntity.State.EMPTY
            .created(watch(PAGE), Instant.EPOCH, null)
            .withRun(record(), List.of("k"), Map.of(), Map.of(PAGE.key(), SEEN));
    assertEquals(Map.of(PAGE.key(), SEEN), state.pages());
    assertEquals(Map.of(PAGE.key(), SEEN), state.memory(Instant.EPOCH).pages());
    // a run without pages keeps what was seen
    state = state.withRun(record(), List.of(), Map.of(), null);
    assertEquals(Map.of(PAGE.key(), SEEN), state.pages());
    // the page source replaced by a feed: its snapshot goes with the next run
    WatchSource feed = new WatchSource(WatchSource.RSS, "https://acme.example/feed", null, null);
    state = state.withWatch(watch(feed), null).withRun(record(), List.of(), Map.of(), null);
    assertEquals(Map.of(), state.pages());
  }

  @Test
  public void eventsAndStateCarryPagesAndOldOnesReadWithout() throws Exception {
    var event =
        new WatchEntity.RunRecorded(record(), List.of("k"), Map.of(), Map.of(PAGE.key(), SEEN));
    assertEquals(event, roundTrip(event));
    WatchEntity.State state =
        WatchEntity.State.EMPTY
            .created(watch(PAGE), Instant.EPOCH, null)
            .withRun(record(), List.of("k"), Map.of(), Map.of(PAGE.key(), SEEN));
    assertEquals(state, roundTrip(state));
    assertEquals(PAGE, ((WatchEntity.State) roundTrip(state)).watch().sources().get(0));

    // a state snapshot written before pages: no "pages" field, sources without selector
    var serializer =
        (SerializerWithStringManifest)
            SerializationExtension.get(testKit.system()).findSerializerFor(state);
    String before =
        """
        {"watch": {"id": "acme", "owner": "alice", "name": "Acme",
          "sources": [{"type": "rss", "value": "https://acme.example/feed"}],
          "schedule": "0 0 1 1 *", "condition": "c", "channels": [], "threshold": 0.8,
          "enabled": true, "timeZone": "UTC"},
         "everCreated": true, "seen": ["k"], "recentRuns": []}\
        """;
    var old =
        (WatchEntity.State)
            serializer.fromBinary(
                before.getBytes(StandardCharsets.UTF_8), serializer.manifest(state));
    assertEquals(Map.of(), old.pages());
    assertNull(old.watch().sources().get(0).selector());
    assertNull(old.watch().sources().get(0).ignore());
  }
}
