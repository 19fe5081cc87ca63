package io.periscope;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.json.Json;
import io.periscope.testing.ServiceProcess;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.Test;

/**
 * The command line's {@code users} commands against the jar: on the journal while no service runs,
 * then through the running service; both audited as the operator, both keeping the last enabled
 * administrator, and a one-time password (no SMTP here) that sets a new password once.
 */
public class UsersCommandLineIT {
  private static final String SECRET = "users-command-test-secret-of-32-bytes";
  private static final Pattern ONE_TIME =
      Pattern.compile(
          "one-time password for (\\S+) \\(once, until (\\S+)\\): (\\S+)\n"
              + "choose the new password at (\\S+)\n");

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @Test
  public void operatorsAdministerAccountsOnTheJournalAndThroughTheService() throws Exception {
    Map<String, String> env = new HashMap<>();
    env.put("DATA_DIR", Files.createTempDirectory("periscope-users").toString());
    env.put("AUTH_JWT_SECRET", SECRET);
    try (ServiceProcess jar = new ServiceProcess(env, ServiceProcess.logFile("cli-users"))) {
      // ---- no service: the commands write the journal themselves
      for (String[] account :
          List.of(
              new String[] {"root", "admin"},
              new String[] {"bob", "user"},
              new String[] {"carol", "user"})) {
        assertEquals(0, create(jar, account[0], account[1]));
      }
      assertEquals(
          List.of(
              "bob user active bob@example.org",
              "carol user active carol@example.org",
              "root admin active root@example.org"),
          sorted(ok(jar, "users", "list")));
      assertEquals(
          "root admin active root@example.org\n", ok(jar, "users", "list", "--role", "admin"));
      assertEquals("carol user active carol@example.org\n", ok(jar, "users", "list", "-q", "CAR"));

      for (List<String> lastAdmin :
          List.of(
              List.of("users", "set-role", "root", "user"),
              List.of("users", "disable", "root"),
              List.of("users", "delete", "root"))) {
        ServiceProcess.Output refused = jar.output(lastAdmin, null);
        assertEquals(lastAdmin + " is refused", 1, refused.exit());
        assertEquals("", refused.stdout());
      }
      assertEquals("carol user disabled carol@example.org\n", ok(jar, "users", "disable", "carol"));
      JsonNode disabled =
          Json.MAPPER.readTree(ok(jar, "users", "list", "--status", "disabled", "--json"));
      assertEquals(1, disabled.get("users").size());
      assertEquals("carol", disabled.at("/users/0/id").asText());
      String offlineToken = oneTimePassword(ok(jar, "users", "reset-password", "bob"), "bob");
      assertEquals(
          "deleted carol (run history erased)\n",
          ok(jar, "users", "delete", "carol", "--run-history", "erase"));
      assertEquals(1, jar.command(List.of("users", "disable", "nobody"), null));
      assertEquals(1, jar.command(List.of("users", "reset-password", "carol"), null));

      // ---- the service starts on the same journal: what the commands did is there
      jar.start();
      String root = login(jar, "root", "root-passphrase-long").get("token").asText();
      List<String> offline = audit(jar, root);
      assertEquals(
          List.of(
              "create root admin",
              "create bob user",
              "create carol user",
              "disable carol",
              "reset-password bob one-time password",
              "delete carol run history erased"),
          offline);
      setPassword(jar, offlineToken, "bobs-second-passphrase");
      assertEquals(200, loginStatus(jar, "bob", "bobs-second-passphrase"));
      assertEquals(
          "the one-time password works once",
          400,
          post(jar, "/auth/reset-password", null, resetBody(offlineToken, "x-another-passphrase"))
              .statusCode());

      // ---- through the running service
      assertEquals(
          "bob admin active bob@example.org\n", ok(jar, "users", "set-role", "bob", "admin"));
      assertEquals(
          "root user active root@example.org\n", ok(jar, "users", "set-role", "root", "user"));
      assertEquals(
          "bob is now the last enabled admin",
          1,
          jar.command(List.of("users", "disable", "bob"), null));
      ok(jar, "users", "set-role", "root", "admin");
      root = login(jar, "root", "root-passphrase-long").get("token").asText();
      assertEquals("bob admin disabled bob@example.org\n", ok(jar, "users", "disable", "bob"));
      assertEquals(403, loginStatus(jar, "bob", "bobs-second-passphrase"));
      assertEquals("bob admin active bob@example.org\n", ok(jar, "users", "enable", "bob"));
      assertEquals(200, loginStatus(jar, "bob", "bobs-second-passphrase"));
      String onlineToken = oneTimePassword(ok(jar, "users", "reset-password", "bob"), "bob");
      setPassword(jar, onlineToken, "bobs-third-passphrase");
      assertEquals(200, loginStatus(jar, "bob", "bobs-third-passphrase"));
      assertEquals("deleted bob (run history kept)\n", ok(jar, "users", "delete", "bob"));
      assertEquals(List.of("root admin active root@example.org"), sorted(ok(jar, "users", "list")));
      assertEquals(1, jar.command(List.of("users", "delete", "bob"), null));
      assertEquals(
          List.of(
              "set-role bob admin",
              "set-role root user",
              "set-role root admin",
              "disable bob",
              "enable bob",
              "reset-password bob one-time password",
              "delete bob run history kept"),
          audit(jar, root).subList(offline.size(), offline.size() + 7));
    }
  }

