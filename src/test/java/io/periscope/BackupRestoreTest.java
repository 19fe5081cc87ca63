package io.periscope;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.periscope.json.Json;
import io.periscope.testing.FakeLaunchUpstream;
import io.periscope.testing.InProcessService;
import io.periscope.testing.NeedsPostgres;
import io.periscope.testing.ScratchDatabase;
import io.periscope.testing.TestJournals;
import io.periscope.testing.TestWatches;
import java.io.File;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * The backup drill of docs/operations.md: the cluster overlay's nightly CronJob, its own script run
 * here with the local PostgreSQL client tools, dumps a journal that a node wrote; the dump is
 * restored with pg_restore into a fresh database, and a node started on it with the same keyring
 * serves the same watch, the same runs and the same webhook secret (stored encrypted).
 */
public class BackupRestoreTest {
  private static final String PASSWORD = "backup-drill-passphrase";

  @Test
  @Category(NeedsPostgres.class)
  public void aRestoredDumpServesTheSameWatchesRunsAndSecrets() throws Exception {
    try (FakeLaunchUpstream upstream = new FakeLaunchUpstream();
        ScratchDatabase original = ScratchDatabase.create("periscope_backup");
        ScratchDatabase restored = ScratchDatabase.create("periscope_restored")) {
      String hook = upstream.url("/hook");
      String secretPath =
          "/channels/webhook-secret?url=" + URLEncoder.encode(hook, StandardCharsets.UTF_8);
      String watch =
          TestWatches.body("launch")
              .name("Acme launch")
              .condition("Acme sets a launch date")
              .feed(upstream.url("/feed.xml"))
              .channel("webhook:" + hook)
              .json();
      List<String> served;
      try (InProcessService node =
          new InProcessService(upstream.config(TestJournals.postgres(original)))) {
        node.account("alice", "user", PASSWORD);
        String token = node.login("alice", PASSWORD);
        assertEquals(201, node.send("POST", "/watches", token, watch, Map.of()).statusCode());
        var run = node.send("POST", "/watches/launch/run", token, null, Map.of());
        assertEquals(run.body(), 200, run.statusCode());
        assertEquals("alert", Json.MAPPER.readTree(run.body()).at("/result/outcome").asText());
        served = served(node, token, secretPath);
      }
      assertTrue(
          "the delivery made the endpoint's secret",
          Json.MAPPER.readTree(served.get(2)).path("secret").asText().startsWith("whsec_"));

      Path dump = backUp(original);
      run(
          "pg_restore",
          "--no-owner",
          "--exit-on-error",
          "--dbname=" + libpqAddress(restored.url()),
          "--username=" + restored.user(),
          dump.toString());

      try (InProcessService node =
          new InProcessService(upstream.config(TestJournals.postgres(restored)))) {
        String token = node.login("alice", PASSWORD);
        assertEquals(served, served(node, token, secretPath));
      }
    }
  }

  /** The watch, its runs and its endpoint's secret, as a node answers them. */
  private static List<String> served(InProcessService node, String token, String secretPath)
      throws Exception {
    List<String> bodies = new ArrayList<>();
    for (String path : List.of("/watches/launch", "/watches/launch/runs", secretPath)) {
      var response = node.send("GET", path, token, null, Map.of());
      assertEquals(path + ": " + response.body(), 200, response.statusCode());
      bodies.add(Json.MAPPER.readTree(response.body()).toString());
    }
    return bodies;
  }

  /** Runs the CronJob's own script (as the cluster overlay renders it) against {@code database}. */
  private static Path backUp(ScratchDatabase database) throws Exception {
    Process kubectl =
        new ProcessBuilder("kubectl", "kustomize", "k8s/overlays/cluster")
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    byte[] rendered = kubectl.getInputStream().readAllBytes();
    assertEquals("kubectl kustomize builds the cluster overlay", 0, kubectl.waitFor());
    ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
    JsonNode container = null;
    for (JsonNode doc : yaml.readValues(yaml.createParser(rendered), JsonNode.class).readAll()) {
      if (doc != null && doc.path("kind").asText().equals("CronJob"))
        container = doc.at("/spec/jobTemplate/spec/template/spec/containers/0");
    }
    assertTrue("the cluster overlay has a backup CronJob", container != null);

    Path dir = Files.createTempDirectory("periscope-backups");
    Path passwordFile = dir.resolve("password");
    Files.writeString(passwordFile, ""); // the test server trusts its local user
    List<String> command = new ArrayList<>();
    container.path("command").forEach(part -> command.add(part.asText()));
    ProcessBuilder job = new ProcessBuilder(command).redirectErrorStream(true);
    Map<String, String> env = job.environment();
    for (JsonNode e : container.path("env")) {
      if (e.has("value")) env.put(e.path("name").asText(), e.path("value").asText());
    }
    env.put("JOURNAL_DATABASE", database.url()); // the ConfigMap's DATABASE_URL
    env.put("PGUSER", database.user()); // the ConfigMap's DATABASE_USER
    env.put("PASSWORD_FILE", passwordFile.toString()); // the Secret, mounted
    Path backups = Files.createDirectory(dir.resolve("backups"));
    env.put("BACKUP_DIR", backups.toString()); // the volume
    Process dumping = job.start();
    String output = new String(dumping.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(output, 0, dumping.waitFor());
    File[] dumps = backups.toFile().listFiles((d, name) -> name.endsWith(".dump"));
    assertEquals(output, 1, dumps.length);
    return dumps[0].toPath();
  }

  /** A JDBC address as libpq reads it: without "jdbc:". */
  private static String libpqAddress(String jdbcUrl) {
    return URI.create(jdbcUrl.substring("jdbc:".length())).toString();
  }

  private static void run(String... command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(String.join(" ", command) + ": " + output, 0, p.waitFor());
  }
}
