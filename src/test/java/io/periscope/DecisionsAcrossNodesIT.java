package io.periscope;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.testing.ApiClient;
import io.periscope.testing.FakeUpstream;
import io.periscope.testing.LocalCluster;
import io.periscope.testing.NeedsPostgres;
import io.periscope.testing.TestWatches;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.After;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * Two nodes of the jar on one PostgreSQL journal: what model calls took and a backtest job answer
 * from the node that did not make them, and still after every entity was handed over (node 1
 * restarted, then node 2 stopped, so each entity moved at least once).
 */
@Category(NeedsPostgres.class)
public class DecisionsAcrossNodesIT {
  private static final String PASSWORD = "a-decisions-passphrase";

  private final ApiClient api = new ApiClient();
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

  private JsonNode ok(HttpResponse<String> r, int status) throws Exception {
    assertEquals(r.body(), status, r.statusCode());
    return ApiClient.json(r);
  }

  private JsonNode get(int node, String path, String token) throws Exception {
    return ok(api.send("GET", on(node, path), token, null), 200);
  }

  /** What node {@code node} answers once the shards it took over answer (503 until then). */
  private JsonNode settled(int node, String path, String token) throws Exception {
    HttpResponse<String> r = null;
    for (int i = 0; i < 600; i++) {
      r = api.send("GET", on(node, path), token, null);
      if (r.statusCode() != 503) break;
      Thread.sleep(100);
    }
    return ok(r, 200);
  }

  /** The job as node {@code node} answers it once it finished. */
  private JsonNode finished(int node, String jobPath, String token) throws Exception {
    for (int i = 0; i < 300; i++) {
      JsonNode job = get(node, jobPath, token).get("job");
      if (!job.get("status").asText().equals("running")) return job;
      Thread.sleep(100);
    }
    throw new AssertionError("the backtest did not finish");
  }

  @Test
  public void usageAndABacktestJobAnswerFromEitherNodeAndAfterAHandOver() throws Exception {
    upstream = new FakeUpstream(Duration.ZERO, Duration.ZERO, true, 1);
    cluster =
        new LocalCluster("decisions", 2, upstream.serviceEnv("sk-decisions-test-0001")).start();
    cluster.createUser("alice", "user", PASSWORD);
    String alice = api.login(on(1, "/"), "alice@example.org", PASSWORD);
    ok(
        api.send(
            "POST",
            on(1, "/watches"),
            alice,
            TestWatches.body("acme")
                .name("Acme")
                .condition("Acme announces a launch date")
                .feed(upstream.feedUrl("acme"))
                .channels(List.of())
                .json()),
        201);
    String runId = null;
    for (int i = 0; i < 2; i++)
      runId =
          ok(api.send("POST", on(1, "/watches/acme/run"), alice, null), 200)
              .at("/result/runId")
              .asText();
    JsonNode usage = get(2, "/account/usage?days=2", alice);
    assertEquals(usage.toString(), 2, usage.at("/total/calls").asInt());
    JsonNode run = get(2, "/watches/acme/runs/" + runId, alice);
    assertEquals(1, run.at("/usage/calls").asInt());

    // a backtest started through node 2 is followed through node 1
    HttpResponse<String> started =
        api.send("POST", on(2, "/watches/acme/backtest?async=true"), alice, "{\"runs\": 2}");
    JsonNode job = ok(started, 202).get("job");
    String jobPath = "/watches/acme/backtest/jobs/" + job.get("id").asText();
    assertEquals(jobPath, started.headers().firstValue("Location").orElseThrow());
    JsonNode done = finished(1, jobPath, alice);
    assertEquals(done.toString(), "done", done.get("status").asText());
    assertEquals(2, done.get("runs").size());
    assertEquals(2, done.at("/usage/calls").asInt());
    JsonNode before = get(1, "/account/usage?days=2", alice);
    assertEquals("the backtest's calls are the watch's", 4, before.at("/total/calls").asInt());

    cluster.restart(1); // node 1's entities go to node 2, and some may come back
    cluster.node(2).stop(); // every entity on node 2 goes to node 1
    assertEquals(before, settled(1, "/account/usage?days=2", alice));
    assertEquals(done, settled(1, jobPath, alice).get("job"));
    JsonNode after = settled(1, "/watches/acme/runs/" + runId, alice);
    assertEquals(run.get("usage"), after.get("usage"));
    assertEquals(run.get("judged"), after.get("judged"));
    assertTrue(after.at("/judged/items").size() > 0);
  }
}
