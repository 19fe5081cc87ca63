package io.periscope;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.periscope.testing.Dockerfile;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.Test;

/**
 * What a home-server operator starts from: compose.yaml, the Dockerfile and .env.example, read as
 * files (no Docker engine is needed to check them).
 */
public class SelfHostingKitTest {
  private static final String DATA_DIR = "/var/lib/periscope";

  private final JsonNode compose = readCompose();

  /**
   * SnakeYAML resolves the anchors and merge keys ({@code <<: *periscope}) that Jackson leaves as
   * is.
   */
  private static JsonNode readCompose() {
    try (Reader file = Files.newBufferedReader(Path.of("compose.yaml"))) {
      Object document = new org.yaml.snakeyaml.Yaml().load(file);
      return new ObjectMapper().valueToTree(document);
    } catch (IOException e) {
      throw new AssertionError("cannot read compose.yaml: " + e.getMessage(), e);
    }
  }

  private Map<String, JsonNode> services() {
    Map<String, JsonNode> services = new TreeMap<>();
    compose.path("services").fields().forEachRemaining(s -> services.put(s.getKey(), s.getValue()));
    return services;
  }

  @Test
  public void everyComposeServiceHasAHealthCheck() throws IOException {
    assertFalse(services().isEmpty());
    services()
        .forEach(
            (name, service) -> {
              JsonNode test = service.at("/healthcheck/test");
              assertTrue(name + " has a health check", test.isArray() && test.size() > 1);
            });
    JsonNode periscope = services().get("periscope").at("/healthcheck/test");
    List<String> test = new ArrayList<>();
    periscope.forEach(part -> test.add(part.asText().replace("$$", "$")));
    assertEquals(
        "the image's own health check ($$ is compose's $)",
        Dockerfile.healthCheckCommand(),
        test.subList(1, test.size()));
  }

  @Test
  public void dataLivesOnNamedVolumes() {
    Set<String> declared = new HashSet<>();
    compose.path("volumes").fieldNames().forEachRemaining(declared::add);
    Map<String, String> dataPaths =
        Map.of(
            "periscope", DATA_DIR,
            "periscope-postgres", DATA_DIR,
            "postgres", "/var/lib/postgresql/data");
    dataPaths.forEach(
        (name, path) -> {
          JsonNode service = services().get(name);
          assertTrue(name + " is a service", service != null);
          boolean onVolume = false;
          for (JsonNode mount : service.path("volumes")) {
            String[] parts = mount.asText().split(":");
            if (parts.length >= 2 && parts[1].equals(path)) {
              assertTrue(
                  name + ": " + parts[0] + " is a named volume", declared.contains(parts[0]));
              onVolume = true;
            }
          }
          assertTrue(name + " keeps " + path + " on a volume", onVolume);
        });
    assertEquals(DATA_DIR, services().get("periscope").at("/environment/DATA_DIR").asText());
  }

  @Test
  public void theTwoSetupsAreProfilesAndThePostgresOneUsesTheDatabase() {
    assertEquals("embedded", services().get("periscope").at("/profiles/0").asText());
    JsonNode withDatabase = services().get("periscope-postgres");
    assertEquals("postgres", withDatabase.at("/profiles/0").asText());
    assertTrue(
        withDatabase
            .at("/environment/DATABASE_URL")
            .asText()
            .startsWith("jdbc:postgresql://postgres:5432/"));
    assertEquals("service_healthy", withDatabase.at("/depends_on/postgres/condition").asText());
  }

  @Test
  public void stoppingLeavesTimeToDrain() {
    for (String name : List.of("periscope", "periscope-postgres")) {
      Duration grace =
          Duration.parse(
              "PT" + services().get(name).path("stop_grace_period").asText().toUpperCase());
      assertTrue(
          name + " waits at least 60 s on stop", grace.compareTo(Duration.ofSeconds(60)) >= 0);
    }
  }

  @Test
  public void theImageRunsAsNonRootWithAVolumeAHealthCheckAndMemoryFlags() throws IOException {
    String dockerfile = Files.readString(Path.of("Dockerfile"));
    String runStage = dockerfile.substring(dockerfile.lastIndexOf("\nFROM "));
    assertTrue(runStage.contains("\nUSER 10001:10001\n"));
    assertTrue(runStage.contains("VOLUME [\"" + DATA_DIR + "\"]"));
    assertTrue(runStage.contains("ENV DATA_DIR=" + DATA_DIR));
    assertTrue(runStage.contains("\nHEALTHCHECK "));
    assertTrue(runStage.contains("-XX:MaxRAMPercentage="));
  }

  /**
   * Every variable the configuration reads (each {@code ${?VAR}} of conf/, and those read in code)
   * is listed in .env.example with its default.
   */
  @Test
  public void envExampleListsEverySetting() throws IOException {
    Set<String> read =
        new TreeSet<>(
            List.of(
                "PERISCOPE_PROFILE",
                "SEED_NODES",
                "PERISCOPE_LOG_LEVEL",
                "PEKKO_LOG_LEVEL",
                "OIDC_<NAME>_ISSUER",
                "OIDC_<NAME>_CLIENT_ID",
                "OIDC_<NAME>_CLIENT_SECRET",
                "OIDC_<NAME>_SCOPES"));
    Pattern substitution = Pattern.compile("\\$\\{\\?([A-Z][A-Z0-9_]*)\\}");
    try (Stream<Path> files = Files.list(Path.of("conf"))) {
      for (Path file : files.filter(f -> f.toString().endsWith(".conf")).toList()) {
        // the HOCON without its comments, which may show the syntax
        String settings = Files.readString(file).replaceAll("(?m)^\\s*#.*$", "");
        Matcher m = substitution.matcher(settings);
        while (m.find()) read.add(m.group(1));
      }
    }
    Set<String> listed = new HashSet<>();
    Matcher line =
        Pattern.compile("(?m)^#? ?([A-Z][A-Z0-9_<>]*)=")
            .matcher(Files.readString(Path.of(".env.example")));
    while (line.find()) listed.add(line.group(1));
    read.removeAll(listed);
    assertEquals("settings missing from .env.example", Set.of(), read);
  }
}
