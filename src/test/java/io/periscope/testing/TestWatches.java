package io.periscope.testing;

import static org.junit.Assert.assertTrue;

import io.periscope.json.Json;
import io.periscope.watch.RunRecord;
import io.periscope.watch.Watch;
import io.periscope.watch.WatchEntity;
import io.periscope.watch.WatchSource;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJunitResource;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.pattern.StatusReply;

/**
 * The watches the tests keep: as entities hold them, with their creation, and as the API takes
 * them.
 */
public final class TestWatches {
  private TestWatches() {}

  /**
   * alice's watch "acme": one official search source, every six hours in UTC, to Telegram, alerts
   * confirmed from 0.8 and weak ones from {@code weak} (none when null).
   */
  public static Watch acme(String name, Double weak) {
    return new Watch(
        "acme",
        "alice",
        name,
        List.of(new WatchSource(WatchSource.SEARCH, "acme rocket launch", "official", 7)),
        "0 */6 * * *",
        "Acme announces a launch date",
        List.of("telegram"),
        0.8,
        weak,
        true,
        "UTC");
  }

  /** An official feed, for watches whose source is never read. */
  public static final WatchSource OFFICIAL_FEED =
      new WatchSource(WatchSource.RSS, "https://example.org/feed", "official", null);

  /**
   * {@code owner}'s watch {@code id} (named so too) on {@code sources}, with no channels, due only
   * on 1 January, so that the runs a test sees are the ones it starts.
   */
  public static Watch onSources(String owner, String id, WatchSource... sources) {
    return new Watch(
        id,
        owner,
        id,
        List.of(sources),
        "0 0 1 1 *",
        "Acme announces a launch date",
        List.of(),
        0.8,
        null,
        true,
        "UTC");
  }

  /** Creates {@code watch} in {@code entity}, which must take it. */
  public static void create(
      TestKitJunitResource testKit, ActorRef<WatchEntity.Command> entity, Watch watch) {
    create(testKit.testKit(), entity, watch);
  }

  public static void create(
      ActorTestKit testKit, ActorRef<WatchEntity.Command> entity, Watch watch) {
    TestProbe<StatusReply<Watch>> probe = testKit.createTestProbe();
    entity.tell(new WatchEntity.Create(watch, null, null, probe.ref()));
    // the first write may open the journal: give it the time a loaded machine takes
    assertTrue(probe.receiveMessage(Duration.ofSeconds(10)).isSuccess());
  }

  /** Runs the watch in {@code entity} now, as run-now does, and answers its record. */
  public static RunRecord run(TestKitJunitResource testKit, ActorRef<WatchEntity.Command> entity) {
    return run(testKit.testKit(), entity);
  }

  public static RunRecord run(ActorTestKit testKit, ActorRef<WatchEntity.Command> entity) {
    TestProbe<StatusReply<RunRecord>> probe = testKit.createTestProbe();
    entity.tell(new WatchEntity.Run(RunRecord.TRIGGER_MANUAL, probe.ref()));
    return probe.receiveMessage(Duration.ofSeconds(10)).getValue();
  }

  /** The JSON body of a disabled watch of one feed, {@code id} in its name and feed URL. */
  public static String disabledBody(String id, String schedule) {
    return Json.text(
        Map.of(
            "id",
            id,
            "name",
            "Watch " + id,
            "condition",
            "something happens",
            "sources",
            List.of(Map.of("type", "rss", "value", "https://example.org/" + id)),
            "schedule",
            schedule,
            "threshold",
            0.8,
            "enabled",
            false));
  }

  /**
   * The JSON body of an enabled watch {@code id} (named so too) of the one feed {@code feed}, on
   * {@code schedule}, alerting {@code channels}.
   */
  public static String feedBody(String id, String feed, String schedule, List<String> channels) {
    return Json.text(
        Map.of(
            "id",
            id,
            "name",
            id,
            "condition",
            "anything",
            "sources",
            List.of(Map.of("type", "rss", "value", feed)),
            "schedule",
            schedule,
            "threshold",
            0.8,
            "channels",
            channels));
  }
}
