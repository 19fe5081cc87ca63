package io.periscope;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.json.Json;
import io.periscope.testing.NeedsPostgres;
import io.periscope.testing.ScratchDatabase;
import io.periscope.testing.ServiceProcess;
import io.periscope.testing.TestJournals;
import io.periscope.testing.TestWatches;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * The command line's {@code run} and {@code history} against the jar, with the service running
 * (they go through it, or only read the journal) and stopped (they work on the journal alone), on
 * H2 and on PostgreSQL.
 */
public class CommandLineIT {
  private static final String SECRET = "command-line-test-secret-of-32-bytes";
  private static final String PASSWORD = "a-command-line-passphrase";

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final MockWebServer feed = new MockWebServer();
  private final String owner = "cli-" + UUID.randomUUID().toString().substring(0, 8);

  @Before
  public void startFeed() throws Exception {
    feed.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) {
            // a feed without items: every run is nothing-new, no model needed
            return new MockResponse()
                .setHeader("Content-Type", "application/rss+xml")
                .setBody(
                    "<?xml version=\"1.0\"?><rss"
                        + " version=\"2.0\"><channel><title>Empty</title><link>https://example.or"
                        + "g/</link>"
                        + "<description>none</description></channel></rss>");
          }
        });
    feed.start();
  }

  @After
  public void stopFeed() throws Exception {
    feed.shutdown();
  }

  @Test
  public void theJarKnowsItsVersion() throws Exception {
    Map<String, String> env = new HashMap<>();
    env.put("DATA_DIR", Files.createTempDirectory("periscope-cli").toString());
    ServiceProcess jar = new ServiceProcess(env, ServiceProcess.logFile("cli-version"));
    ServiceProcess.Output version = jar.output(List.of("--version"), null);
    assertEquals(0, version.exit());
    assertTrue(
        version.stdout(),
        version.stdout().matches("(?s)periscope \\d+\\.\\d+\\.\\d+\\S*\nJava .*"));
    assertEquals(2, jar.command(List.of("users", "create", "--id", "x"), null));
  }

  @Test
  public void runAndHistoryOnH2() throws Exception {
    runAndReplay(new HashMap<>(), "cli-h2");
  }

  @Test
  @Category(NeedsPostgres.class)
  public void runAndHistoryOnPostgres() throws Exception {
    ScratchDatabase database = TestJournals.postgresDatabase();
    runAndReplay(
        new HashMap<>(Map.of("DATABASE_URL", database.url(), "DATABASE_USER", database.user())),
        "cli-postgres");
  }

  private void runAndReplay(Map<String, String> env, String name) throws Exception {
    env.put("DATA_DIR", Files.createTempDirectory("periscope-cli").toString());
    env.put("AUTH_JWT_SECRET", SECRET);
    env.put("FETCH_ALLOW_PRIVATE_NETWORKS", "true");
    String feedUrl = feed.url("/feed.xml").toString();
    ServiceProcess service = new ServiceProcess(env, ServiceProcess.logFile(name)).start();
    try (service) {
      assertEquals(
          0,
          service.command(
              List.of(
                  "users",
                  "create",
                  "--id",
                  owner,
                  "--email",
                  owner + "@example.org",
                  "--role",
                  "user"),
              PASSWORD + "\n"));
      String token = login(service);
      create(service, token, "daily", feedUrl, true);
      create(service, token, "paused", feedUrl, false);

      // through the running service: the enabled watch only
      ServiceProcess.Output run = service.output(List.of("run", "--owner", owner), null);
      assertEquals(run.stdout(), 0, run.exit());
      assertEquals(
          owner + "/daily nothing-new collected=0 fresh=0 notified=0 errors=0",
          run.stdout().strip());

      // the journal read beside the running service, once the run is in the past it reads
      Thread.sleep(io.periscope.history.RunHistory.SETTLED.toMillis() + 100);
      JsonNode history =
          Json.MAPPER.readTree(
              service
                  .output(List.of("history", "--owner", owner, "--watch", "daily", "--json"), null)
                  .stdout());
      assertEquals(1, history.get("runs").size());
      assertEquals("nothing-new", history.get("runs").get(0).get("outcome").asText());

      // following every watch of the owner as JSON lines: a run recorded now shows up
      Process follow =
          service.started(List.of("history", "--owner", owner, "--follow", "--json-lines"));
      try {
        java.io.BufferedReader lines =
            new java.io.BufferedReader(
                new java.io.InputStreamReader(
                    follow.getInputStream(), java.nio.charset.StandardCharsets.UTF_8));
        JsonNode first = Json.MAPPER.readTree(within(lines));
        assertEquals("the past first", "run-all", first.get("trigger").asText());
        HttpResponse<String> ran = send(service, token, "POST", "/watches/daily/run");
        assertEquals(ran.body(), 200, ran.statusCode());
        String runId = Json.MAPPER.readTree(ran.body()).at("/result/runId").asText();
        JsonNode followed = Json.MAPPER.readTree(within(lines));
        assertEquals(runId, followed.get("runId").asText());
        assertEquals(owner, followed.get("owner").asText());
        assertEquals("daily", followed.get("watchId").asText());
        assertEquals("nothing-new", followed.get("outcome").asText());
      } finally {
        follow.destroy();
        follow.waitFor(30, java.util.concurrent.TimeUnit.SECONDS);
      }

      assertEquals(204, send(service, token, "DELETE", "/watches/daily").statusCode());
      service.stop();

      // the service stopped: this process is the writer; --watch runs a disabled watch too
      ServiceProcess.Output offline =
          service.output(List.of("run", "--owner", owner, "--watch", "paused"), null);
      assertEquals(0, offline.exit());
      assertEquals(
          owner + "/paused nothing-new collected=0 fresh=0 notified=0 errors=0",
          offline.stdout().strip());
      ServiceProcess.Output nothing = service.output(List.of("run", "--owner", owner), null);
      assertEquals("a deleted and a disabled watch: nothing runs", "", nothing.stdout().strip());

      // the deleted watch's history, from the journal alone
      ServiceProcess.Output lines =
          service.output(List.of("history", "--owner", owner, "--watch", "daily"), null);
      assertEquals(0, lines.exit());
      List<String> replayed = lines.stdout().strip().lines().toList();
      assertEquals(2, replayed.size());
      // oldest first, as journalctl
      assertTrue(
          replayed.get(0), replayed.get(0).contains(" " + owner + "/daily nothing-new run="));
      assertTrue(replayed.get(0), replayed.get(0).contains(" trigger=run-all collected=0"));
      assertTrue(replayed.get(1), replayed.get(1).contains(" trigger=manual collected=0"));
      // the owner's every watch, filtered by outcome and time, as JSON lines
      ServiceProcess.Output all =
          service.output(
              List.of(
                  "history",
                  "--owner",
                  owner,
                  "--outcome",
                  "nothing-new",
                  "--since",
                  "1h",
                  "--json-lines"),
              null);
      assertEquals(0, all.exit());
      List<String> jsonLines = all.stdout().strip().lines().toList();
      assertEquals(all.stdout(), 3, jsonLines.size());
      assertEquals("paused", Json.MAPPER.readTree(jsonLines.get(2)).get("watchId").asText());
      ServiceProcess.Output none =
          service.output(
              List.of("history", "--owner", owner, "--outcome", "alert", "--json-lines"), null);
      assertEquals(0, none.exit());
      assertEquals("", none.stdout());
      assertEquals(
          1, service.output(List.of("history", "--owner", owner, "--watch", "never"), null).exit());
    }
  }

  /** The next line of a command that keeps running, or a failure after a minute and a half. */
  private static String within(java.io.BufferedReader lines) throws Exception {
    String line =
        java.util.concurrent.CompletableFuture.supplyAsync(
                () -> {
                  try {
                    return lines.readLine();
                  } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                  }
                })
            .get(90, java.util.concurrent.TimeUnit.SECONDS);
    if (line == null) throw new AssertionError("the command ended");
    return line;
  }

  private String login(ServiceProcess service) throws Exception {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(service.uri("/auth/login"))
                .header("Content-Type", "application/json")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        Json.text(Map.of("email", owner + "@example.org", "password", PASSWORD))))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals(r.body(), 200, r.statusCode());
    return Json.MAPPER.readTree(r.body()).get("token").asText();
  }

  private void create(
      ServiceProcess service, String token, String id, String feedUrl, boolean enabled)
      throws Exception {
    String body =
        TestWatches.body(id)
            .condition("anything new")
            .feed(feedUrl)
            .schedule("0 9 * * *")
            .enabled(enabled)
            .json();
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(service.uri("/watches"))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals(r.body(), 201, r.statusCode());
  }

  private HttpResponse<String> send(
      ServiceProcess service, String token, String method, String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(service.uri(path))
            .header("Authorization", "Bearer " + token)
            .method(method, HttpRequest.BodyPublishers.noBody())
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
