package io.periscope;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.json.Json;
import io.periscope.testing.ApiClient;
import io.periscope.testing.FakeUpstream;
import io.periscope.testing.FlakyWebhookReceiver;
import io.periscope.testing.LocalCluster;
import io.periscope.testing.NeedsPostgres;
import io.periscope.testing.RetryingClient;
import io.periscope.testing.ServiceProcess;
import io.periscope.testing.TestWatches;
import io.periscope.testing.Traffic;
import io.periscope.watch.RunRecord;
import io.periscope.watch.WatchEntity;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.After;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * Three nodes of the jar on one PostgreSQL journal (conf/local1..3, see {@link LocalCluster}), with
 * loopback fakes of feeds, model and webhooks: any node answers for any watch; a node killed with
 * {@code kill -9} has its watches running on the survivors within 30 s, with no acknowledged write
 * lost, no due time run twice and no item alerted twice; a rolling restart under a reading and
 * writing client fails no request the client does not retry (connection refused or reset, 503) and
 * loses nothing; a delivery still owed when its watch's node leaves gracefully is made once by a
 * survivor.
 */
@Category(NeedsPostgres.class)
public class ClusterIT {
  private static final String PASSWORD = "a-cluster-passphrase";

  private final ApiClient api = new ApiClient();
  private FakeUpstream upstream;
  private LocalCluster cluster;

  @After
  public void stop() throws Exception {
    if (cluster != null) cluster.close();
    if (upstream != null) upstream.close();
  }

  private LocalCluster startCluster(String name) throws Exception {
    return startCluster(name, Map.of());
  }

  /** {@code extra}: settings every node gets besides the fakes'. */
  private LocalCluster startCluster(String name, Map<String, String> extra) throws Exception {
    upstream = new FakeUpstream(Duration.ZERO, Duration.ZERO, true, 3);
    Map<String, String> env = new HashMap<>(upstream.serviceEnv("sk-cluster-test-0001"));
    env.put("QUOTA_MIN_INTERVAL", "1m"); // schedules of every minute
    env.putAll(extra);
    cluster = new LocalCluster(name, env);
    cluster
        .start(); // once assigned, so that a failed start still stops its processes and drops its
    // database
    for (String[] account :
        new String[][] {{"root", "admin"}, {"alice", "user"}, {"bob", "user"}}) {
      cluster.createUser(account[0], account[1], PASSWORD);
    }
    return cluster;
  }

  private URI on(int node, String path) {
    return cluster.node(node).uri(path);
  }

  private String login(int node, String account) throws Exception {
    return api.login(on(node, "/"), account + "@example.org", PASSWORD);
  }

  private String watch(String id, String condition, String schedule, boolean enabled) {
    return watch(id, condition, schedule, enabled, "webhook:" + upstream.hookUrl(id));
  }

  private String watch(
      String id, String condition, String schedule, boolean enabled, String channel) {
    return TestWatches.body(id)
        .condition(condition)
        .feed(upstream.feedUrl(id))
        .schedule(schedule)
        .channel(channel)
        .threshold(0.5)
        .enabled(enabled)
        .json();
  }

  private static List<JsonNode> runs(HttpResponse<String> r) throws IOException {
    List<JsonNode> runs = new ArrayList<>();
    ApiClient.json(r).get("runs").forEach(runs::add);
    return runs;
  }

  // ---- (1) any node answers
  // ------------------------------------------------------------------------

