package io.periscope.runtime;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.periscope.config.Profiles;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.Test;

/**
 * Which node may form a cluster, how one joins the running cluster instead, and what a node alone
 * does less often.
 */
public class NodeTest {
  private static Config node(int port, boolean bootstrap, String... seeds) {
    return ConfigFactory.parseMap(
        Map.of(
            "pekko.remote.artery.canonical.hostname",
            "127.0.0.1",
            "pekko.remote.artery.canonical.port",
            port,
            "pekko.cluster.seed-nodes",
            List.of(seeds),
            "periscope.cluster.bootstrap",
            bootstrap,
            "pekko.management.cluster.bootstrap.new-cluster-enabled",
            true));
  }

  private static final String FIRST = "pekko://periscope@127.0.0.1:17355";
  private static final String SECOND = "pekko://periscope@127.0.0.1:17356";

  @Test
  public void theFirstSeedNodeJoinsTheOthersWithoutItself() {
    Config first = node(17355, false, FIRST, SECOND);
    assertTrue(Node.mayFormCluster(first));
    assertFalse("the second seed node", Node.mayFormCluster(node(17356, false, FIRST, SECOND)));
    assertFalse("no seed nodes: it joins itself alone", Node.mayFormCluster(node(17355, false)));
    Config joining = Node.joiningOthersOnly(first);
    assertEquals(List.of(SECOND), joining.getStringList("pekko.cluster.seed-nodes"));
    assertFalse(Node.mayFormCluster(joining));
    assertTrue("it still joins others", Node.joinsOthers(joining));
  }

  @Test
  public void aSoleSeedNodeHasNoOneToJoinWhileAClusterRuns() {
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class, () -> Node.joiningOthersOnly(node(17355, false, FIRST)));
    assertTrue(e.getMessage(), e.getMessage().contains("SEED_NODES"));
  }

  @Test
  public void underBootstrapANodeJoinsWithoutFormingACluster() {
    Config bootstrapped = node(17355, true);
    assertTrue(Node.mayFormCluster(bootstrapped));
    assertFalse(
        Node.joiningOthersOnly(bootstrapped)
            .getBoolean("pekko.management.cluster.bootstrap.new-cluster-enabled"));
  }

  @Test
  public void aNodeAloneDoesItsPeriodicWorkLessOftenAndAClusterNodeAsPekkoDoes() {
    Config alone = Node.alone(Profiles.load("embedded"));
    Config clustered = Node.alone(Profiles.load("local1"));
    for (String key : Node.ONE_NODE.keySet()) {
      Duration lowered = ConfigFactory.parseMap(Node.ONE_NODE).getDuration(key);
      assertTrue("a setting Pekko has: " + key, clustered.hasPath(key));
      assertEquals(key, lowered, alone.getDuration(key));
      assertTrue(key + " is Pekko's", clustered.getDuration(key).compareTo(lowered) < 0);
    }
    assertEquals(
        "the cluster's scheduler shares the system's tick",
        Duration.ofMillis(100),
        alone.getDuration("pekko.cluster.scheduler.tick-duration"));
    assertEquals(Duration.ofMillis(10), clustered.getDuration("pekko.scheduler.tick-duration"));
    assertEquals(
        "the journal's sequence query as often as its poll",
        Duration.ofSeconds(3),
        alone.getDuration(Node.JOURNAL_SEQUENCE_POLL));
    assertEquals(Duration.ofSeconds(1), clustered.getDuration(Node.JOURNAL_SEQUENCE_POLL));
    assertEquals(
        "the failure detector's heartbeat is Pekko's either way",
        clustered.getDuration("pekko.cluster.failure-detector.heartbeat-interval"),
        alone.getDuration("pekko.cluster.failure-detector.heartbeat-interval"));
    assertEquals(Duration.ofSeconds(1), alone.getDuration("pekko.cluster.leader-actions-interval"));
    assertEquals(
        "sharding's retry is Pekko's: a region registers after an eighth of it at start",
        clustered.getDuration("pekko.cluster.sharding.retry-interval"),
        alone.getDuration("pekko.cluster.sharding.retry-interval"));
  }

  @Test
  public void onANodeAloneEveryRegionButTheKeyPoolsRetriesEvery10Seconds() {
    Config alone = Node.alone(Profiles.load("embedded"));
    assertEquals(Optional.of(Duration.ofSeconds(10)), Node.regionRetry(alone, EntityTypes.WATCH));
    assertEquals(
        "start-up waits on the key pools' region",
        Optional.empty(),
        Node.regionRetry(alone, EntityTypes.KEY_POOL));
    for (EntityTypes.EntityType<?> type : EntityTypes.ALL) {
      assertEquals(
          "a cluster's regions retry as Pekko says",
          Optional.empty(),
          Node.regionRetry(Node.alone(Profiles.load("local1")), type));
    }
    Config given =
        Node.alone(
            ConfigFactory.parseMap(Map.of("pekko.cluster.sharding.retry-interval", "3s"))
                .withFallback(Profiles.load("embedded")));
    assertEquals(Optional.empty(), Node.regionRetry(given, EntityTypes.WATCH));
  }

  @Test
  public void ourOwnDefaultsAreLoweredOnANodeAloneAndAProfilesOwnSettingStays() {
    assertEquals(
        Duration.ofSeconds(1),
        Node.alone(Profiles.load("embedded")).getDuration(Node.INDEX_GROUP_WITHIN));
    assertEquals(
        "a cluster's projection groups as the default says",
        Duration.ofMillis(100),
        Node.alone(Profiles.load("local1")).getDuration(Node.INDEX_GROUP_WITHIN));
    Config fast =
        Node.alone(
            ConfigFactory.parseMap(Map.of(Node.INDEX_GROUP_WITHIN, "100ms"))
                .withFallback(Profiles.load("embedded")));
    assertEquals(Duration.ofMillis(100), fast.getDuration(Node.INDEX_GROUP_WITHIN));
  }

  @Test
  public void aSettingGivenExplicitlyStaysOnANodeAlone() {
    Config fast =
        Node.alone(
            ConfigFactory.parseMap(Map.of(Node.JOURNAL_POLL, "100ms"))
                .withFallback(Profiles.load("embedded")));
    assertEquals(Duration.ofMillis(100), fast.getDuration(Node.JOURNAL_POLL));
    assertEquals(Duration.ofMillis(100), fast.getDuration(Node.JOURNAL_SEQUENCE_POLL));
    assertEquals(Duration.ofMillis(100), fast.getDuration("pekko.scheduler.tick-duration"));
  }
}
