package io.periscope.http;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.periscope.json.Json;
import io.periscope.testing.FakeUpstream;
import io.periscope.testing.InProcessService;
import io.periscope.testing.TestJournals;
import io.periscope.testing.TestWatches;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.Test;

/**
 * POST /watches/run-all through a real HTTP client: a run-all longer than a minute answers rather
 * than being reset, and the asynchronous form answers its job at once, follows it (polled and as
 * server-sent events) to the same outcomes, with the same 409 rule.
 */
public class RunAllRoutesTest {
  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  private static Config config(FakeUpstream upstream) {
    return ConfigFactory.parseMap(
            Map.of(
                "periscope.fetch.allow-private-networks",
                true,
                "periscope.model.base-url",
                upstream.base() + "/v1",
                "periscope.model.api-keys",
                "sk-run-all-routes-test-0001"))
        .withFallback(TestJournals.h2())
        .resolve();
  }

  private static String watch(String id, String feed) {
    return TestWatches.body(id).feed(feed).channels(List.of()).json();
  }

  private HttpResponse<String> post(InProcessService service, String path, String token)
      throws Exception {
    return http.send(
        HttpRequest.newBuilder(service.uri(path))
            .timeout(Duration.ofMinutes(12))
            .header("Authorization", "Bearer " + token)
            .POST(HttpRequest.BodyPublishers.noBody())
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  public void aRunAllLongerThanAMinuteAnswersEveryOutcome() throws Exception {
    // Eight watches whose feed answers after 8 s each, run one after the other: over a minute.
    try (FakeUpstream upstream = new FakeUpstream(Duration.ofSeconds(8), Duration.ZERO, false, 1);
        InProcessService service = new InProcessService(config(upstream))) {
      String token =
          service.signedIn("slow-" + UUID.randomUUID().toString().substring(0, 8), "user");
      for (int i = 0; i < 8; i++) {
        InProcessService.json(
            service.call(
                "POST", "/watches", token, watch("w" + i, upstream.staticFeedUrl("f" + i))),
            201);
      }
      long started = System.nanoTime();
      HttpResponse<String> answer = post(service, "/watches/run-all", token);
      assertTrue(Duration.ofNanos(System.nanoTime() - started).toSeconds() > 60);
      JsonNode body = InProcessService.json(answer, 200);
      assertEquals(8, body.at("/summary/total").asInt());
      assertEquals(8, body.at("/summary/ran").asInt());
      assertEquals(8, body.get("outcomes").size());
      body.get("outcomes").forEach(o -> assertEquals("ran", o.get("status").asText()));
    }
  }

  @Test
  public void theAsynchronousRunAllIsAJobToFollow() throws Exception {
    try (FakeUpstream upstream = new FakeUpstream(Duration.ZERO, Duration.ZERO, false, 1);
        InProcessService service = new InProcessService(config(upstream))) {
      String token =
          service.signedIn("async-" + UUID.randomUUID().toString().substring(0, 8), "user");
      String other =
          service.signedIn("other-" + UUID.randomUUID().toString().substring(0, 8), "user");
      for (String id : List.of("a", "b", "c")) {
        InProcessService.json(
            service.call("POST", "/watches", token, watch(id, upstream.feedUrl(id))), 201);
      }
      InProcessService.json(service.call("POST", "/watches/run-all?async=maybe", token, null), 400);

      upstream.hold(r -> r.getPath().startsWith("/feed/"));
      HttpResponse<String> accepted = post(service, "/watches/run-all?async=true", token);
      JsonNode job = InProcessService.json(accepted, 202).get("job");
      String id = job.get("id").asText();
      assertEquals("running", job.get("status").asText());
      assertEquals(
          "/watches/run-all/jobs/" + id, accepted.headers().firstValue("Location").orElseThrow());
      // one run-all at a time, whichever form asks
      assertEquals(409, post(service, "/watches/run-all?async=true", token).statusCode());
      assertEquals(409, post(service, "/watches/run-all", token).statusCode());
      // another owner's job is not found, like an unknown one
      InProcessService.json(service.call("GET", "/watches/run-all/jobs/" + id, other, null), 404);
      InProcessService.json(service.call("GET", "/watches/run-all/jobs/nope", token, null), 404);
      assertEquals(
          404,
          service.call("GET", "/watches/run-all/jobs/" + id + "/events", other, null).statusCode());

      HttpResponse<Stream<String>> events =
          http.send(
              HttpRequest.newBuilder(service.uri("/watches/run-all/jobs/" + id + "/events"))
                  .timeout(Duration.ofMinutes(1))
                  .header("Authorization", "Bearer " + token)
                  .GET()
                  .build(),
              HttpResponse.BodyHandlers.ofLines());
      assertEquals(200, events.statusCode());
      assertTrue(
          events
              .headers()
              .firstValue("Content-Type")
              .orElseThrow()
              .startsWith("text/event-stream"));
      upstream.release();
      List<String> outcomes = new ArrayList<>();
      JsonNode done = null;
      Iterator<String> lines = events.body().iterator();
      // an event is its fields up to a blank line, in any order
      String event = null;
      String data = null;
      while (done == null && lines.hasNext()) {
        String line = lines.next();
        if (line.startsWith("event:")) event = line.substring(6).trim();
        else if (line.startsWith("data:")) data = line.substring(5).trim();
        else if (line.isEmpty()) {
          if ("outcome".equals(event))
            outcomes.add(Json.MAPPER.readTree(data).get("watchId").asText());
          else if ("done".equals(event)) done = Json.MAPPER.readTree(data);
          event = null;
          data = null;
        }
      }
      assertEquals(List.of("a", "b", "c"), outcomes);
      assertEquals("done", done.get("status").asText());
      assertEquals(3, done.get("total").asInt());
      assertEquals(3, done.at("/summary/ran").asInt());

      JsonNode polled =
          InProcessService.json(
                  service.call("GET", "/watches/run-all/jobs/" + id, token, null), 200)
              .get("job");
      assertEquals(done, polled);
      for (JsonNode o : polled.get("outcomes")) {
        assertEquals("ran", o.get("status").asText());
        assertEquals(o.get("watchId").asText(), o.at("/result/watchId").asText());
      }
      // a client coming late gets every outcome, then done, at once
      HttpResponse<String> late =
          http.send(
              HttpRequest.newBuilder(service.uri("/watches/run-all/jobs/" + id + "/events"))
                  .timeout(Duration.ofSeconds(30))
                  .header("Authorization", "Bearer " + token)
                  .GET()
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertEquals(3, late.body().split("event: ?outcome", -1).length - 1);
      assertEquals(1, late.body().split("event: ?done", -1).length - 1);
      // a client back with the id of the second outcome gets the third, then done
      HttpResponse<String> resumed =
          http.send(
              HttpRequest.newBuilder(service.uri("/watches/run-all/jobs/" + id + "/events"))
                  .timeout(Duration.ofSeconds(30))
                  .header("Authorization", "Bearer " + token)
                  .header("Last-Event-ID", "2")
                  .GET()
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertEquals(1, resumed.body().split("event: ?outcome", -1).length - 1);
      assertTrue(resumed.body().contains("\"watchId\":\"c\""));
      assertTrue(resumed.body().matches("(?s).*id: ?3\\b.*"));
      assertEquals(1, resumed.body().split("event: ?done", -1).length - 1);
      HttpResponse<String> badId =
          http.send(
              HttpRequest.newBuilder(service.uri("/watches/run-all/jobs/" + id + "/events"))
                  .timeout(Duration.ofSeconds(30))
                  .header("Authorization", "Bearer " + token)
                  .header("Last-Event-ID", "x")
                  .GET()
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertEquals(400, badId.statusCode());
      // finished, so a new one may start
      String next =
          InProcessService.json(post(service, "/watches/run-all?async=true", token), 202)
              .at("/job/id")
              .asText();
      String status = "running";
      for (int i = 0; i < 100 && status.equals("running"); i++) {
        Thread.sleep(100);
        status =
            InProcessService.json(
                    service.call("GET", "/watches/run-all/jobs/" + next, token, null), 200)
                .at("/job/status")
                .asText();
      }
      assertEquals("done", status);
    }
  }

  /** An event stream, open until its body is closed. */
  private HttpResponse<java.io.InputStream> follow(
      InProcessService service, String events, String token) throws Exception {
    return http.send(
        HttpRequest.newBuilder(service.uri(events))
            .header("Authorization", "Bearer " + token)
            .GET()
            .build(),
        HttpResponse.BodyHandlers.ofInputStream());
  }

  @Test
  public void anAccountHoldsOnlySoManyEventStreams() throws Exception {
    try (FakeUpstream upstream = new FakeUpstream(Duration.ZERO, Duration.ZERO, false, 1);
        InProcessService service =
            new InProcessService(
                ConfigFactory.parseMap(Map.of("periscope.http.event-streams-per-account", 2))
                    .withFallback(config(upstream)))) {
      String token =
          service.signedIn("streams-" + UUID.randomUUID().toString().substring(0, 8), "user");
      InProcessService.json(
          service.call("POST", "/watches", token, watch("a", upstream.feedUrl("a"))), 201);
      upstream.hold(r -> r.getPath().startsWith("/feed/"));
      String id =
          InProcessService.json(post(service, "/watches/run-all?async=true", token), 202)
              .at("/job/id")
              .asText();
      String events = "/watches/run-all/jobs/" + id + "/events";
      List<HttpResponse<java.io.InputStream>> open = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        HttpResponse<java.io.InputStream> stream = follow(service, events, token);
        assertEquals(200, stream.statusCode());
        open.add(stream);
      }
      JsonNode refused = InProcessService.json(service.call("GET", events, token, null), 429);
      assertTrue(refused.get("error").asText().contains("event streams"));

      // the client goes away: its slot is free again once the node notices, at the latest when the
      // next heartbeat finds the connection closed
      open.remove(0).body().close();
      int status = 429;
      for (int i = 0; i < 100 && status == 429; i++) {
        Thread.sleep(250);
        HttpResponse<java.io.InputStream> again = follow(service, events, token);
        status = again.statusCode();
        if (status == 200) open.add(again);
        else again.body().close();
      }
      assertEquals(200, status);
      upstream.release();
      for (HttpResponse<java.io.InputStream> stream : open) stream.body().close();
    }
  }

  @Test
  public void runHistoryPagesThroughTheKeptRunsAndRefusesALimitAboveItsMaximum() throws Exception {
    try (FakeUpstream upstream = new FakeUpstream(Duration.ZERO, Duration.ZERO, false, 1);
        InProcessService service = new InProcessService(config(upstream))) {
      String token =
          service.signedIn("pager-" + UUID.randomUUID().toString().substring(0, 8), "user");
      InProcessService.json(
          service.call("POST", "/watches", token, watch("w", upstream.feedUrl("w"))), 201);
      List<String> ran = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        ran.add(
            0,
            InProcessService.json(post(service, "/watches/w/run", token), 200)
                .at("/result/runId")
                .asText());
      }
      JsonNode first =
          InProcessService.json(service.call("GET", "/watches/w/runs?limit=2", token, null), 200);
      assertEquals(ran.subList(0, 2), first.get("runs").findValuesAsText("runId"));
      assertEquals(ran.get(1), first.get("next").asText());
      JsonNode second =
          InProcessService.json(
              service.call(
                  "GET",
                  "/watches/w/runs?limit=2&before=" + first.get("next").asText(),
                  token,
                  null),
              200);
      assertEquals(ran.subList(2, 3), second.get("runs").findValuesAsText("runId"));
      assertTrue(second.path("next").isMissingNode());
      for (String bad : List.of("limit=101", "limit=0", "limit=x", "before=no-such-run")) {
        JsonNode refused =
            InProcessService.json(service.call("GET", "/watches/w/runs?" + bad, token, null), 400);
        assertEquals(bad, "query", refused.at("/issues/0/path/0").asText());
      }
    }
  }
}