  private static int create(ServiceProcess jar, String id, String role) throws Exception {
    return jar.command(
        List.of("users", "create", "--id", id, "--email", id + "@example.org", "--role", role),
        id + "-passphrase-long\n");
  }

  /** A command's standard output, which must exit 0. */
  private static String ok(ServiceProcess jar, String... args) throws Exception {
    ServiceProcess.Output output = jar.output(List.of(args), null);
    assertEquals(List.of(args) + ": " + output.stdout(), 0, output.exit());
    return output.stdout();
  }

  private static List<String> sorted(String lines) {
    return lines.strip().lines().sorted().toList();
  }

  /** The token of reset-password's two lines, which name the account and the link that takes it. */
  private static String oneTimePassword(String printed, String id) {
    Matcher m = ONE_TIME.matcher(printed);
    assertTrue(printed, m.matches());
    assertEquals(id, m.group(1));
    assertTrue(m.group(4), m.group(4).endsWith("/reset-password#token=" + m.group(3)));
    return m.group(3);
  }

  /**
   * The audit log, oldest first, as {@code action target [detail]}; every entry by the operator.
   */
  private List<String> audit(ServiceProcess jar, String token) throws Exception {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(jar.uri("/admin/audit"))
                .header("Authorization", "Bearer " + token)
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals(r.body(), 200, r.statusCode());
    List<String> entries = new ArrayList<>();
    for (JsonNode e : Json.MAPPER.readTree(r.body()).get("entries")) {
      assertEquals(e.toString(), "periscope-cli", e.get("by").asText());
      entries.add(
          0,
          e.get("action").asText()
              + " "
              + e.get("target").asText()
              + (e.has("detail") ? " " + e.get("detail").asText() : ""));
    }
    return entries;
  }

  private void setPassword(ServiceProcess jar, String token, String password) throws Exception {
    HttpResponse<String> r = post(jar, "/auth/reset-password", null, resetBody(token, password));
    assertEquals(r.body(), 200, r.statusCode());
  }

  private static String resetBody(String token, String password) {
    return Json.text(Map.of("token", token, "password", password));
  }

  private JsonNode login(ServiceProcess jar, String id, String password) throws Exception {
    HttpResponse<String> r = post(jar, "/auth/login", null, loginBody(id, password));
    assertEquals(r.body(), 200, r.statusCode());
    return Json.MAPPER.readTree(r.body());
  }

  private int loginStatus(ServiceProcess jar, String id, String password) throws Exception {
    return post(jar, "/auth/login", null, loginBody(id, password)).statusCode();
  }

  private static String loginBody(String id, String password) {
    return Json.text(Map.of("email", id + "@example.org", "password", password));
  }

  private HttpResponse<String> post(ServiceProcess jar, String path, String token, String body)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(jar.uri(path))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (token != null) request.header("Authorization", "Bearer " + token);
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
