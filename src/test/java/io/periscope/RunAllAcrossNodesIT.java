package io.periscope;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.account.RunAllEntity;
import io.periscope.json.Json;
import io.periscope.testing.ApiClient;
import io.periscope.testing.FakeUpstream;
import io.periscope.testing.LocalCluster;
import io.periscope.testing.NeedsPostgres;
import io.periscope.testing.TestWatches;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.After;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * Three nodes of the jar on one PostgreSQL journal: the node running an owner's run-all is killed
 * with {@code kill -9} while the job waits on a watch's model call. The job answers from the
 * survivors, a follower of its events that connects again with Last-Event-ID (as a browser's
 * EventSource does) receives every outcome once, and the job ends with each watch it had not run
 * saying so; the owner can start the next run-all on the survivors.
 */
@Category(NeedsPostgres.class)
public class RunAllAcrossNodesIT {
  private static final String PASSWORD = "a-run-all-passphrase";

  /** The condition of the watch whose model call holds the run-all up when the node dies. */
  private static final String HELD = "the run-all is held here";

  private static final List<String> WATCHES = List.of("a-1", "a-2", "a-3", "a-4", "a-5");

  /** How long the survivors may take to answer for the dead node's entities. */
  private static final Duration FAILOVER = Duration.ofSeconds(60);

  private final ApiClient api = new ApiClient();
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();
  private FakeUpstream upstream;
  private LocalCluster cluster;

  @After
  public void stop() throws Exception {
    if (cluster != null) cluster.close();
    if (upstream != null) upstream.close();
  }

  private URI on(int node, String path) {
    return cluster.node(node).uri(path);
  }

  private String watch(String id) {
    return TestWatches.body(id)
        .condition(id.equals("a-3") ? HELD : "a launch date is set")
        .feed(upstream.feedUrl(id))
        .channels(List.of())
        .json();
  }

  /** An outcome event as a follower received it. */
  private record Received(int id, String watchId, String status, String error) {}

  /** What a follower of the job's events went through. */
  private record Followed(List<Received> outcomes, JsonNode done, List<String> reconnects) {}

  /**
   * Follows the job's events as an EventSource does: when a stream breaks, ends before {@code done}
   * or is refused with a 5xx, it connects again, to the next of {@code nodes}, with the id of the
   * last outcome it received as Last-Event-ID. Each outcome is added to {@code received} as it
   * comes. A 4xx fails it.
   */
  private Followed follow(
      String eventsPath, String token, List<Integer> nodes, List<Received> received)
      throws Exception {
    List<String> reconnects = new ArrayList<>();
    Instant giveUp = Instant.now().plus(FAILOVER.multipliedBy(2));
    for (int attempt = 0; Instant.now().isBefore(giveUp); attempt++) {
      int node = nodes.get(attempt % nodes.size());
      HttpRequest.Builder request =
          HttpRequest.newBuilder(on(node, eventsPath))
              .timeout(Duration.ofSeconds(30))
              .header("Authorization", "Bearer " + token);
      if (!received.isEmpty())
        request.header("Last-Event-ID", Integer.toString(received.get(received.size() - 1).id()));
      try {
        HttpResponse<Stream<String>> r =
            http.send(request.build(), HttpResponse.BodyHandlers.ofLines());
        if (r.statusCode() >= 400 && r.statusCode() < 500)
          throw new AssertionError("node " + node + " answered the events " + r.statusCode());
        if (r.statusCode() == 200) {
          JsonNode done = readEvents(r.body().iterator(), received);
          if (done != null) return new Followed(List.copyOf(received), done, reconnects);
          reconnects.add("node " + node + ": the stream ended before done");
        } else {
          reconnects.add("node " + node + ": " + r.statusCode());
          r.body().close();
        }
      } catch (IOException | UncheckedIOException broken) {
        reconnects.add("node " + node + ": " + broken);
      }
      Thread.sleep(250);
    }
    throw new AssertionError("no done event after " + received + ", " + reconnects);
  }

  /** Reads server-sent events up to {@code done} (answered) or the stream's end (null). */
  private static JsonNode readEvents(Iterator<String> lines, List<Received> received)
      throws IOException {
    String id = null;
    String event = null;
    String data = null;
    while (lines.hasNext()) {
      String line = lines.next();
      if (line.startsWith("id:")) id = line.substring(3).trim();
      else if (line.startsWith("event:")) event = line.substring(6).trim();
      else if (line.startsWith("data:")) data = line.substring(5).trim();
      else if (line.isEmpty()) {
        if ("done".equals(event)) return Json.MAPPER.readTree(data);
        if ("outcome".equals(event)) {
          JsonNode o = Json.MAPPER.readTree(data);
          received.add(
              new Received(
                  Integer.parseInt(id),
                  o.get("watchId").asText(),
                  o.get("status").asText(),
                  o.path("error").asText(null)));
        }
        id = null;
        event = null;
        data = null;
      }
    }
    return null;
  }