  @Test
  public void watchesCreatedThroughOneNodeAreReadReplacedAndRunThroughTheOthers() throws Exception {
    startCluster("any-node");
    String alice = login(1, "alice");
    String body = watch("launch", "a launch date is set", "0 0 1 1 *", true);
    assertEquals(201, api.send("POST", on(1, "/watches"), alice, body).statusCode());

    for (int node : new int[] {2, 3}) {
      HttpResponse<String> got = api.send("GET", on(node, "/watches/launch"), alice, null);
      assertEquals("node " + node + ": " + got.body(), 200, got.statusCode());
      assertEquals("a launch date is set", ApiClient.json(got).get("condition").asText());
    }
    HttpResponse<String> replaced =
        api.send(
            "PUT",
            on(2, "/watches/launch"),
            alice,
            watch("launch", "a launch date is announced", "0 0 1 1 *", true));
    assertEquals(replaced.body(), 200, replaced.statusCode());
    JsonNode list = ApiClient.json(api.send("GET", on(3, "/watches"), alice, null));
    assertEquals(
        "a launch date is announced", list.get("watches").get(0).get("condition").asText());

    HttpResponse<String> run = api.send("POST", on(3, "/watches/launch/run"), alice, null);
    assertEquals(run.body(), 200, run.statusCode());
    JsonNode result = ApiClient.json(run).get("result");
    assertEquals(RunRecord.ALERT, result.get("outcome").asText());
    assertEquals(1, result.get("notificationsSent").asInt());
    assertEquals(1, upstream.alerts().size());
    List<JsonNode> history = runs(api.send("GET", on(1, "/watches/launch/runs"), alice, null));
    assertEquals(1, history.size());
    assertEquals(result.get("runId"), history.get(0).get("runId"));

    // ownership and roles hold on every node, whichever node signed the token in
    String bob = login(3, "bob");
    for (int node = 1; node <= 3; node++) {
      assertEquals(404, api.send("GET", on(node, "/watches/launch"), bob, null).statusCode());
      assertEquals(
          0,
          ApiClient.json(api.send("GET", on(node, "/watches"), bob, null)).get("watches").size());
      assertEquals(403, api.send("GET", on(node, "/admin/users"), bob, null).statusCode());
      assertEquals(401, api.send("GET", on(node, "/watches"), bob + "x", null).statusCode());
    }
    String root = login(2, "root");
    assertEquals(
        3, ApiClient.json(api.send("GET", on(3, "/admin/users"), root, null)).get("users").size());

    // the operator's history replays the PostgreSQL journal while the cluster runs
    assertEquals(200, api.send("POST", on(2, "/watches/launch/run"), alice, null).statusCode());
    assertEquals(204, api.send("DELETE", on(1, "/watches/launch"), alice, null).statusCode());
    List<JsonNode> runsAfterDelete =
        runs(api.send("GET", on(2, "/watches/launch/runs"), alice, null));
    assertEquals(2, runsAfterDelete.size());
    ServiceProcess.Output replay =
        cluster
            .node(3)
            .output(
                List.of("history", "--owner", "alice", "--watch", "launch", "--reverse", "--json"),
                null);
    assertEquals(replay.stdout(), 0, replay.exit());
    List<String> replayed =
        Json.MAPPER.readTree(replay.stdout()).get("runs").findValuesAsText("runId");
    assertEquals(runsAfterDelete.stream().map(r -> r.get("runId").asText()).toList(), replayed);
    ServiceProcess.Output lines =
        cluster.node(1).output(List.of("history", "--owner", "alice", "--watch", "launch"), null);
    assertEquals(0, lines.exit());
    assertEquals(
        2,
        lines
            .stdout()
            .lines()
            .filter(
                l ->
                    l.contains(" " + RunRecord.NOTHING_NEW + " ")
                        || l.contains(" " + RunRecord.ALERT + " "))
            .count());

    // the model configuration set through one node is what the next run on every node asks, without
    // a restart
    HttpResponse<String> changed =
        api.send(
            "PUT",
            on(1, "/admin/model"),
            root,
            Json.text(
                Map.of(
                    "verdicts",
                        Map.of(
                            "provider",
                            "openai",
                            "baseUrl",
                            upstream.base() + "/v1",
                            "model",
                            "judge-2"),
                    "assistance",
                        Map.of(
                            "provider",
                            "openai",
                            "baseUrl",
                            upstream.base() + "/v1",
                            "model",
                            "helper-2"))));
    assertEquals(changed.body(), 200, changed.statusCode());
    Set<Integer> hosts = new HashSet<>();
    for (int i = 0; hosts.size() < 3 && i < 30; i++) {
      String id = "judged-" + i;
      assertEquals(
          201,
          api.send(
                  "POST",
                  on(1 + i % 3, "/watches"),
                  alice,
                  watch(id, "a launch date is set", "0 0 1 1 *", false))
              .statusCode());
      int asked = upstream.modelsAsked().size();
      JsonNode judged =
          ApiClient.json(api.send("POST", on(1 + i % 3, "/watches/" + id + "/run"), alice, null))
              .get("result");
      assertEquals(
          List.of("openai:judge-2"), Json.MAPPER.convertValue(judged.get("models"), List.class));
      assertEquals(
          List.of("judge-2"), upstream.modelsAsked().subList(asked, upstream.modelsAsked().size()));
      for (int n = 1; n <= 3; n++) {
        if (hostedBy(n, List.of(id)).contains(id)) hosts.add(n);
      }
    }
    assertEquals("runs hosted on every node asked the new model", Set.of(1, 2, 3), hosts);

    // rate limits are per process: one node's /auth limit leaves the others' alone (a window that
    // ends during the burst starts counting again, so then the burst goes on in the next window,
    // which cannot end as quickly)
    int attempts = 0;
    int status = 0;
    for (int burst = 0; burst < 2 && status != 429; burst++) {
      attempts = 0;
      while (status != 429 && attempts < 25) {
        attempts++;
        status =
            api.send(
                    "POST",
                    on(2, "/auth/login"),
                    null,
                    Json.text(Map.of("email", "bob@example.org", "password", "not-the-password")))
                .statusCode();
      }
    }
    assertEquals("node 2 limits /auth/* to 20 a minute per address", 429, status);
    assertTrue(attempts <= 21);
    assertEquals(
        200,
        api.send(
                "POST",
                on(1, "/auth/login"),
                null,
                Json.text(Map.of("email", "bob@example.org", "password", PASSWORD)))
            .statusCode());
  }

