package io.periscope;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.json.Json;
import io.periscope.testing.ApiClient;
import io.periscope.testing.LocalCluster;
import io.periscope.testing.NeedsPostgres;
import io.periscope.testing.RetryingClient;
import io.periscope.testing.ServiceProcess;
import io.periscope.testing.Traffic;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.After;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * Nodes restarted on the address they had (a StatefulSet's pod coming back) while one account's
 * quota and webhook-secret entities are written through both nodes, the first seed node while its
 * peer answers nothing for longer than Pekko's seed-node-timeout: the nodes stay one cluster, so
 * each entity has one writer; no write meets a sequence number another copy wrote ({@code duplicate
 * key} in a log), and every acknowledged write is read back through each node.
 */
@Category(NeedsPostgres.class)
public class SameAddressRestartIT {
  private static final String PASSWORD = "a-cluster-passphrase";

  private final ApiClient api = new ApiClient();
  private LocalCluster cluster;

  @After
  public void stop() throws Exception {
    if (cluster != null) cluster.close();
  }

  @Test
  public void nodesRestartedOnTheirAddressLeaveOneWriterPerEntityAndLoseNoAcknowledgedWrite()
      throws Exception {
    cluster =
        new LocalCluster(
            "same-address",
            2,
            Map.of(
                "PEKKO_LOG_LEVEL",
                "INFO",
                "JAVA_TOOL_OPTIONS",
                "-Dpekko.cluster.shutdown-after-unsuccessful-join-seed-nodes=off"));
    cluster.start();
    cluster.createUser("root", "admin", PASSWORD);
    cluster.createUser("alice", "user", PASSWORD);
    String root = api.login(cluster.node(1).uri("/"), "root@example.org", PASSWORD);
    String alice = api.login(cluster.node(1).uri("/"), "alice@example.org", PASSWORD);

    RetryingClient retrying = new RetryingClient(cluster);
    List<String> failures = new CopyOnWriteArrayList<>();
    AtomicInteger lastQuota = new AtomicInteger(); // the overrides last acknowledged
    Set<String> rotated = ConcurrentHashMap.newKeySet(); // endpoints whose secret was acknowledged
    AtomicInteger step = new AtomicInteger();
    // Client 0 overrides alice's quotas (Quota|alice), client 1 rotates her webhooks' secrets
    // (WebhookSecret|alice), each through one node, then the other.
    Traffic.Step writes =
        (client, i) -> {
          int n = step.incrementAndGet();
          int node = 1 + n % cluster.size();
          if (client == 0) {
            RetryingClient.Answered set =
                retrying.send(
                    "PUT",
                    node,
                    "/admin/users/alice/quotas",
                    root,
                    Json.text(Map.of("modelCallsPerDay", n)));
            RetryingClient.expect(200, set, failures, "quota " + n);
            if (set.status() == 200) lastQuota.set(n);
          } else {
            // A hundred endpoints, each rotated again and again: a new endpoint every write would
            // grow her listing (one message between nodes) with the machine's speed, not the
            // test's.
            String url = "http://127.0.0.1:9/hook-" + n % 100;
            RetryingClient.Answered made =
                retrying.send("POST", node, "/channels/webhook-secret?url=" + url, alice, null);
            RetryingClient.expect(201, made, failures, "secret of " + url);
            if (made.status() == 201) rotated.add(url);
          }
        };

    Traffic traffic = Traffic.start(2, writes);
    Thread.sleep(2000);
    cluster.restart(2); // back on its address, joining node 1
    Thread.sleep(3000);
    traffic.stop();

    // Node 1, the first seed node, comes back on its address while node 2 answers nothing for
    // longer than Pekko's seed-node-timeout (5 s), as a node starved of CPU may. No traffic
    // meanwhile: a request held by the paused node would be applied after a later one.
    cluster.node(1).stop();
    cluster.node(2).pause();
    try {
      cluster.node(1).launch();
      cluster.node(1).awaitOk(cluster.management(1, "/alive"), LocalCluster.START_PATIENCE);
      Thread.sleep(10_000);
    } finally {
      cluster.node(2).resume();
    }
    cluster.awaitReady(1);
    traffic = Traffic.start(2, writes);
    Thread.sleep(20_000);
    traffic.stop();

    System.out.println(
        "event=same-address-restart quota-writes="
            + lastQuota.get()
            + " secrets="
            + rotated.size()
            + " retries="
            + retrying.retries());
    assertEquals("no request failed but the retried ones: " + failures, List.of(), failures);
    assertTrue("the clients kept working", lastQuota.get() >= 10 && rotated.size() >= 10);
    for (int n = 1; n <= cluster.size(); n++) {
      JsonNode members =
          ApiClient.json(api.send("GET", cluster.management(n, "/cluster/members"), null, null));
      assertEquals(
          "node " + n + " is in the one cluster of both nodes: " + members,
          List.of("Up", "Up"),
          members.get("members").findValuesAsText("status"));
    }
    for (int n = 1; n <= cluster.size(); n++) {
      JsonNode quotas =
          ApiClient.json(
              api.send("GET", cluster.node(n).uri("/admin/users/alice/quotas"), root, null));
      assertEquals(
          "node " + n + " reads the last acknowledged overrides: " + quotas,
          lastQuota.get(),
          quotas.at("/overrides/modelCallsPerDay").asInt());
      JsonNode secrets =
          ApiClient.json(
              api.send("GET", cluster.node(n).uri("/channels/webhook-secret"), alice, null));
      Set<String> listed = new HashSet<>(secrets.get("endpoints").findValuesAsText("url"));
      Set<String> missing = new HashSet<>(rotated);
      missing.removeAll(listed);
      assertEquals("node " + n + " has every acknowledged secret", Set.of(), missing);
    }
    List<String> duplicates = new ArrayList<>();
    for (int n = 1; n <= cluster.size(); n++) {
      for (String line : Files.readAllLines(ServiceProcess.logFile("same-address-node" + n)))
        if (line.contains("duplicate key")) duplicates.add("node " + n + ": " + line);
    }
    assertEquals("no write met another writer's sequence number", List.of(), duplicates);
  }
}
