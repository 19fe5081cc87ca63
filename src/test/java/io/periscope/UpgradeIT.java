package io.periscope;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.testing.ApiClient;
import io.periscope.testing.FakeUpstream;
import io.periscope.testing.LocalCluster;
import io.periscope.testing.NeedsPostgres;
import io.periscope.testing.PreviousRelease;
import io.periscope.testing.RetryingClient;
import io.periscope.testing.Traffic;
import io.periscope.watch.RunRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.After;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * A rolling upgrade from the previous release ({@link PreviousRelease}) to this build, on one
 * PostgreSQL journal (a scratch database of its own): node 1 of the previous release forms the
 * cluster, node 2 of this build joins it, and two clients create, replace and run watches through
 * the nodes (feeds, model and webhooks are loopback fakes) while, as a Kubernetes rolling update
 * does, node 3 of this build joins on an address of its own and node 1 leaves. No request fails
 * that a client does not retry (connection refused or reset, 503); afterwards nodes 2 and 3 list
 * every acknowledged write as last written, every acknowledged run is in its watch's history, every
 * alert of one delivered, and the watches run on.
 */
@Category(NeedsPostgres.class)
public class UpgradeIT {
  private static final String PASSWORD = "an-upgrade-passphrase";
  private static final Duration MIXED = Duration.ofSeconds(8);
  private static final Duration AFTER = Duration.ofSeconds(5);

  private final ApiClient api = new ApiClient();
  private FakeUpstream upstream;
  private LocalCluster cluster;

  @After
  public void stop() throws Exception {
    if (cluster != null) cluster.close();
    if (upstream != null) upstream.close();
  }

  @Test
  public void aNodeOfThePreviousReleaseRollsToThisOneUnderTrafficLosingAndRefusingNothing()
      throws Exception {
    Path previous = PreviousRelease.jar();
    upstream = new FakeUpstream(Duration.ZERO, Duration.ZERO, true, 3);
    Map<String, String> env = new HashMap<>(upstream.serviceEnv("sk-upgrade-test-0001"));
    env.putAll(
        Map.of(
            "QUOTA_MAX_WATCHES", "0",
            "QUOTA_MODEL_CALLS_PER_DAY", "0",
            "READS_PER_OWNER_PER_MINUTE", "100000"));
    // every run alerts: its deliveries must not meet the hourly limit of one owner, and one the
    // roll delays is tried again within seconds
    env.put(
        "JAVA_TOOL_OPTIONS",
        "-Dpekko.cluster.shutdown-after-unsuccessful-join-seed-nodes=off"
            + " -Dperiscope.rate-limits.notifications-per-owner-per-hour=100000"
            + " -Dperiscope.notify.retry.first-backoff=1s -Dperiscope.notify.retry.max-backoff=5s");
    // node 3 is the pod a rolling update adds: this build, on an address of its own
    cluster = new LocalCluster("upgrade", 3, env);
    cluster.useJar(1, previous);
    cluster.start(2);
    cluster.createUser("alice", "user", PASSWORD); // with the previous release's command line
    String alice = api.login(cluster.node(1).uri("/"), "alice@example.org", PASSWORD);

    RetryingClient client = new RetryingClient(cluster);
    List<String> failures = new CopyOnWriteArrayList<>();
    Map<String, String> written = new ConcurrentHashMap<>(); // id → condition last acknowledged
    Map<String, List<String>> ran = new ConcurrentHashMap<>(); // id → acknowledged run ids
    Map<String, Errored> errored = new ConcurrentHashMap<>(); // by run id
    Traffic traffic =
        Traffic.start(
            2,
            (which, i) -> {
              String id = "u-" + which + "-" + i;
              int node = 1 + (i + which) % 3;
              String hook = "webhook:" + upstream.hookUrl(id);
              RetryingClient.Answered created =
                  client.send("POST", node, "/watches", alice, upstream.alertingWatch(id, hook));
              // a create retried after its first try was written meets itself
              if (!(created.tries() > 1 && created.status() == 409)) {
                RetryingClient.expect(201, created, failures, "create " + id);
              }
              written.put(id, "anything");
              String replacement = upstream.alertingWatch(id, "anything new", hook);
              RetryingClient.expect(
                  200,
                  client.send("PUT", node + 1, "/watches/" + id, alice, replacement),
                  failures,
                  "replace " + id);
              written.put(id, "anything new");
              run(client, node, id, alice, ran, errored, failures);
              Thread.sleep(200);
            });
    Thread.sleep(MIXED.toMillis());
    cluster.node(3).launch();
    cluster.awaitReady(3);
    cluster.node(1).stop(); // SIGTERM: the previous release hands its shards over and leaves
    Thread.sleep(AFTER.toMillis());
    // on a loaded machine the roll may pass within a few requests: a few more after it
    for (int i = 0; i < 180 && written.size() < 10; i++) Thread.sleep(1000);
    traffic.stop();

    int runs = ran.values().stream().mapToInt(List::size).sum();
    System.out.println(
        "event=upgrade writes="
            + written.size()
            + " runs="
            + runs
            + " retries="
            + client.retries()
            + " errored="
            + errored);
    assertEquals("no request failed but the retried ones: " + failures, List.of(), failures);
    assertTrue("the clients kept working: " + written.size(), written.size() >= 10);
    assertTrue("most runs alerted: " + runs + ", errors " + errored, runs >= 4 * errored.size());

    for (int node = 2; node <= 3; node++) {
      JsonNode list =
          ApiClient.json(api.send("GET", cluster.node(node).uri("/watches"), alice, null))
              .get("watches");
      Map<String, String> listed = new TreeMap<>();
      list.forEach(w -> listed.put(w.get("id").asText(), w.get("condition").asText()));
      assertEquals(
          "node " + node + " lists every acknowledged write as last written",
          new TreeMap<>(written),
          listed);
    }
    Map<String, List<String>> acknowledged = new HashMap<>();
    ran.forEach((id, runIds) -> acknowledged.put(id, new ArrayList<>(runIds)));
    errored.forEach(
        (runId, run) ->
            acknowledged.computeIfAbsent(run.watchId(), k -> new ArrayList<>()).add(runId));
    int node = 2;
    for (Map.Entry<String, List<String>> watch : acknowledged.entrySet()) {
      node = 5 - node;
      History history = history(node, watch.getKey(), alice);
      assertTrue(
          "node " + node + " has every acknowledged run of " + watch.getKey() + ": " + history,
          history.runIds().containsAll(watch.getValue()));
    }
    awaitAlerts(ran);

    // the watches written while the previous release ran go on running, on either node
    for (String id : List.of("u-0-0", "u-1-0")) {
      for (int n = 2; n <= 3; n++) {
        Map<String, List<String>> more = new HashMap<>();
        Map<String, Errored> failed = new HashMap<>();
        run(client, n, id, alice, more, failed, failures);
        assertEquals(failures.toString(), List.of(), failures);
        assertEquals("node " + n + " runs " + id + ": " + failed, 1, more.get(id).size());
      }
    }
    JsonNode members =
        ApiClient.json(api.send("GET", cluster.management(2, "/cluster/members"), null, null));
    assertEquals(List.of("Up", "Up"), members.get("members").findValuesAsText("status"));
  }