  // ---- (2) kill -9
  // -----------------------------------------------------------------------------------

  /** The scheduled runs of a watch by the minute they were due (lateness stays under a minute). */
  private Map<Instant, List<JsonNode>> scheduledByDue(int node, String token, String id)
      throws Exception {
    Map<Instant, List<JsonNode>> byDue = new HashMap<>();
    for (JsonNode run :
        runs(api.send("GET", on(node, "/watches/" + id + "/runs?limit=100"), token, null))) {
      if (!run.get("trigger").asText().equals(RunRecord.TRIGGER_SCHEDULE)) continue;
      Instant due = Instant.parse(run.get("startedAt").asText()).truncatedTo(ChronoUnit.MINUTES);
      byDue.computeIfAbsent(due, d -> new ArrayList<>()).add(run);
    }
    return byDue;
  }

  /**
   * The watches (of {@code ids}, all alice's) that node {@code n} hosts, by the shards it reports.
   */
  private Set<String> hostedBy(int n, List<String> ids) throws Exception {
    Set<String> shards = cluster.shardsHostedBy(n, WatchEntity.TYPE_KEY.name());
    Set<String> hosted = new HashSet<>();
    for (String id : ids) {
      if (shards.contains(LocalCluster.shardOf(WatchEntity.entityId("alice", id)))) hosted.add(id);
    }
    return hosted;
  }

  private static final Duration POLL_TIMEOUT = Duration.ofSeconds(1);

  interface Probe {
    boolean done() throws Exception;
  }

  /**
   * Probes until it says done, for at most 45 s after {@code since}; a request that timed out is
   * probed again.
   */
  private static Void pollUntil(Instant since, Probe probe) throws Exception {
    while (Instant.now().isBefore(since.plusSeconds(45))) {
      try {
        if (probe.done()) return null;
      } catch (HttpTimeoutException stillOnTheDeadNode) {
        continue;
      }
      Thread.sleep(200);
    }
    return null;
  }

