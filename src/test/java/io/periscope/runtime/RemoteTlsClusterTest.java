package io.periscope.runtime;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import com.typesafe.config.Config;
import io.periscope.account.AccountEntity;
import io.periscope.testing.InProcessService;
import io.periscope.testing.LiveEntities;
import io.periscope.testing.RemoteTlsFiles;
import io.periscope.testing.ServiceProcess;
import io.periscope.testing.TestJournals;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import okhttp3.tls.HeldCertificate;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.junit.After;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * Nodes in this JVM on one journal with remoting over TLS (REMOTE_TLS, REMOTE_TLS_DIR), on
 * certificates the test makes: two whose certificates the cluster's CA issued form the cluster and
 * answer a request through an entity on the other node; a third whose certificate another CA issued
 * cannot join. The third trusts the cluster's CA and carries the cluster's subject name, so what
 * keeps it out is the cluster's nodes checking the certificate it presents: mutual authentication.
 */
public class RemoteTlsClusterTest {
  private static final String PASSWORD = "remote-tls-passphrase";

  /**
   * How long the stranger tries to join: a node with the right certificate joins in a few seconds.
   */
  private static final Duration STRANGER_PATIENCE = Duration.ofSeconds(20);

  @Rule public final TemporaryFolder folder = new TemporaryFolder();
  private final String database = "remote-tls-" + UUID.randomUUID();
  private final List<InProcessService> nodes = new ArrayList<>();

  @After
  public void stop() throws Exception {
    for (InProcessService node : nodes) node.close();
  }

  /** A node on the shared journal whose REMOTE_TLS_DIR is {@code tls}, joining the seed node. */
  private Config node(Path tls, int port, int seedPort) throws Exception {
    return TestJournals.h2(
        Map.of(
            "REMOTE_TLS",
            "true",
            "REMOTE_TLS_DIR",
            tls.toString(),
            "pekko-persistence-jdbc.shared-databases.periscope.db.url",
            "jdbc:h2:mem:" + database + ";DB_CLOSE_DELAY=-1",
            "periscope.data-dir",
            folder.newFolder().toString(),
            "pekko.remote.artery.canonical.port",
            port,
            "pekko.cluster.seed-nodes",
            List.of("pekko://periscope@127.0.0.1:" + seedPort)));
  }

  private Path files(String name, HeldCertificate node, HeldCertificate trusted) throws Exception {
    return RemoteTlsFiles.write(folder.getRoot().toPath().resolve(name), node, trusted);
  }

  @Test
  public void nodesOfTheClustersCaFormItAndServeWhileANodeOfAnotherCaCannotJoin() throws Exception {
    HeldCertificate ca = RemoteTlsFiles.authority("periscope-test-ca");
    HeldCertificate otherCa = RemoteTlsFiles.authority("another-ca");
    int seedPort = ServiceProcess.freePort();
    Config firstConfig = node(files("first", RemoteTlsFiles.node(ca), ca), seedPort, seedPort);
    assertEquals("tls-tcp", firstConfig.getString("pekko.remote.artery.transport"));
    RemoteTls.check(firstConfig); // as serve checks it before it starts

    nodes.add(new InProcessService(firstConfig));
    nodes.add(
        new InProcessService(
            node(
                files("second", RemoteTlsFiles.node(ca), ca),
                ServiceProcess.freePort(),
                seedPort)));
    InProcessService first = nodes.get(0);
    InProcessService second = nodes.get(1);
    Set<String> members = Set.of(address(first.system), address(second.system));
    for (int i = 0; i < 100 && !upMembers(first.system).equals(members); i++) Thread.sleep(100);
    assertEquals("both are Up (as the seed node sees it)", members, upMembers(first.system));

    // The account's entity lives on one node; the other answers for it, over TLS.
    first.account("rita", "user", PASSWORD);
    InProcessService host = hosts(first, "rita") ? first : second;
    InProcessService other = host == first ? second : first;
    assertTrue("one node hosts the account", hosts(host, "rita") && !hosts(other, "rita"));
    String token = other.login("rita", PASSWORD);
    assertEquals(
        "rita",
        InProcessService.json(other.call("GET", "/account", token, null), 200).get("id").asText());

    Config stranger =
        node(
            files("stranger", RemoteTlsFiles.node(otherCa), ca),
            ServiceProcess.freePort(),
            seedPort);
    IllegalStateException refused =
        assertThrows(
            IllegalStateException.class, () -> Node.startClusterNode(stranger, STRANGER_PATIENCE));
    assertTrue(refused.getMessage(), refused.getMessage().contains("did not join"));
    assertEquals("the cluster is still its two nodes", members, upMembers(first.system));
    assertEquals(members, upMembers(second.system));
  }

  private static String address(ActorSystem<?> system) {
    return Cluster.get(system).selfMember().address().toString();
  }

  private static Set<String> upMembers(ActorSystem<?> system) {
    return java.util.stream.StreamSupport.stream(
            Cluster.get(system).state().getMembers().spliterator(), false)
        .filter(m -> m.status() == MemberStatus.up())
        .map(m -> m.address().toString())
        .collect(Collectors.toSet());
  }

  /** Whether the account {@code id}'s entity runs on {@code node}. */
  private static boolean hosts(InProcessService node, String id) throws Exception {
    return LiveEntities.on(node.system, AccountEntity.TYPE_KEY).contains(id);
  }
}
