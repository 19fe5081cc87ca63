package io.periscope.config;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.periscope.runtime.Node;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.Test;

/**
 * The profiles a cluster runs on: three local nodes that do not collide, the environment overriding
 * their ports and seeds, and a node that joins others refusing to start without the journal and the
 * secret they share. (Environment variables are given as root keys of the configuration, where
 * ${?VAR} looks first.)
 */
public class ClusterProfilesTest {
  private static Config load(String profile, Map<String, String> env) {
    return Profiles.load(
        profile, ConfigFactory.parseMap(env).withFallback(Profiles.environment(env)));
  }

  @Test
  public void theThreeLocalNodesHaveTheirOwnPortsAndDataAndJoinTheSameSeeds() {
    Set<Object> ports = new HashSet<>();
    Set<Object> dataDirs = new HashSet<>();
    Set<Object> seeds = new HashSet<>();
    for (int n = 1; n <= 3; n++) {
      Config c = load("local" + n, Map.of());
      ports.add(c.getInt("periscope.http.port"));
      ports.add(c.getInt("pekko.remote.artery.canonical.port"));
      ports.add(c.getInt("pekko.management.http.port"));
      dataDirs.add(c.getString("periscope.data-dir"));
      seeds.add(c.getStringList("pekko.cluster.seed-nodes"));
      assertTrue(c.getBoolean("periscope.management.enabled"));
      assertTrue(Node.joinsOthers(c));
    }
    assertEquals(9, ports.size());
    assertEquals(3, dataDirs.size());
    assertEquals(1, seeds.size());
  }

  @Test
  public void theEnvironmentOverridesPortsAndSeeds() {
    Config c =
        load(
            "local2",
            Map.of(
                "PORT",
                "18082",
                "REMOTE_PORT",
                "27356",
                "MANAGEMENT_PORT",
                "17627",
                "SEED_NODES",
                "10.0.0.1:25520, 10.0.0.2:25520"));
    assertEquals(18082, c.getInt("periscope.http.port"));
    assertEquals(27356, c.getInt("pekko.remote.artery.canonical.port"));
    assertEquals(17627, c.getInt("pekko.management.http.port"));
    assertEquals(
        List.of("pekko://periscope@10.0.0.1:25520", "pekko://periscope@10.0.0.2:25520"),
        c.getStringList("pekko.cluster.seed-nodes"));
  }

  @Test
  public void theDefaultSingleNodeJoinsItselfWithoutManagement() {
    Config c = load("embedded", Map.of());
    assertFalse(Node.joinsOthers(c));
    assertFalse(c.getBoolean("periscope.management.enabled"));
    Node.requireSharedState(c, Settings.from(c)); // no secret, no database: fine for one node
  }

  @Test
  public void aNodeThatJoinsOthersNeedsTheSharedJournalAndSecret() {
    Config noDatabase =
        load("local1", Map.of("AUTH_JWT_SECRET", "a-shared-secret-of-at-least-32-bytes"));
    assertThrows(
        IllegalStateException.class,
        () -> Node.requireSharedState(noDatabase, Settings.from(noDatabase)));
    Config noSecret =
        load("local1", Map.of("DATABASE_URL", "jdbc:postgresql://127.0.0.1:5432/periscope"));
    IllegalStateException refused =
        assertThrows(
            IllegalStateException.class,
            () -> Node.requireSharedState(noSecret, Settings.from(noSecret)));
    assertTrue(refused.getMessage().contains("AUTH_JWT_SECRET"));
    Config noEncryptionKey =
        load(
            "local1",
            Map.of(
                "DATABASE_URL",
                "jdbc:postgresql://127.0.0.1:5432/periscope",
                "AUTH_JWT_SECRET",
                "a-shared-secret-of-at-least-32-bytes"));
    refused =
        assertThrows(
            IllegalStateException.class,
            () -> Node.requireSharedState(noEncryptionKey, Settings.from(noEncryptionKey)));
    assertTrue(refused.getMessage().contains("ENCRYPTION_KEY"));
    Config all =
        load(
            "local1",
            Map.of(
                "DATABASE_URL",
                "jdbc:postgresql://127.0.0.1:5432/periscope",
                "AUTH_JWT_SECRET",
                "a-shared-secret-of-at-least-32-bytes",
                "ENCRYPTION_KEY",
                "a-shared-encryption-key-of-32-bytes-or-more"));
    Node.requireSharedState(all, Settings.from(all));
    Config seeded =
        load(
            "postgres",
            Map.of(
                "DATABASE_URL",
                "jdbc:postgresql://127.0.0.1:5432/periscope",
                "SEED_NODES",
                "127.0.0.1:17355"));
    assertThrows(
        "SEED_NODES makes any profile a cluster node",
        IllegalStateException.class,
        () -> Node.requireSharedState(seeded, Settings.from(seeded)));
  }

  @Test
  public void theKubernetesProfileRequiresPublicUrlAndMetricsTokenWhereOthersDoNot() {
    Map<String, String> both =
        Map.of("PUBLIC_URL", "https://periscope.example.org", "METRICS_TOKEN", "a-scrape-token");
    Settings.from(load("kubernetes", both));
    for (String missing : both.keySet()) {
      Map<String, String> env = new java.util.HashMap<>(both);
      env.remove(missing);
      Config config = load("kubernetes", env);
      IllegalArgumentException refused =
          assertThrows(IllegalArgumentException.class, () -> Settings.from(config));
      assertTrue(
          refused.getMessage(),
          refused.getMessage().startsWith(missing + " must be set on this profile: "));
    }
    for (String profile : List.of("embedded", "postgres", "local1")) {
      Settings.from(load(profile, Map.of()));
    }
  }

  @Test
  public void remotingIsPlainTcpOutsideKubernetesAndTlsThereUnlessTurnedOff() {
    assertEquals("tcp", load("local1", Map.of()).getString("pekko.remote.artery.transport"));
    assertEquals(
        "tls-tcp",
        load("local1", Map.of("REMOTE_TLS", "true")).getString("pekko.remote.artery.transport"));
    assertEquals(
        "tls-tcp", load("kubernetes", Map.of()).getString("pekko.remote.artery.transport"));
    assertEquals(
        "tcp",
        load("kubernetes", Map.of("REMOTE_TLS", "false"))
            .getString("pekko.remote.artery.transport"));
  }
}