  @Test
  public void aKilledNodesWatchesRunOnTheSurvivorsWithinThirtySecondsAndNothingRunsOrAlertsTwice()
      throws Exception {
    startCluster("kill");
    String alice = login(2, "alice");
    String bob = login(3, "bob");
    // Two kinds of watches due every minute: "j-" ones will be stopped while the model judges them,
    // "d-" ones while their alert is being delivered. Node 1 (the oldest: scheduler, shard
    // coordinator) must host some of each when it is killed, so watches are added until it does.
    List<String> judged = new ArrayList<>();
    List<String> delivered = new ArrayList<>();
    for (int i = 0;
        judged.size() < 6
            || delivered.size() < 6
            || hostedBy(1, judged).isEmpty()
            || hostedBy(1, delivered).isEmpty();
        i++) {
      assertTrue("node 1 hosts no watch of one kind after 40 of each", i < 40);
      String j = "j-" + i;
      String d = "d-" + i;
      assertEquals(
          201,
          api.send(
                  "POST",
                  on(1 + i % 3, "/watches"),
                  alice,
                  watch(j, "hold-judge", "* * * * *", true))
              .statusCode());
      assertEquals(
          201,
          api.send(
                  "POST",
                  on(1 + (i + 1) % 3, "/watches"),
                  alice,
                  watch(d, "anything new", "* * * * *", true))
              .statusCode());
      judged.add(j);
      delivered.add(d);
    }
    List<String> all = new ArrayList<>(judged);
    all.addAll(delivered);

    // The due time to kill in: the first whole minute at least 15 s away, so every watch is due
    // then.
    Instant due =
        Instant.now().plusSeconds(15).truncatedTo(ChronoUnit.MINUTES).plus(1, ChronoUnit.MINUTES);
    Thread.sleep(Math.max(0, Duration.between(Instant.now(), due.minusSeconds(5)).toMillis()));
    upstream.hold(FakeUpstream.modelCallAbout("hold-judge").or(FakeUpstream.alertTo("d-")));
    Instant deadline = due.plusSeconds(40);
    while (upstream.waiting() < all.size() && Instant.now().isBefore(deadline)) Thread.sleep(100);
    assertEquals(
        "every watch's run is held at the model or at the webhook", all.size(), upstream.waiting());
    Set<String> judgedOnNode1 = hostedBy(1, judged);
    Set<String> deliveredOnNode1 = hostedBy(1, delivered);
    assertFalse(judgedOnNode1.isEmpty());
    assertFalse(deliveredOnNode1.isEmpty());

    // A client writes through the survivors all along; what they acknowledge must survive.
    AtomicBoolean writing = new AtomicBoolean(true);
    Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    ExecutorService writer = Executors.newSingleThreadExecutor();
    Future<?> writes =
        writer.submit(
            () -> {
              for (int i = 0; writing.get(); i++) {
                String id = "note-" + i;
                try {
                  if (api.send(
                              "POST",
                              on(2 + i % 2, "/watches"),
                              bob,
                              watch(id, "notes", "0 0 1 1 *", false))
                          .statusCode()
                      == 201) {
                    acknowledged.add(id);
                  }
                  Thread.sleep(250);
                } catch (IOException | InterruptedException notAcknowledged) {
                  // only acknowledged writes are promised
                }
              }
              return null;
            });

    Instant killed = Instant.now();
    cluster.node(1).kill();
    upstream.release(); // the survivors' held runs go on; node 1's died with it

    // Node 1's watches run on the survivors: the judged ones run their due time again (it was never
    // recorded; measured by when that run started), the delivered ones answer (measured by when
    // they first answer; polled with a short timeout, as an entity still on node 1 keeps a request
    // 10 s before the 503).
    Map<String, Duration> movedAfter = new ConcurrentHashMap<>();
    ExecutorService pollers =
        Executors.newFixedThreadPool(judgedOnNode1.size() + deliveredOnNode1.size());
    for (String id : judgedOnNode1) {
      pollers.submit(
          () ->
              pollUntil(
                  killed,
                  () -> {
                    HttpResponse<String> r =
                        api.send(
                            "GET", on(2, "/watches/" + id + "/runs"), alice, null, POLL_TIMEOUT);
                    if (r.statusCode() == 200) {
                      for (JsonNode run : runs(r)) {
                        Instant started = Instant.parse(run.get("startedAt").asText());
                        if (started.isAfter(killed))
                          movedAfter.put(id, Duration.between(killed, started));
                      }
                    }
                    return movedAfter.containsKey(id);
                  }));
    }
    for (String id : deliveredOnNode1) {
      pollers.submit(
          () ->
              pollUntil(
                  killed,
                  () -> {
                    if (api.send("GET", on(3, "/watches/" + id), alice, null, POLL_TIMEOUT)
                            .statusCode()
                        != 200) return false;
                    movedAfter.put(id, Duration.between(killed, Instant.now()));
                    return true;
                  }));
    }
    pollers.shutdown();
    assertTrue(pollers.awaitTermination(2, TimeUnit.MINUTES));
    System.out.println("event=failover ms-after-kill=" + movedAfter);
    assertEquals(
        "every watch of node 1 moved: " + movedAfter,
        judgedOnNode1.size() + deliveredOnNode1.size(),
        movedAfter.size());
    for (Map.Entry<String, Duration> moved : movedAfter.entrySet()) {
      assertTrue(
          moved.getKey()
              + " ran on a survivor "
              + moved.getValue().toMillis()
              + " ms after the kill",
          moved.getValue().compareTo(Duration.ofSeconds(30)) <= 0);
    }

    // The schedules keep firing on the two survivors: every watch runs the next due time too, once
    // (a moment more is given to a second run that must not come).
    Instant next = due.plus(1, ChronoUnit.MINUTES);
    Thread.sleep(Math.max(0, Duration.between(Instant.now(), next).toMillis()));
    pollUntil(
        next,
        () -> {
          for (String id : all) if (!scheduledByDue(2, alice, id).containsKey(next)) return false;
          return true;
        });
    Thread.sleep(3000);
    writing.set(false);
    writes.get();
    writer.shutdown();
    for (String id : all) {
      Map<Instant, List<JsonNode>> byDue = scheduledByDue(2 + all.indexOf(id) % 2, alice, id);
      for (Instant t : List.of(due, next)) {
        assertEquals(
            id + " ran once for " + t + ": " + byDue.get(t),
            1,
            byDue.getOrDefault(t, List.of()).size());
      }
      byDue.forEach((t, runs) -> assertEquals(id + " ran " + t + " once", 1, runs.size()));
    }
    for (String id : deliveredOnNode1) {
      // the delivery node 1 owed was made again by the survivor that took the watch over
      JsonNode resumed = scheduledByDue(3, alice, id).get(due).get(0);
      assertEquals(
          id + ": " + resumed, "delivered", resumed.get("deliveries").get(0).get("state").asText());
      List<String> items = resumed.get("evidence").findValuesAsText("url");
      assertFalse(items.isEmpty());
      long arrived =
          upstream.alerts().stream()
              .filter(a -> a.watchId().equals(id) && a.evidence().equals(items))
              .count();
      assertTrue(
          id + ": the alert node 1 was sending arrived, at most once more (" + arrived + ")",
          arrived >= 1 && arrived <= 2);
    }

    // No item was in two alerts: each item URL appears in at most one alert of its watch (the
    // same alert sent again after the kill, which a receiver tells by its id, counts once).
    Map<String, Integer> alertsPerItem = new HashMap<>();
    for (FakeUpstream.Alert alert : new java.util.LinkedHashSet<>(upstream.alerts())) {
      for (String item : alert.evidence())
        alertsPerItem.merge(alert.watchId() + " " + item, 1, Integer::sum);
    }
    alertsPerItem.forEach(
        (item, n) -> assertEquals(item + " alerted " + n + " times", 1, n.intValue()));

    assertFalse("the writer got acknowledgements during the failover", acknowledged.isEmpty());
    Set<String> listed =
        new HashSet<>(
            ApiClient.json(api.send("GET", on(3, "/watches"), bob, null))
                .get("watches")
                .findValuesAsText("id"));
    assertTrue("every acknowledged write is there", listed.containsAll(acknowledged));
  }

