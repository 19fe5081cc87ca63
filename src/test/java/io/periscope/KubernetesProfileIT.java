package io.periscope;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.periscope.testing.ServiceProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/**
 * The jar on the kubernetes profile does not serve without what the profile requires: PUBLIC_URL,
 * METRICS_TOKEN and, remoting being TLS, usable certificates in REMOTE_TLS_DIR. Each missing one
 * ends {@code serve} at once with exit 1 and one {@code error:} line naming it, before anything
 * starts (the database named here does not even exist).
 */
public class KubernetesProfileIT {
  private static final Map<String, String> COMPLETE =
      Map.of(
          "PERISCOPE_PROFILE",
          "kubernetes",
          "DATABASE_URL",
          "jdbc:postgresql://127.0.0.1:9/unreachable",
          "AUTH_JWT_SECRET",
          "a-shared-secret-of-at-least-32-bytes",
          "ENCRYPTION_KEY",
          "a-shared-encryption-key-of-32-bytes-or-more",
          "PUBLIC_URL",
          "https://periscope.example.org",
          "METRICS_TOKEN",
          "a-scrape-token-of-at-least-32-characters",
          "REMOTE_TLS_DIR",
          "/nonexistent/remote-tls");

  /** What {@code serve} wrote on standard error, ending with exit 1. */
  private static String refusal(String name, Map<String, String> env) throws Exception {
    Path log = ServiceProcess.logFile("kubernetes-profile-" + name);
    Files.deleteIfExists(log);
    Path dataDir = Files.createTempDirectory("periscope-kubernetes-profile").resolve("node");
    Map<String, String> withDataDir = new HashMap<>(env);
    withDataDir.put("DATA_DIR", dataDir.toString());
    try (ServiceProcess serve = new ServiceProcess(withDataDir, log)) {
      assertEquals("serve exits 1", 1, serve.command(List.of("serve"), null));
    }
    assertTrue("nothing started: no data directory", !Files.exists(dataDir));
    return Files.readString(log);
  }

  @Test
  public void serveStopsWithOneLineNamingWhatTheProfileMisses() throws Exception {
    for (String missing : List.of("PUBLIC_URL", "METRICS_TOKEN")) {
      Map<String, String> env = new HashMap<>(COMPLETE);
      env.remove(missing);
      String err = refusal(missing, env);
      assertTrue(err, err.startsWith("error: " + missing + " must be set on this profile: "));
      assertEquals(err, 1, err.lines().count());
    }
    String err = refusal("remote-tls", COMPLETE);
    assertTrue(err, err.startsWith("error: REMOTE_TLS_DIR (/nonexistent/remote-tls): "));
    assertEquals(err, 1, err.lines().count());
  }
}
