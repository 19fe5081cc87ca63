package io.periscope.http;

import static io.periscope.testing.InProcessService.json;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.typesafe.config.Config;
import io.periscope.entity.Asks;
import io.periscope.json.Json;
import io.periscope.runtime.ShardedEntities;
import io.periscope.testing.FakeLaunchUpstream;
import io.periscope.testing.InProcessService;
import io.periscope.testing.NeedsPostgres;
import io.periscope.testing.TestJournals;
import io.periscope.testing.TestWatches;
import io.periscope.watch.Watch;
import io.periscope.watch.WatchEntity;
import io.periscope.watch.WatchSource;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * Channel credentials through the whole service, on the embedded H2 journal and on PostgreSQL:
 * absent from the journal's bytes, masked in every answer and in exports (sealed only on request),
 * and still what deliveries send.
 */
public class SealedChannelCredentialsTest {
  private static final String PASSWORD = "sealed-channels-passphrase";
  private static final String NTFY_PASSWORD = "ntfy-Pa55word-never-stored";
  private static final String GOTIFY_TOKEN = "GotifyTokenNeverStored42";

  private FakeLaunchUpstream upstream;
  private MockWebServer receiver;
  private final List<RecordedRequest> received =
      java.util.Collections.synchronizedList(new ArrayList<>());