  // ---- (3) rolling restart
  // -----------------------------------------------------------------------------

  @Test
  public void aRollingRestartUnderLoadFailsNoRequestTheClientDoesNotRetryAndLosesNothing()
      throws Exception {
    // the clients write until the third node is back, which on a fast machine is more than the
    // default 100 watches of one account
    startCluster("rolling", Map.of("QUOTA_MAX_WATCHES", "1000"));
    String alice = login(1, "alice");
    RetryingClient retrying = new RetryingClient(cluster);
    List<String> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
    Map<String, String> written = new ConcurrentHashMap<>(); // id → the condition last acknowledged
    Traffic traffic =
        Traffic.start(
            2,
            (client, i) -> {
              String id = "r-" + client + "-" + i;
              int node = 1 + ThreadLocalRandom.current().nextInt(3);
              RetryingClient.Answered created =
                  retrying.send(
                      "POST", node, "/watches", alice, watch(id, "first", "0 0 1 1 *", true));
              // a create retried after its first try was written meets itself: 409, and the
              // watch is there
              if (!(created.tries() > 1 && created.response().statusCode() == 409)) {
                RetryingClient.expect(201, created, failures, "create " + id);
              }
              written.put(id, "first");
              RetryingClient.expect(
                  200,
                  retrying.send("GET", node + 1, "/watches/" + id, alice, null),
                  failures,
                  "read " + id);
              RetryingClient.expect(
                  200,
                  retrying.send(
                      "PUT",
                      node + 2,
                      "/watches/" + id,
                      alice,
                      watch(id, "second", "0 0 1 1 *", true)),
                  failures,
                  "replace " + id);
              written.put(id, "second");
              RetryingClient.Answered read =
                  retrying.send("GET", node, "/watches/" + id, alice, null);
              RetryingClient.expect(200, read, failures, "read " + id + " again");
              if (read.response().statusCode() == 200
                  && !ApiClient.json(read.response()).get("condition").asText().equals("second")) {
                failures.add("read " + id + " after its replacement: " + read.response().body());
              }
              RetryingClient.expect(
                  200, retrying.send("GET", node + 1, "/watches", alice, null), failures, "list");
            });
    Thread.sleep(2000);
    for (int n = 1; n <= 3; n++) {
      cluster.restart(n);
      Thread.sleep(3000); // shards settle on the new node before the next one goes
    }
    traffic.stop();

    System.out.println(
        "event=rolling-restart writes=" + written.size() + " retries=" + retrying.retries());
    assertEquals("no request failed but the retried ones: " + failures, List.of(), failures);
    assertTrue("the clients kept working: " + written.size(), written.size() >= 10);
    for (int node = 1; node <= 3; node++) {
      JsonNode list =
          ApiClient.json(api.send("GET", on(node, "/watches"), alice, null)).get("watches");
      Map<String, String> listed = new HashMap<>();
      list.forEach(w -> listed.put(w.get("id").asText(), w.get("condition").asText()));
      assertEquals(
          "node " + node + " lists every acknowledged write as last written", written, listed);
    }
    JsonNode members =
        ApiClient.json(api.send("GET", cluster.management(2, "/cluster/members"), null, null));
    assertEquals(List.of("Up", "Up", "Up"), members.get("members").findValuesAsText("status"));
  }

