package io.periscope.watch;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.typesafe.config.ConfigValueFactory;
import io.periscope.json.Json;
import io.periscope.testing.EntityTestKits;
import io.periscope.testing.TestWatches;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJunitResource;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.SerializerWithStringManifest;
import org.apache.pekko.serialization.jackson.JacksonObjectMapperProvider;
import org.junit.AfterClass;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * The journal's JSON through Jackson's generated accessors (Blackbird, conf/periscope.conf) is the
 * JSON of reflection, byte for byte, both ways: journals written before read as they did, and what
 * is written now reads on a node without them.
 */
public class GeneratedAccessorsTest {
  @ClassRule
  public static final TestKitJunitResource testKit =
      new TestKitJunitResource(EntityTestKits.config());

  private static final String MODULES = "pekko.serialization.jackson.jackson-modules";

  /** The same configuration without Blackbird: reflective accessors, as before it. */
  private static final ActorTestKit reflective =
      ActorTestKit.create(
          EntityTestKits.config()
              .withValue(
                  MODULES,
                  ConfigValueFactory.fromIterable(
                      EntityTestKits.config().getStringList(MODULES).stream()
                          .filter(m -> !m.endsWith("BlackbirdModule"))
                          .toList())));

  @AfterClass
  public static void stopReflective() {
    reflective.shutdownTestKit();
  }

  private static SerializerWithStringManifest serializer(
      org.apache.pekko.actor.typed.ActorSystem<?> system, Object event) {
    return (SerializerWithStringManifest)
        SerializationExtension.get(system).findSerializerFor(event);
  }

  /** A watch's events of a run's life and its state after them, as the journal holds them. */
  private static List<Object> journaled() {
    Instant at = Instant.parse("2026-11-27T09:00:00Z");
    WatchEntity.Created created =
        new WatchEntity.Created(
            TestWatches.acme("Acme launch", 0.5),
            at,
            at.plusSeconds(3600),
            new Actor(Actor.OWNER, "alice"),
            null);
    WatchEntity.RunRecorded judged = JudgedRunJournalTest.largest(true);
    WatchEntity.RunRecorded lean = JudgedRunJournalTest.largest(false);
    WatchEntity.ScheduleAdvanced advanced =
        new WatchEntity.ScheduleAdvanced(at, at.plusSeconds(21_600));
    WatchEntity.RunJudged alerted =
        new WatchEntity.RunJudged(
            lean.record(), List.of("k1", "k2"), List.of("telegram"), Map.of("rss:x", at));
    WatchEntity.State state = WatchEvents.apply(WatchEntity.State.EMPTY, created);
    for (WatchEntity.Event e : List.of(judged, advanced, alerted))
      state = WatchEvents.apply(state, e);
    return List.of(created, judged, lean, advanced, alerted, state);
  }

  private static boolean generated(org.apache.pekko.actor.typed.ActorSystem<?> system) {
    return JacksonObjectMapperProvider.get(system)
        .getOrCreate("jackson-json", Optional.empty())
        .getRegisteredModuleIds()
        .stream()
        .anyMatch(id -> id.toString().contains("Blackbird"));
  }

  @Test
  public void theJournalsJsonIsReflectionsByteForByteAndReadsBothWays() throws Exception {
    assertTrue(generated(testKit.system()));
    assertFalse(generated(reflective.system()));
    for (Object event : journaled()) {
      SerializerWithStringManifest generated = serializer(testKit.system(), event);
      SerializerWithStringManifest plain = serializer(reflective.system(), event);
      String manifest = generated.manifest(event);
      assertEquals(plain.manifest(event), manifest);
      byte[] now = generated.toBinary(event);
      byte[] before = plain.toBinary(event);
      assertArrayEquals(event.getClass().getName(), before, now);
      assertEquals(event, generated.fromBinary(before, manifest));
      assertEquals(event, plain.fromBinary(now, manifest));
    }
  }

  @Test
  public void theServicesOwnMapperUsesThemToo() {
    assertTrue(
        Json.MAPPER.getRegisteredModuleIds().stream()
            .anyMatch(id -> id.toString().contains("Blackbird")));
  }
}
