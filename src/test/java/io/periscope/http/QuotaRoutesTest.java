package io.periscope.http;

import static io.periscope.testing.ApiClient.error;
import static io.periscope.testing.InProcessService.json;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import io.periscope.quota.QuotaPolicy;
import io.periscope.quota.Quotas;
import io.periscope.testing.FakeUpstream;
import io.periscope.testing.InProcessService;
import io.periscope.testing.TestJournals;
import io.periscope.testing.TestWatches;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Quotas over real HTTP: the operator's defaults (2 watches, 2 sources a watch, schedules at most
 * hourly, 1 model call a day), an administrator's override, the usage admins see; every refusal
 * leaves nothing written. Administrators are held to them too.
 */
public class QuotaRoutesTest {
  static FakeUpstream upstream;
  static InProcessService service;
  static String root;
  static String alice;
  static String bob;

  @BeforeClass
  public static void start() throws Exception {
    upstream = new FakeUpstream(Duration.ZERO, Duration.ZERO, false, 1);
    service =
        new InProcessService(
            ConfigFactory.parseMap(
                    Map.of(
                        "periscope.fetch.allow-private-networks",
                        true,
                        "periscope.model.base-url",
                        upstream.base() + "/v1",
                        "periscope.model.api-keys",
                        "sk-quota-routes-test-0001",
                        "periscope.quotas.max-watches",
                        2,
                        "periscope.quotas.max-sources-per-watch",
                        2,
                        "periscope.quotas.min-interval",
                        "1h",
                        "periscope.quotas.model-calls-per-day",
                        1))
                .withFallback(TestJournals.h2())
                .resolve());
    root = service.signedIn("root", "admin");
    alice = service.signedIn("alice", "user");
    bob = service.signedIn("bob", "user");
  }

  @AfterClass
  public static void stop() throws Exception {
    service.close();
    upstream.close();
  }

  private static String watch(String id, String schedule, int sources) {
    TestWatches.Body body = TestWatches.body(id).schedule(schedule);
    for (int i = 0; i < sources; i++) body.feed(upstream.feedUrl(id + "-" + i));
    return body.json();
  }

  private static List<String> watchIds(String token) throws Exception {
    return json(service.call("GET", "/watches", token, null), 200)
        .get("watches")
        .findValuesAsText("id");
  }

  @Test
  public void theShippedDefaultsAreFinite() {
    assertEquals(
        new Quotas(100, 20, 15, 1000, null, null), QuotaPolicy.defaults(TestJournals.h2()));
  }

  @Test
  public void watchesSourcesAndSchedulesAreHeldToTheQuotasWithNothingWritten() throws Exception {
    json(service.call("POST", "/watches", alice, watch("one", "0 * * * *", 2)), 201);

    JsonNode often =
        error(service.call("POST", "/watches", alice, watch("often", "*/5 * * * *", 1)), 400);
    JsonNode issue = often.get("issues").get(0);
    assertEquals("[\"schedule\"]", issue.get("path").toString());
    assertTrue(issue.get("message").asText(), issue.get("message").asText().contains("60 minutes"));

    JsonNode sources =
        error(service.call("POST", "/watches", alice, watch("wide", "0 * * * *", 3)), 409);
    assertEquals("maxSourcesPerWatch", sources.get("quota").asText());
    assertEquals(2, sources.get("limit").asInt());
    // a replace is held to them too
    error(service.call("PUT", "/watches/one", alice, watch("one", "0 * * * *", 3)), 409);
    error(service.call("PUT", "/watches/one", alice, watch("one", "* * * * *", 1)), 400);

    json(service.call("POST", "/watches", alice, watch("two", "0 9 * * *", 1)), 201);
    JsonNode third =
        error(service.call("POST", "/watches", alice, watch("three", "0 9 * * *", 1)), 409);
    assertEquals("maxWatches", third.get("quota").asText());
    assertEquals(2, third.get("limit").asInt());
    assertTrue(third.get("error").asText(), third.get("error").asText().contains("2 watches"));
    assertEquals("refusals wrote nothing", List.of("one", "two"), watchIds(alice));
    error(service.call("GET", "/watches/three", alice, null), 404);
    error(service.call("GET", "/watches/often", alice, null), 404);
    assertEquals(
        "unchanged",
        2,
        json(service.call("GET", "/watches/one", alice, null), 200).get("sources").size());

    // a deleted watch no longer counts
    assertEquals(204, service.call("DELETE", "/watches/two", alice, null).statusCode());
    json(service.call("POST", "/watches", alice, watch("three", "0 9 * * *", 1)), 201);

    // administrators are not exempt unless configured
    error(service.call("POST", "/watches", root, watch("often", "* * * * *", 1)), 400);
  }

