package io.periscope;

import static io.periscope.testing.TestWatches.disabledBody;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.json.Json;
import io.periscope.testing.NeedsPostgres;
import io.periscope.testing.OpmlFiles;
import io.periscope.testing.ScratchDatabase;
import io.periscope.testing.ServiceProcess;
import io.periscope.testing.TestJournals;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * The command line's {@code export} and {@code import} against the jar: an instance on the embedded
 * journal is exported (through its running service, and on its journal once stopped), and imported
 * into one on PostgreSQL (on its journal, then through its running service), which then answers the
 * same {@code GET /watches}.
 */
@Category(NeedsPostgres.class)
public class TransferCommandLineIT {
  private static final String SECRET = "transfer-command-test-secret-of-32-bytes";
  // one key for both instances: the sealed credentials of one import into the other
  private static final String ENCRYPTION_KEY = "qJ7t0zWv3N-transfer-encryption-key-9xLm2";
  private static final String NTFY = "ntfy:https://alice:s3cret-ntfy-pass@ntfy.example.org/alerts";
  private static final String PASSWORD = "a-moving-passphrase";

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final String owner = "mover-" + UUID.randomUUID().toString().substring(0, 8);

  @Test
  public void anEmbeddedInstanceMovesToPostgresWithExportAndImport() throws Exception {
    Path document = Files.createTempFile("periscope-export", ".json");
    JsonNode listed;
    Map<String, String> embeddedEnv = env();
    try (ServiceProcess embedded =
        new ServiceProcess(embeddedEnv, ServiceProcess.logFile("cli-export-h2"))) {
      assertEquals(0, createAccount(embedded));
      embedded.start();
      String token = login(embedded);
      call(embedded, token, "POST", "/watches", disabledBody("first", "0 9 * * *"), 201);
      call(embedded, token, "POST", "/watches", disabledBody("second", "0 18 * * 1"), 201);
      ObjectNode third = (ObjectNode) Json.MAPPER.readTree(disabledBody("third", "0 7 * * *"));
      third.set("channels", Json.MAPPER.valueToTree(List.of(NTFY)));
      call(embedded, token, "POST", "/watches", third.toString(), 201);
      call(embedded, token, "PUT", "/trust-rules/example.org", "{\"tier\": \"official\"}", 200);
      listed = call(embedded, token, "GET", "/watches", null, 200);

      ServiceProcess.Output running =
          embedded.output(
              List.of("export", "--sealed-credentials", "-o", document.toString()), null);
      assertEquals(0, running.exit());
      embedded.stop();
      ServiceProcess.Output stopped =
          embedded.output(List.of("export", "--owner", owner, "--sealed-credentials"), null);
      assertEquals(0, stopped.exit());
      ServiceProcess.Output masked = embedded.output(List.of("export", "--owner", owner), null);
      assertTrue(
          "masked without the option",
          masked.stdout().contains("ntfy:https://alice:••••@ntfy.example.org/alerts\""));
      assertEquals(
          "the journal says what the service said",
          Json.MAPPER.readTree(Files.readString(document)).get("accounts"),
          Json.MAPPER.readTree(stopped.stdout()).get("accounts"));
    }
    JsonNode exported = Json.MAPPER.readTree(Files.readString(document)).get("accounts").get(0);
    assertEquals(owner, exported.get("id").asText());
    assertEquals(3, exported.get("watches").size());
    assertTrue(exported.toString().contains("#sealed="));
    assertFalse("the credential is not in the document", exported.toString().contains("s3cret"));

    ScratchDatabase database = TestJournals.postgresDatabase();
    Map<String, String> postgresEnv = env();
    postgresEnv.put("DATABASE_URL", database.url());
    postgresEnv.put("DATABASE_USER", database.user());
    try (ServiceProcess postgres =
        new ServiceProcess(postgresEnv, ServiceProcess.logFile("cli-import-postgres"))) {
      assertEquals(0, createAccount(postgres));
      ServiceProcess.Output onJournal =
          postgres.output(List.of("import", document.toString()), null);
      assertEquals(onJournal.stdout(), 0, onJournal.exit());
      assertEquals(
          owner + " imported: created 3, unchanged 0, trust rules 1\n", onJournal.stdout());

      postgres.start();
      // again through the service, with an account this instance does not have
      ObjectNode withStranger = (ObjectNode) Json.MAPPER.readTree(Files.readString(document));
      ObjectNode stranger = exported.deepCopy();
      stranger.put("id", "stranger-" + owner);
      ((ArrayNode) withStranger.get("accounts")).add(stranger);
      Path both = Files.createTempFile("periscope-export", ".json");
      Files.writeString(both, withStranger.toString());
      ServiceProcess.Output again = postgres.output(List.of("import", both.toString()), null);
      assertEquals("a missing account fails the command", 1, again.exit());
      List<String> lines = again.stdout().strip().lines().toList();
      assertEquals(owner + " imported: created 0, unchanged 3, trust rules 1", lines.get(0));
      assertEquals(
          "stranger-" + owner + " refused: no account stranger-" + owner + " here", lines.get(1));

      String token = login(postgres);
      assertEquals(listed, call(postgres, token, "GET", "/watches", null, 200));
      assertEquals(
          "official",
          call(postgres, token, "GET", "/trust-rules/example.org", null, 200).get("tier").asText());
    }
  }

