package io.periscope.web;

import static org.junit.Assert.assertEquals;

import io.periscope.json.Json;
import io.periscope.testing.ApiClient;
import io.periscope.testing.ServiceProcess;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * What the browser journeys share: the jar as an operator starts it, with loopback fakes of every
 * upstream (WebFakes), on a fresh data directory and a port of its own, and a Chromium on it. A
 * journey class starts it in its {@code @BeforeClass} and stops it in its {@code @AfterClass}.
 */
abstract class BrowserJourneys {
  static WebFakes fakes;
  static ServiceProcess service;

  /** The service's output. */
  static Path log;

  static Browser browser;
  static final ApiClient api = new ApiClient();
  static String adminToken;

  /**
   * @param dataDir the prefix of the data directory's name
   * @param settings the journey's own settings over those of the fakes (it may remove some)
   */
  static void startService(String dataDir, String jwtSecret, Consumer<Map<String, String>> settings)
      throws Exception {
    fakes = new WebFakes();
    Path data = Files.createTempDirectory(dataDir);
    Map<String, String> env = new HashMap<>(fakes.env());
    env.put("DATA_DIR", data.toString());
    env.put("AUTH_JWT_SECRET", jwtSecret);
    // the browser's origin: the identity provider's return and the mails' links land on it
    int port = ServiceProcess.freePort();
    env.put("PORT", Integer.toString(port));
    env.put("PUBLIC_URL", "http://127.0.0.1:" + port);
    settings.accept(env);
    log = data.resolve("service.log");
    service = new ServiceProcess(env, log).start();
    browser = new Browser("http://127.0.0.1:" + service.port());
  }

  /** Makes the account {@code id} (mail {@code id@example.org}, role user) as the administrator. */
  static void makeAccount(String id, String password) throws Exception {
    HttpResponse<String> r =
        api.send(
            "POST",
            service.uri("/admin/users"),
            adminToken,
            Json.text(
                Map.of(
                    "id", id, "email", id + "@example.org", "role", "user", "password", password)));
    assertEquals(r.body(), 201, r.statusCode());
  }

  static void stopService() throws Exception {
    try {
      if (browser != null) browser.close();
      if (service != null) service.close();
      if (fakes != null) fakes.close();
    } finally {
      browser = null;
      service = null;
      fakes = null;
      adminToken = null;
    }
  }
}
