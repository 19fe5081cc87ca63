package io.periscope;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.periscope.account.AccountAccess;
import io.periscope.json.Json;
import io.periscope.testing.ApiClient;
import io.periscope.testing.LocalCluster;
import io.periscope.testing.NeedsPostgres;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.After;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * Two nodes of the jar on one PostgreSQL journal: disabling an account, a role change and revoking
 * a personal API token, made through node 1, hold on node 2 within {@link AccountAccess#FRESH_FOR}
 * (node 2 had the account's access in its cache before the change).
 */
@Category(NeedsPostgres.class)
public class AccessAcrossNodesIT {
  private static final String PASSWORD = "an-access-passphrase";

  /** How long node 2 may take: its cache's freshness and time for a request or two. */
  private static final Duration WITHIN = AccountAccess.FRESH_FOR.plusSeconds(3);

  private final ApiClient api = new ApiClient();
  private LocalCluster cluster;

  @After
  public void stop() throws Exception {
    if (cluster != null) cluster.close();
  }

  private URI on(int node, String path) {
    return cluster.node(node).uri(path);
  }

  private int status(int node, String method, String path, String token, String body)
      throws Exception {
    return api.send(method, on(node, path), token, body).statusCode();
  }

  /** Polls node 2 until it answers {@code expected}; the time it took. */
  private Duration until(int expected, String path, String token) throws Exception {
    long start = System.nanoTime();
    while (true) {
      int status = status(2, "GET", path, token, null);
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      if (status == expected) return took;
      if (took.compareTo(WITHIN) > 0)
        throw new AssertionError("node 2 still answers " + status + " after " + took);
      Thread.sleep(100);
    }
  }

  @Test
  public void disablingRolesAndRevocationHoldOnTheOtherNodeWithinSeconds() throws Exception {
    cluster = new LocalCluster("access", 2, Map.of()).start();
    cluster.createUser("root", "admin", PASSWORD);
    cluster.createUser("mia", "user", PASSWORD);
    String root = api.login(on(1, "/"), "root@example.org", PASSWORD);
    String mia = api.login(on(2, "/"), "mia@example.org", PASSWORD);
    String script =
        ApiClient.json(
                api.send(
                    "POST",
                    on(2, "/account/tokens"),
                    mia,
                    Json.text(Map.of("name", "cluster script"))))
            .get("token")
            .asText();
    String tokenId =
        ApiClient.json(api.send("GET", on(2, "/account/tokens"), mia, null))
            .at("/tokens/0/id")
            .asText();

    // node 2 knows mia as a user
    assertEquals(403, status(2, "GET", "/admin/users", mia, null));
    assertEquals(200, status(1, "PUT", "/admin/users/mia/role", root, "{\"role\": \"admin\"}"));
    Duration promoted = until(200, "/admin/users", mia);

    assertEquals(200, status(2, "GET", "/watches", script, null));
    assertEquals(204, status(1, "DELETE", "/account/tokens/" + tokenId, mia, null));
    Duration revoked = until(401, "/watches", script);

    assertEquals(200, status(2, "GET", "/watches", mia, null));
    assertEquals(200, status(1, "POST", "/admin/users/mia/disable", root, null));
    Duration disabled = until(401, "/watches", mia);

    System.out.printf(
        "measured: role change after %d ms, revocation after %d ms, disabling after %d ms%n",
        promoted.toMillis(), revoked.toMillis(), disabled.toMillis());
    assertTrue(disabled.compareTo(WITHIN) <= 0);
  }

  @Test
  public void twoAdministratorsDemotingEachOtherThroughTwoNodesAtOnceLeaveOneAdministrator()
      throws Exception {
    cluster = new LocalCluster("admins", 2, Map.of()).start();
    cluster.createUser("root", "admin", PASSWORD);
    cluster.createUser("ada", "admin", PASSWORD);
    String root = api.login(on(1, "/"), "root@example.org", PASSWORD);
    String ada = api.login(on(2, "/"), "ada@example.org", PASSWORD);
    String toUser = "{\"role\": \"user\"}";
    // both nodes warmed up on the guarded path, so the two changes meet inside each other's check
    cluster.createUser("bea", "user", PASSWORD);
    for (int node = 1; node <= 2; node++) {
      String admin = node == 1 ? root : ada;
      for (int i = 0; i < 5; i++) {
        assertEquals(
            200, status(node, "PUT", "/admin/users/bea/role", admin, "{\"role\": \"admin\"}"));
        assertEquals(200, status(node, "PUT", "/admin/users/bea/role", admin, toUser));
      }
    }
    ExecutorService both = Executors.newFixedThreadPool(2);
    try {
      CountDownLatch ready = new CountDownLatch(2);
      Future<Integer> rootDemotesAda =
          both.submit(
              () -> {
                ready.countDown();
                ready.await();
                return status(1, "PUT", "/admin/users/ada/role", root, toUser);
              });
      Future<Integer> adaDemotesRoot =
          both.submit(
              () -> {
                ready.countDown();
                ready.await();
                return status(2, "PUT", "/admin/users/root/role", ada, toUser);
              });
      List<Integer> answers =
          List.of(
              rootDemotesAda.get(60, TimeUnit.SECONDS), adaDemotesRoot.get(60, TimeUnit.SECONDS));
      assertEquals(answers.toString(), 1, answers.stream().filter(s -> s == 200).count());
      assertTrue(answers.toString(), answers.contains(409));
    } finally {
      both.shutdownNow();
    }
    String stays = status(1, "GET", "/admin/users", root, null) == 200 ? root : ada;
    var admins =
        ApiClient.json(api.send("GET", on(1, "/admin/users?role=admin"), stays, null))
            .findValuesAsText("id");
    assertEquals(1, admins.size());
  }
}