  @Test
  public void aReadersOpmlImportsAsOneDisabledWatchPerFolder() throws Exception {
    Path opml = Files.createTempFile("reader", ".opml");
    Files.write(opml, OpmlFiles.file("reader-export.opml"));
    Path hostile = Files.createTempFile("hostile", ".opml");
    Files.write(hostile, OpmlFiles.file("billion-laughs.opml"));
    try (ServiceProcess jar = new ServiceProcess(env(), ServiceProcess.logFile("cli-opml"))) {
      assertEquals(0, createAccount(jar));
      ServiceProcess.Output noOwner =
          jar.output(List.of("import", "--opml", opml.toString()), null);
      assertEquals(2, noOwner.exit());
      ServiceProcess.Output refused =
          jar.output(List.of("import", "--opml", hostile.toString(), "--owner", owner), null);
      assertEquals("a DTD is refused: nothing imported", 1, refused.exit());

      ServiceProcess.Output imported =
          jar.output(List.of("import", "--opml", opml.toString(), "--owner", owner), null);
      assertEquals(imported.stdout(), 0, imported.exit());
      assertEquals(owner + " imported: created 3, unchanged 0, trust rules 0\n", imported.stdout());
      JsonNode watches =
          Json.MAPPER
              .readTree(jar.output(List.of("export", "--owner", owner), null).stdout())
              .get("accounts")
              .get(0)
              .get("watches");
      assertEquals(
          List.of("Space", "Space / Agencies", "Miniflux"), watches.findValuesAsText("name"));
      assertFalse(watches.get(0).get("enabled").asBoolean());
      assertEquals(2, watches.get(0).get("sources").size());
    }
  }

  private static Map<String, String> env() throws Exception {
    Map<String, String> env = new HashMap<>();
    env.put("DATA_DIR", Files.createTempDirectory("periscope-transfer").toString());
    env.put("AUTH_JWT_SECRET", SECRET);
    env.put("ENCRYPTION_KEY", ENCRYPTION_KEY);
    return env;
  }

  private int createAccount(ServiceProcess jar) throws Exception {
    return jar.command(
        List.of(
            "users", "create", "--id", owner, "--email", owner + "@example.org", "--role", "user"),
        PASSWORD + "\n");
  }

  private String login(ServiceProcess jar) throws Exception {
    return call(
            jar,
            null,
            "POST",
            "/auth/login",
            Json.text(Map.of("email", owner + "@example.org", "password", PASSWORD)),
            200)
        .get("token")
        .asText();
  }

  private JsonNode call(
      ServiceProcess jar, String token, String method, String path, String body, int status)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(jar.uri(path))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) request.header("Content-Type", "application/json");
    if (token != null) request.header("Authorization", "Bearer " + token);
    HttpResponse<String> r = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(r.body(), status, r.statusCode());
    return Json.MAPPER.readTree(r.body());
  }
}
