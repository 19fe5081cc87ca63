package io.periscope.testing;

import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.json.Json;
import io.periscope.watch.RunRecord;
import io.periscope.watch.Watch;
import io.periscope.watch.WatchEntity;
import io.periscope.watch.WatchSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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

  /**
   * A watch body as the API takes it: {@code id}, named so too, of the condition "something
   * happens", due only on 1 January (so that the runs a test sees are the ones it starts), alerting
   * from 0.8; its sources are those added, else one feed that answers nothing (on the discard port
   * of loopback, so that neither a save's look at it nor a run goes off the machine). Channels,
   * {@code enabled} and {@code weakThreshold} are sent only when set (the API takes their absence
   * as none, true and none).
   */
  public static Body body(String id) {
    return new Body(id);
  }

  /** A watch body being written; see {@link #body}. */
  public static final class Body {
    private final String id;
    private final Map<String, Object> fields = new LinkedHashMap<>();
    private final List<Map<String, Object>> sources = new ArrayList<>();

    private Body(String id) {
      this.id = id;
      fields.put("id", id);
      fields.put("name", id);
      fields.put("condition", "something happens");
      fields.put("schedule", "0 0 1 1 *");
      fields.put("threshold", 0.8);
    }

    public Body name(String name) {
      return set("name", name);
    }

    public Body condition(String condition) {
      return set("condition", condition);
    }

    /** Adds the RSS or Atom feed at {@code url} to the sources. */
    public Body feed(String url) {
      return source(Map.of("type", "rss", "value", url));
    }

    /** Adds a web search for {@code query} to the sources. */
    public Body search(String query) {
      return source(Map.of("type", "search", "value", query));
    }

    /** Adds {@code source}, as the API takes a source (type, value, trust, ...). */
    public Body source(Map<String, ?> source) {
      sources.add(new LinkedHashMap<>(source));
      return this;
    }

    /** A cron expression, in the watch's time zone (UTC when not sent). */
    public Body schedule(String schedule) {
      return set("schedule", schedule);
    }

    /** Sends {@code channels} (an empty list too) as the watch's channels. */
    public Body channels(List<String> channels) {
      return set("channels", List.copyOf(channels));
    }

    /** The least confidence of a met verdict that alerts. */
    public Body threshold(double threshold) {
      return set("threshold", threshold);
    }

    /** Sends the one channel {@code channel}. */
    public Body channel(String channel) {
      return channels(List.of(channel));
    }

    /** The least confidence of a met verdict kept as a weak alert (none when not sent). */
    public Body weakThreshold(double weakThreshold) {
      return set("weakThreshold", weakThreshold);
    }

    public Body enabled(boolean enabled) {
      return set("enabled", enabled);
    }

    private Body set(String field, Object value) {
      fields.put(field, value);
      return this;
    }

    public String json() {
      return Json.text(fields());
    }

    public ObjectNode tree() {
      return Json.MAPPER.valueToTree(fields());
    }

    private Map<String, Object> fields() {
      Map<String, Object> body = new LinkedHashMap<>(fields);
      body.put(
          "sources",
          sources.isEmpty()
              ? List.of(Map.of("type", "rss", "value", "http://127.0.0.1:9/" + id + ".xml"))
              : sources);
      return body;
    }
  }

  /** The JSON body of a disabled watch of one feed, {@code id} in its name and feed URL. */
  public static String disabledBody(String id, String schedule) {
    return body(id)
        .name("Watch " + id)
        .feed("https://example.org/" + id)
        .schedule(schedule)
        .enabled(false)
        .json();
  }

  /**
   * The JSON body of an enabled watch {@code id} (named so too) of the one feed {@code feed}, on
   * {@code schedule}, alerting {@code channels}.
   */
  public static String feedBody(String id, String feed, String schedule, List<String> channels) {
    return body(id).condition("anything").feed(feed).schedule(schedule).channels(channels).json();
  }
}