  // ---- (4) a delivery owed across a graceful hand-over
  // -------------------------------------------------

  @Test
  public void aDeliveryOwedWhenItsNodeLeavesGracefullyIsMadeOnceByASurvivor() throws Exception {
    // Retries a second or two apart, so that several fail on the leaving node before it goes.
    startCluster(
        "handover",
        Map.of(
            "JAVA_TOOL_OPTIONS",
            "-Dperiscope.notify.retry.first-backoff=1s -Dperiscope.notify.retry.max-backoff=2s"));
    AtomicBoolean failing = new AtomicBoolean(true);
    try (FlakyWebhookReceiver receiver = new FlakyWebhookReceiver((id, attempt) -> failing.get())) {
      String alice = login(1, "alice");
      String body =
          watch("handover", "anything new", "0 0 1 1 *", true, "webhook:" + receiver.url());
      assertEquals(201, api.send("POST", on(1, "/watches"), alice, body).statusCode());
      int owner = 0;
      for (int n = 1; n <= 3 && owner == 0; n++)
        if (hostedBy(n, List.of("handover")).contains("handover")) owner = n;
      assertTrue("a node hosts the watch", owner > 0);
      int survivor = owner % 3 + 1;

      JsonNode first =
          ApiClient.json(api.send("POST", on(owner, "/watches/handover/run"), alice, null))
              .at("/result/deliveries/0");
      assertEquals(first.toString(), "pending", first.get("state").asText());
      for (int i = 0; i < 100 && receiver.failed() < 2; i++) Thread.sleep(100);
      assertTrue("the owner retried before it left", receiver.failed() >= 2);

      cluster.node(owner).stop(); // SIGTERM: coordinated shutdown hands its shards over
      Instant left = Instant.now();
      failing.set(false);

      for (int i = 0; i < 450 && receiver.delivered() == 0; i++) Thread.sleep(100);
      assertEquals("a survivor made the owed delivery", 1, receiver.delivered());
      Thread.sleep(3000); // time for a second delivery that must not come
      Map<String, FlakyWebhookReceiver.Received> received = receiver.received();
      assertEquals("one alert: " + received.keySet(), 1, received.size());
      FlakyWebhookReceiver.Received alert = received.values().iterator().next();
      assertEquals("acknowledged once", 1, alert.acks());
      assertTrue("after the owner left", alert.firstAck().isAfter(left));

      JsonNode delivery = null;
      for (int i = 0; i < 50; i++) {
        delivery =
            ApiClient.json(
                    api.send("GET", on(survivor, "/watches/handover/runs?limit=1"), alice, null))
                .at("/runs/0/deliveries/0");
        if (delivery.path("state").asText().equals("delivered")) break;
        Thread.sleep(200);
      }
      assertEquals(delivery.toString(), "delivered", delivery.get("state").asText());
      assertEquals(
          "every attempt the receiver saw is in the run record: " + delivery,
          alert.attempts(),
          delivery.get("attempts").size());
    }
  }
}
