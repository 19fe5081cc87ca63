package io.periscope;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.auth0.jwt.JWT;
import com.auth0.jwt.algorithms.Algorithm;
import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.json.Json;
import io.periscope.testing.ServiceProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/**
 * What the container image and an operator's secrets rely on, against the jar: {@code
 * LOG_FORMAT=json} writes nothing but JSON lines, a secret given as {@code AUTH_JWT_SECRET_FILE}
 * signs the tokens, and the {@code healthcheck} command tells a serving node from a stopped one.
 */
public class OperatorKitIT {
  private static final String SECRET = "a-jwt-secret-read-from-a-file-32b";

  @Test
  public void jsonLogsSecretFilesAndTheHealthcheck() throws Exception {
    Path secretFile = Files.createTempFile("periscope-jwt", ".secret");
    Files.writeString(secretFile, SECRET + "\n");
    Path log = ServiceProcess.logFile("operator-kit");
    Files.deleteIfExists(log);
    Map<String, String> env =
        Map.of(
            "DATA_DIR", Files.createTempDirectory("periscope-kit").toString(),
            "AUTH_JWT_SECRET_FILE", secretFile.toString(),
            "LOG_FORMAT", "json");
    try (ServiceProcess service = new ServiceProcess(env, log)) {
      service.start();
      String token = service.signedInAdmin("root", "a-long-admin-passphrase");
      JWT.require(Algorithm.HMAC256(SECRET)).build().verify(token); // signed with the file's secret

      ServiceProcess.Output healthy = service.output(List.of("healthcheck"), null);
      assertEquals(0, healthy.exit());
      assertTrue(healthy.stdout(), healthy.stdout().startsWith("healthy "));
      service.stop();

      List<JsonNode> lines = new ArrayList<>();
      for (String line : Files.readAllLines(log)) {
        // pekko-projection-jdbc 1.1 prints "# stop <projection>" with println (on standard output,
        // which this log also holds) when a projection stops; it is not a log event of ours
        if (line.isBlank() || line.startsWith("# stop org.apache.pekko.projection.")) continue;
        JsonNode parsed = Json.MAPPER.readTree(line); // throws on a line that is not JSON
        assertTrue(line, parsed.isObject() && parsed.has("timestamp") && parsed.has("level"));
        assertFalse("no secret in the logs: " + line, line.contains(SECRET));
        lines.add(parsed);
      }
      assertTrue(lines.stream().anyMatch(l -> l.path("event").asText().equals("ready")));
      assertTrue(
          lines.stream()
              .anyMatch(
                  l ->
                      l.path("event").asText().equals("request")
                          && l.path("route").asText().equals("/auth/login")
                          && l.path("status").asText().equals("200")));
      assertEquals("a stopped node is unhealthy", 1, service.command(List.of("healthcheck"), null));
    }
  }

  @Test
  public void aVariableAndItsFileTogetherStopTheStart() throws Exception {
    Path secretFile = Files.createTempFile("periscope-jwt", ".secret");
    Files.writeString(secretFile, SECRET);
    Path log = ServiceProcess.logFile("operator-kit-both");
    try (ServiceProcess service =
        new ServiceProcess(
            Map.of(
                "DATA_DIR", Files.createTempDirectory("periscope-kit").toString(),
                "AUTH_JWT_SECRET", SECRET,
                "AUTH_JWT_SECRET_FILE", secretFile.toString()),
            log)) {
      assertEquals(
          "exit 4, a configuration the service cannot start with (docs/command-line.md)",
          4,
          service.command(List.of("serve"), null));
      assertTrue(
          Files.readString(log).contains("set AUTH_JWT_SECRET or AUTH_JWT_SECRET_FILE, not both"));
    }
  }
}