  /**
   * Runs watch {@code id} now. An acknowledged run goes to {@code ran} if it alerted, else to
   * {@code errored} when it recorded an error (a step that timed out while shards moved between the
   * nodes: recorded, with its reason, not lost); any other answer is a failure.
   */
  private static void run(
      RetryingClient client,
      int node,
      String id,
      String token,
      Map<String, List<String>> ran,
      Map<String, Errored> errored,
      List<String> failures)
      throws Exception {
    RetryingClient.Answered answered =
        client.send("POST", node, "/watches/" + id + "/run", token, null);
    RetryingClient.expect(200, answered, failures, "run " + id);
    if (answered.status() != 200) return;
    JsonNode result = ApiClient.json(answered.response()).get("result");
    String runId = result.get("runId").asText();
    switch (result.get("outcome").asText()) {
      case RunRecord.ALERT -> ran.computeIfAbsent(id, k -> new CopyOnWriteArrayList<>()).add(runId);
      case RunRecord.ERROR -> errored.put(runId, new Errored(id, result.get("error").asText()));
      default -> failures.add("run " + id + " neither alerted nor recorded an error: " + result);
    }
  }

  /** A run that recorded an error instead of a verdict, and the error. */
  private record Errored(String watchId, String error) {}

  private record History(Set<String> runIds, String body) {}

  private History history(int node, String id, String token) throws Exception {
    var r = api.send("GET", cluster.node(node).uri("/watches/" + id + "/runs"), token, null);
    assertEquals(r.body(), 200, r.statusCode());
    return new History(
        Set.copyOf(ApiClient.json(r).get("runs").findValuesAsText("runId")), r.body());
  }

  /**
   * Every acknowledged run alerted: its webhook got it, also when the run's node left before it was
   * delivered (the outbox is in the watch's journal).
   */
  private void awaitAlerts(Map<String, List<String>> ran) throws InterruptedException {
    Instant deadline = Instant.now().plusSeconds(120);
    Map<String, Integer> missing;
    do {
      Map<String, Integer> received = new HashMap<>();
      upstream.alerts().forEach(a -> received.merge(a.watchId(), 1, Integer::sum));
      missing = new TreeMap<>();
      for (Map.Entry<String, List<String>> watch : ran.entrySet()) {
        int owed = watch.getValue().size() - received.getOrDefault(watch.getKey(), 0);
        if (owed > 0) missing.put(watch.getKey(), owed);
      }
      if (missing.isEmpty()) return;
      Thread.sleep(500);
    } while (Instant.now().isBefore(deadline));
    throw new AssertionError("alerts of acknowledged runs never delivered: " + missing);
  }
}