  /** The job as a survivor answers it once it finished; no answer on the way may be a 4xx. */
  private JsonNode finishedOn(int node, String jobPath, String token) throws Exception {
    Instant giveUp = Instant.now().plus(FAILOVER);
    while (Instant.now().isBefore(giveUp)) {
      HttpResponse<String> r;
      try {
        r = api.send("GET", on(node, jobPath), token, null, Duration.ofSeconds(15));
      } catch (IOException slow) {
        continue;
      }
      assertTrue(r.statusCode() + " " + r.body(), r.statusCode() < 400 || r.statusCode() >= 500);
      if (r.statusCode() == 200) {
        JsonNode job = ApiClient.json(r).get("job");
        if (!job.get("status").asText().equals("running")) return job;
      }
      Thread.sleep(250);
    }
    throw new AssertionError("node " + node + " did not answer the finished job");
  }

  @Test
  public void aRunAllWhoseNodeIsKilledAnswersFromTheSurvivorsAndItsFollowerGetsEachOutcomeOnce()
      throws Exception {
    upstream = new FakeUpstream(Duration.ZERO, Duration.ZERO, false, 1);
    cluster = new LocalCluster("run-all", upstream.serviceEnv("sk-run-all-test-0001")).start();
    cluster.createUser("alice", "user", PASSWORD);
    String alice = api.login(on(1, "/"), "alice@example.org", PASSWORD);
    for (String id : WATCHES) {
      HttpResponse<String> created = api.send("POST", on(1, "/watches"), alice, watch(id));
      assertEquals(created.body(), 201, created.statusCode());
    }

    // the run-all runs one watch at a time, in the order they were created: held at the third
    upstream.hold(FakeUpstream.modelCallAbout(HELD));
    HttpResponse<String> started =
        api.send("POST", on(1, "/watches/run-all?async=true"), alice, null);
    assertEquals(started.body(), 202, started.statusCode());
    String jobPath = started.headers().firstValue("Location").orElseThrow();
    int owner = cluster.hostOf(RunAllEntity.TYPE_KEY.name(), "alice");
    assertTrue("a node hosts alice's run-all", owner > 0);
    List<Integer> survivors = IntStream.rangeClosed(1, 3).filter(n -> n != owner).boxed().toList();

    List<Received> received = new CopyOnWriteArrayList<>();
    ExecutorService following = Executors.newSingleThreadExecutor();
    try {
      Future<Followed> follower =
          following.submit(() -> follow(jobPath + "/events", alice, survivors, received));
      for (int i = 0; i < 300 && (received.size() < 2 || upstream.waiting() < 1); i++)
        Thread.sleep(100);
      assertEquals("two watches ran before the third was held", 2, received.size());
      assertEquals(1, upstream.waiting());

      Instant killed = Instant.now();
      cluster.node(owner).kill();
      upstream.release();

      JsonNode job = finishedOn(survivors.get(1), jobPath, alice);
      System.out.println(
          "event=run-all-failover ms-after-kill="
              + Duration.between(killed, Instant.now()).toMillis());
      assertEquals(job.toString(), "failed", job.get("status").asText());
      assertEquals(RunAllEntity.RUN_ALL_INTERRUPTED, job.get("error").asText());
      List<String> outcomes = new ArrayList<>();
      job.get("outcomes").forEach(o -> outcomes.add(o.get("watchId").asText()));
      assertEquals(WATCHES, outcomes);
      for (int i = 0; i < WATCHES.size(); i++) {
        JsonNode o = job.get("outcomes").get(i);
        if (i < 2) assertEquals(o.toString(), "ran", o.get("status").asText());
        else assertEquals(o.toString(), RunAllEntity.RUN_ALL_INTERRUPTED, o.get("error").asText());
      }

      Followed followed = follower.get(FAILOVER.multipliedBy(2).toSeconds(), TimeUnit.SECONDS);
      System.out.println("event=run-all-follower reconnects=" + followed.reconnects());
      assertEquals("the stream rode over the node's death", List.of(), followed.reconnects());
      assertEquals(
          "each outcome once, in order: " + followed.outcomes(),
          List.of(1, 2, 3, 4, 5),
          followed.outcomes().stream().map(Received::id).toList());
      assertEquals(WATCHES, followed.outcomes().stream().map(Received::watchId).toList());
      assertEquals(job, followed.done());
    } finally {
      following.shutdownNow();
    }

    // resumed on the other survivor after the second outcome: the rest once, then done
    List<Received> rest = new ArrayList<>(received.subList(0, 2));
    Followed resumed = follow(jobPath + "/events", alice, List.of(survivors.get(0)), rest);
    assertEquals(List.of(), resumed.reconnects());
    assertEquals(List.of(1, 2, 3, 4, 5), rest.stream().map(Received::id).toList());
    assertEquals(received, rest);

    // the owner's run-all lives on the survivors: the next one runs every watch
    HttpResponse<String> again =
        api.send("POST", on(survivors.get(0), "/watches/run-all"), alice, null);
    assertEquals(again.body(), 200, again.statusCode());
    assertEquals(WATCHES.size(), ApiClient.json(again).at("/summary/ran").asInt());
  }
}
