package io.periscope.runtime;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import io.periscope.metrics.Metrics;
import io.periscope.run.RunAllResult;
import io.periscope.testing.EntityTestKits;
import io.periscope.testing.FakePipeline;
import io.periscope.testing.InProcessService;
import io.periscope.testing.TestJournals;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.junit.Test;

/**
 * The one registry of entity types is what both runtimes start and what the meters count: every
 * type the service addresses is registered, started by the sharded runtime and metered, and started
 * as a plain actor by the local one.
 */
public class EntityTypesTest {
  private static final Set<String> REGISTERED =
      EntityTypes.keys().stream().map(EntityTypeKey::name).collect(Collectors.toSet());

  @Test
  public void everyEntityTheServiceAddressesIsRegisteredOnce() throws Exception {
    assertEquals("one entry per type", EntityTypes.ALL.size(), REGISTERED.size());
    Set<String> addressed =
        java.util.Arrays.stream(Entities.class.getInterfaces())
            .map(refs -> typeKeyOf(refs.getEnclosingClass()).name())
            .collect(Collectors.toSet());
    assertEquals(addressed, REGISTERED);
  }

  @Test
  public void theShardedRuntimeStartsAndMetersEveryType() throws Exception {
    Path dataDir = Files.createTempDirectory("periscope-entity-types");
    try (InProcessService service =
        new InProcessService(TestJournals.embedded(dataDir).resolve())) {
      Set<String> regions =
          scala.jdk.javaapi.CollectionConverters.asJava(
              org.apache.pekko.cluster.sharding.ClusterSharding.get(service.system.classicSystem())
                  .shardTypeNames());
      var registry = Metrics.get(service.system).registry();
      for (String type : REGISTERED) {
        assertTrue(type + " has a shard region", regions.contains(type));
        assertNotNull(
            type + " is metered",
            registry.find("periscope.entities.live").tag("type", type).gauge());
      }
    }
  }

  @Test
  public void theLocalRuntimeStartsEveryType() throws Exception {
    ActorTestKit testKit = ActorTestKit.create(EntityTestKits.config());
    try {
      LocalEntities entities = new LocalEntities(testKit.system());
      entities.start(
          FakePipeline.noRuns(),
          (owner, watchIds, progress) -> CompletableFuture.completedFuture((RunAllResult) null),
          (candidate, runs, progress) -> new CompletableFuture<>(),
          Clock.systemUTC());
      List<ActorRef<?>> started =
          EntityTypes.ALL.stream().<ActorRef<?>>map(type -> entities.spawn(type, "probe")).toList();
      // a live actor resolves by its path; one whose behaviour failed to start has stopped
      for (ActorRef<?> entity : started)
        testKit
            .system()
            .classicSystem()
            .actorSelection(entity.path())
            .resolveOne(Duration.ofSeconds(5))
            .toCompletableFuture()
            .get();
    } finally {
      testKit.shutdownTestKit();
    }
  }

  private static EntityTypeKey<?> typeKeyOf(Class<?> entity) {
    try {
      return (EntityTypeKey<?>) entity.getField("TYPE_KEY").get(null);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(entity + " declares no TYPE_KEY", e);
    }
  }
}