  @Test
  public void createsArrivingAtOnceTakeNoMorePlacesThanTheQuotaHas() throws Exception {
    String erin = service.signedIn("erin", "user");
    int creates = 8;
    ExecutorService clients = Executors.newFixedThreadPool(creates);
    try {
      CountDownLatch ready = new CountDownLatch(creates);
      List<Future<Integer>> statuses = new ArrayList<>();
      for (int i = 0; i < creates; i++) {
        String body = watch("at-once-" + i, "0 9 * * *", 1);
        statuses.add(
            clients.submit(
                () -> {
                  ready.countDown();
                  ready.await();
                  return service.call("POST", "/watches", erin, body).statusCode();
                }));
      }
      List<Integer> answered = new ArrayList<>();
      for (Future<Integer> status : statuses) answered.add(status.get(60, TimeUnit.SECONDS));
      assertEquals(answered.toString(), 2, answered.stream().filter(s -> s == 201).count());
      assertEquals(answered.toString(), 6, answered.stream().filter(s -> s == 409).count());
      assertEquals(2, watchIds(erin).size());
    } finally {
      clients.shutdownNow();
    }
  }

  @Test
  public void anAdministratorOverridesAnAccountAndSeesItsUsage() throws Exception {
    json(service.call("POST", "/watches", bob, watch("b1", "0 * * * *", 1)), 201);
    json(service.call("POST", "/watches", bob, watch("b2", "0 * * * *", 1)), 201);
    error(service.call("POST", "/watches", bob, watch("b3", "0 * * * *", 1)), 409);

    JsonNode set =
        json(
            service.call(
                "PUT",
                "/admin/users/bob/quotas",
                root,
                "{\"maxWatches\": 3, \"minIntervalMinutes\": 30}"),
            200);
    assertEquals(3, set.at("/quotas/maxWatches").asInt());
    assertEquals(2, set.at("/quotas/maxSourcesPerWatch").asInt());
    assertTrue("not overridden", set.at("/overrides/maxSourcesPerWatch").asInt(-1) == -1);
    json(service.call("POST", "/watches", bob, watch("b3", "*/30 * * * *", 1)), 201);

    JsonNode own = json(service.call("GET", "/quotas", bob, null), 200);
    assertEquals("bob", own.get("accountId").asText());
    assertEquals(3, own.at("/usage/watches").asInt());
    assertEquals(30, own.at("/quotas/minIntervalMinutes").asInt());

    JsonNode all = json(service.call("GET", "/admin/quotas", root, null), 200);
    assertEquals(2, all.at("/defaults/maxWatches").asInt());
    JsonNode bobs = null;
    for (JsonNode a : all.get("accounts")) if (a.get("accountId").asText().equals("bob")) bobs = a;
    assertEquals(3, bobs.at("/usage/watches").asInt());
    assertEquals(3, bobs.at("/quotas/maxWatches").asInt());

    // back to the defaults
    json(service.call("PUT", "/admin/users/bob/quotas", root, "{}"), 200);
    assertEquals(
        2,
        json(service.call("GET", "/admin/users/bob/quotas", root, null), 200)
            .at("/quotas/maxWatches")
            .asInt());

    error(service.call("GET", "/admin/quotas", bob, null), 403);
    error(service.call("PUT", "/admin/users/bob/quotas", bob, "{\"maxWatches\": 99}"), 403);
    error(service.call("PUT", "/admin/users/nobody/quotas", root, "{}"), 404);
    error(service.call("GET", "/admin/users/nobody/quotas", root, null), 404);
    JsonNode bad =
        error(
            service.call(
                "PUT", "/admin/users/bob/quotas", root, "{\"maxWatches\": 0, \"colour\": 1}"),
            400);
    assertEquals(2, bad.get("issues").size());
  }

  @Test
  public void modelCallsPastTheDaysQuotaAreNotMadeAndTheRunSaysWhy() throws Exception {
    String carol = service.signedIn("carol", "user");
    json(service.call("POST", "/watches", carol, watch("c", "0 0 1 1 *", 1)), 201);
    long before = upstream.modelCalls();
    JsonNode first = json(service.call("POST", "/watches/c/run", carol, null), 200);
    assertEquals("no-match", first.at("/result/outcome").asText());
    assertEquals(before + 1, upstream.modelCalls());
    JsonNode second = json(service.call("POST", "/watches/c/run", carol, null), 200);
    assertEquals("error", second.at("/result/outcome").asText());
    assertTrue(
        second.toString(), second.at("/result/error").asText().contains("model calls of the day"));
    assertEquals("no call past the quota", before + 1, upstream.modelCalls());
    // assistance is held to the same count: 429 naming the quota
    JsonNode explain = error(service.call("POST", "/watches/c/explain", carol, null), 429);
    assertEquals("modelCallsPerDay", explain.get("quota").asText());
    assertEquals(1, explain.get("limit").asInt());
    assertEquals(before + 1, upstream.modelCalls());
    assertEquals(
        1,
        json(service.call("GET", "/quotas", carol, null), 200)
            .at("/usage/modelCallsToday")
            .asInt());
  }
}