  @Before
  public void start() throws Exception {
    upstream = new FakeLaunchUpstream();
    receiver = new MockWebServer();
    receiver.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) {
            received.add(request);
            return new MockResponse().setResponseCode(200).setBody("{}");
          }
        });
    receiver.start();
  }

  @After
  public void stop() throws Exception {
    receiver.shutdown();
    upstream.close();
  }

  @Test
  public void credentialsAreSealedOnH2() throws Exception {
    java.nio.file.Path dir = Files.createTempDirectory("periscope-sealed");
    credentialsAreSealed(() -> TestJournals.embedded(dir));
  }

  @Test
  @Category(NeedsPostgres.class)
  public void credentialsAreSealedOnPostgres() throws Exception {
    credentialsAreSealed(TestJournals::postgres);
  }

  private String ntfy() {
    return "ntfy:http://alice:" + NTFY_PASSWORD + "@localhost:" + receiver.getPort() + "/alerts";
  }

  private String ntfyMasked() {
    return "ntfy:http://alice:••••@localhost:" + receiver.getPort() + "/alerts";
  }

  private String gotify() {
    return "gotify:http://" + GOTIFY_TOKEN + "@localhost:" + receiver.getPort();
  }

  private String gotifyMasked() {
    return "gotify:http://••••@localhost:" + receiver.getPort();
  }

  private String watch(String id, List<String> channels) {
    return TestWatches.body(id)
        .name("Acme launch")
        .condition("Acme sets a launch date")
        .feed(upstream.url("/feed.xml"))
        .channels(channels)
        .json();
  }

  private void credentialsAreSealed(Supplier<Config> journal) throws Exception {
    String owner = "sealer-" + UUID.randomUUID().toString().substring(0, 8);
    String other = "importer-" + UUID.randomUUID().toString().substring(0, 8);
    Config config = upstream.config(journal.get());
    try (InProcessService s = new InProcessService(config)) {
      s.account(owner, "user", PASSWORD);
      String token = s.login(owner, PASSWORD);
      List<String> masked = List.of(ntfyMasked(), gotifyMasked());

      JsonNode created =
          json(
              s.send(
                  "POST", "/watches", token, watch("launch", List.of(ntfy(), gotify())), Map.of()),
              201);
      assertEquals(masked, channels(created));
      assertEquals(
          masked, channels(json(s.send("GET", "/watches/launch", token, null, Map.of()), 200)));
      assertEquals(
          masked,
          channels(
              json(s.send("GET", "/watches", token, null, Map.of()), 200).get("watches").get(0)));

      // a real alert goes out with the real credentials; its record shows them masked
      JsonNode run =
          json(s.send("POST", "/watches/launch/run", token, null, Map.of()), 200).get("result");
      assertEquals("alert", run.get("outcome").asText());
      List<String> delivered = new ArrayList<>();
      run.get("deliveries").forEach(d -> delivered.add(d.get("channel").asText()));
      assertEquals(masked, delivered);
      assertCredentialsArrived();
      JsonNode history = json(s.send("GET", "/watches/launch/runs", token, null, Map.of()), 200);
      assertFalse(history.toString().contains(NTFY_PASSWORD));
      assertTrue(history.toString().contains(ntfyMasked()));

      // the watch sent back as it was shown keeps its credentials
      ObjectNode shown =
          (ObjectNode) json(s.send("GET", "/watches/launch", token, null, Map.of()), 200);
      shown.put("name", "Acme launch, renamed");
      assertEquals(
          masked,
          channels(json(s.send("PUT", "/watches/launch", token, Json.text(shown), Map.of()), 200)));
      JsonNode tested =
          json(s.send("POST", "/watches/launch/channels/test", token, null, Map.of()), 200);
      assertFalse(tested.toString().contains(NTFY_PASSWORD));
      assertCredentialsArrived();
      // a masked credential it does not have is refused, with the channel's place
      JsonNode refused =
          json(
              s.send(
                  "PUT",
                  "/watches/launch",
                  token,
                  watch("launch", List.of("ntfy:http://mallory:••••@localhost:1/x")),
                  Map.of()),
              400);
      assertEquals("[\"channels\",0]", refused.get("issues").get(0).get("path").toString());

      // a test send of a masked channel has no credential to send with
      JsonNode maskedTest =
          json(
              s.send(
                  "POST",
                  "/channels/test",
                  token,
                  Json.text(Map.of("channels", List.of(ntfyMasked()))),
                  Map.of()),
              400);
      assertEquals("[\"channels\",0]", maskedTest.get("issues").get(0).get("path").toString());

      // exports: masked, or sealed on request
      String plainExport = s.send("GET", "/export", token, null, Map.of()).body();
      assertTrue(plainExport.contains(ntfyMasked()));
      assertFalse(plainExport.contains("#sealed="));
      String sealedExport =
          s.send("GET", "/export?credentials=sealed", token, null, Map.of()).body();
      assertTrue(sealedExport.contains("#sealed="));
      assertFalse(sealedExport.contains(NTFY_PASSWORD));
      assertFalse(sealedExport.contains(GOTIFY_TOKEN));
      json(s.send("GET", "/export?credentials=plain", token, null, Map.of()), 400);

      // a masked export cannot be imported; a sealed one can, on the same keyring
      s.account(other, "user", PASSWORD);
      String otherToken = s.login(other, PASSWORD);
      JsonNode notImported =
          json(s.send("POST", "/import", otherToken, plainExport, Map.of()), 409);
      assertTrue(notImported.toString(), notImported.toString().contains("hides its credential"));
      json(s.send("POST", "/import", otherToken, sealedExport, Map.of()), 200);
      assertEquals(
          masked,
          channels(json(s.send("GET", "/watches/launch", otherToken, null, Map.of()), 200)));
      json(s.send("POST", "/watches/launch/channels/test", otherToken, null, Map.of()), 200);
      assertCredentialsArrived();

      assertFalse("no credential in the journal", journalHolds(config, NTFY_PASSWORD));
      assertFalse("no credential in the journal", journalHolds(config, GOTIFY_TOKEN));

      // a watch journaled by an earlier version, credentials in plain text, reads masked and is
      // sealed on its next write
      var entities = new ShardedEntities(s.system); // the same shard regions as the service's
      var asks = new Asks(s.system, Duration.ofSeconds(10));
      asks.<WatchEntity.Command, Watch>ask(
              entities.watch(owner, "earlier"),
              r ->
                  new WatchEntity.Create(
                      new Watch(
                          "earlier",
                          owner,
                          "earlier",
                          List.of(new WatchSource("rss", upstream.url("/feed.xml"), null, null)),
                          "0 0 1 1 *",
                          "c",
                          List.of(ntfy()),
                          0.8,
                          null,
                          true,
                          null),
                      null,
                      null,
                      r))
          .toCompletableFuture()
          .get(10, TimeUnit.SECONDS);
      asks.<io.periscope.account.AccountEntity.Command, org.apache.pekko.Done>ask(
              entities.account(owner),
              r -> new io.periscope.account.AccountEntity.AddWatch("earlier", r))
          .toCompletableFuture()
          .get(10, TimeUnit.SECONDS);
      assertTrue("the earlier shape is in the journal", journalHolds(config, NTFY_PASSWORD));
      JsonNode earlier = json(s.send("GET", "/watches/earlier", token, null, Map.of()), 200);
      assertEquals(List.of(ntfyMasked()), channels(earlier));
      json(s.send("POST", "/watches/earlier/channels/test", token, null, Map.of()), 200);
      assertEquals(basic(), ntfyAuthorization());
      json(s.send("PUT", "/watches/earlier", token, Json.text(earlier), Map.of()), 200);
      assertEquals(
          "the earlier watch's newest event has it sealed",
          List.of(false, false),
          newestEventHolds(config, owner, "earlier"));
      json(s.send("POST", "/watches/earlier/channels/test", token, null, Map.of()), 200);
      assertEquals("the sealed credential is sent", basic(), ntfyAuthorization());
    }
  }

  /** Whether any event or snapshot of the journal holds {@code text}. */
  private static boolean journalHolds(Config config, String text) throws Exception {
    try (Connection c = TestJournals.connect(config)) {
      for (String query :
          List.of(
              "SELECT \"event_payload\" FROM \"event_journal\"",
              "SELECT \"snapshot_payload\" FROM \"snapshot\"")) {
        try (ResultSet rows = c.createStatement().executeQuery(query)) {
          while (rows.next())
            if (new String(rows.getBytes(1), StandardCharsets.UTF_8).contains(text)) return true;
        }
      }
    }
    return false;
  }

  /** Whether the newest event of the watch holds the ntfy password, the Gotify token. */
  private static List<Boolean> newestEventHolds(Config config, String owner, String id)
      throws Exception {
    try (Connection c = TestJournals.connect(config)) {
      var query =
          c.prepareStatement(
              "SELECT \"event_payload\" FROM \"event_journal\" WHERE \"persistence_id\" LIKE ?"
                  + " ORDER BY \"sequence_number\" DESC");
      query.setString(1, "%" + owner + "%" + id);
      try (ResultSet rows = query.executeQuery()) {
        assertTrue(rows.next());
        String newest = new String(rows.getBytes(1), StandardCharsets.UTF_8);
        return List.of(newest.contains(NTFY_PASSWORD), newest.contains(GOTIFY_TOKEN));
      }
    }
  }

  private void assertCredentialsArrived() throws Exception {
    long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (System.nanoTime() < until) {
      boolean ntfy = false;
      boolean gotify = false;
      synchronized (received) {
        for (RecordedRequest r : received) {
          ntfy |= r.getPath().equals("/alerts") && basic().equals(r.getHeader("Authorization"));
          gotify |=
              r.getPath().equals("/message") && GOTIFY_TOKEN.equals(r.getHeader("X-Gotify-Key"));
        }
        if (ntfy && gotify) {
          received.clear();
          return;
        }
      }
      Thread.sleep(50);
    }
    throw new AssertionError("the channels did not get their credentials: " + received);
  }

  /** The Authorization of the next ntfy publish. */
  private String ntfyAuthorization() throws Exception {
    long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (System.nanoTime() < until) {
      synchronized (received) {
        for (RecordedRequest r : received) {
          if (r.getPath().equals("/alerts")) {
            received.clear();
            return r.getHeader("Authorization");
          }
        }
      }
      Thread.sleep(50);
    }
    throw new AssertionError("nothing was published to ntfy");
  }

  private static String basic() {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString(("alice:" + NTFY_PASSWORD).getBytes(StandardCharsets.UTF_8));
  }

  private static List<String> channels(JsonNode watch) {
    List<String> out = new ArrayList<>();
    watch.get("channels").forEach(c -> out.add(c.asText()));
    return out;
  }
}
