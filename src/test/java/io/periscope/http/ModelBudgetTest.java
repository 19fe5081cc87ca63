package io.periscope.http;

import static io.periscope.testing.ApiClient.error;
import static io.periscope.testing.InProcessService.json;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import io.periscope.json.Json;
import io.periscope.metrics.Metrics;
import io.periscope.runtime.ShardedEntities;
import io.periscope.testing.FakeJudge;
import io.periscope.testing.FakeUpstream;
import io.periscope.testing.InProcessService;
import io.periscope.testing.TestJournals;
import io.periscope.testing.TestWatches;
import io.periscope.watch.CronExpressions;
import io.periscope.watch.WatchEntity;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The monthly budgets over real HTTP: a default of 1,000 model tokens a month (each verdict here
 * takes 1,100), an administrator's override of tokens or cost; past a budget a scheduled run is
 * recorded with the reason and asks no model, its item stays unseen and is judged once the budget
 * is raised, and run-now and assistance answer 429 naming the budget and when it resets; each
 * account that spends a budget is counted once for the operator's alert.
 */
public class ModelBudgetTest {
  private static final String YEARLY = "0 0 1 1 *";

  static FakeUpstream feeds;
  static FakeJudge model;
  static MockWebServer hook;
  static InProcessService service;
  static String root;

  @BeforeClass
  public static void start() throws Exception {
    feeds = new FakeUpstream(Duration.ZERO, Duration.ZERO, false, 1);
    hook = new MockWebServer();
    // a flaky receiver: the first delivery fails, the retry gets through
    hook.enqueue(new MockResponse().setResponseCode(503));
    for (int i = 0; i < 5; i++) hook.enqueue(new MockResponse().setResponseCode(200));
    hook.start(java.net.InetAddress.getLoopbackAddress(), 0);
    model =
        new FakeJudge(
            q ->
                q.prompt().startsWith("Condition: ")
                    ? FakeJudge.verdict(false, List.of(), 1000, 0, 100)
                    : FakeJudge.answer(Json.text(Map.of("explanation", "A feed.")), 300, 0, 60));
    service =
        new InProcessService(
            ConfigFactory.parseMap(
                    Map.of(
                        "periscope.fetch.allow-private-networks",
                        true,
                        "periscope.model.base-url",
                        model.baseUrl(),
                        "periscope.model.api-keys",
                        "sk-model-budget-test-0001",
                        "periscope.quotas.model-tokens-per-month",
                        1000,
                        "periscope.notify.retry.first-backoff",
                        "200ms",
                        "periscope.notify.retry.max-backoff",
                        "400ms"))
                .withFallback(TestJournals.h2())
                .resolve());
    root = service.signedIn("root", "admin");
  }

  @AfterClass
  public static void stop() throws Exception {
    service.close();
    model.close();
    feeds.close();
    hook.close();
  }

  /** A yearly watch of one static item; alerting to the webhook receiver {@code hooked}. */
  private static String watch(String id, boolean hooked) {
    return TestWatches.body(id)
        .feed(feeds.staticFeedUrl(id))
        .schedule(YEARLY)
        .channels(hooked ? List.of("webhook:" + hook.url("/hook")) : List.of())
        .json();
  }

  private static Instant firstMonth() {
    return LocalDate.now(ZoneOffset.UTC)
        .withDayOfMonth(1)
        .plusMonths(1)
        .atStartOfDay(ZoneOffset.UTC)
        .toInstant();
  }

  /** Fires the watch's schedule at {@code due} and waits for its {@code n}th run record. */
  private static JsonNode scheduledRun(
      String accountId, String owner, String id, Instant due, int n) throws Exception {
    new ShardedEntities(service.system).watch(accountId, id).tell(new WatchEntity.Fire(due));
    for (int i = 0; i < 200; i++) {
      JsonNode runs = json(service.call("GET", "/watches/" + id + "/runs", owner, null), 200);
      if (runs.get("runs").size() >= n) {
        String runId = runs.at("/runs/0/runId").asText();
        return json(service.call("GET", "/watches/" + id + "/runs/" + runId, owner, null), 200);
      }
      Thread.sleep(50);
    }
    throw new AssertionError("no scheduled run of " + id);
  }

  @Test
  public void pastTheTokenBudgetScheduledRunsAreSkippedAndResumeWhenItIsRaised() throws Exception {
    String carol = service.signedIn("carol", "user");
    double spent = budgetsSpent("tokens");
    json(service.call("POST", "/watches", carol, watch("spend", true)), 201);
    json(service.call("POST", "/watches", carol, watch("later", true)), 201);
    JsonNode first = json(service.call("POST", "/watches/spend/run", carol, null), 200);
    assertEquals("no-match", first.at("/result/outcome").asText());

    JsonNode quotas = json(service.call("GET", "/quotas", carol, null), 200);
    assertEquals(1000, quotas.at("/quotas/modelTokensPerMonth").asLong());
    assertEquals(1100, quotas.at("/usage/modelTokensThisMonth").asLong());

    int asked = model.questions().size();
    Instant due =
        CronExpressions.nextFireAfter(YEARLY, ZoneOffset.UTC, Instant.now(), Instant.now());
    JsonNode skipped = scheduledRun("carol", carol, "later", due, 1);
    assertEquals("error", skipped.get("outcome").asText());
    assertTrue(
        skipped.toString(),
        skipped
            .get("error")
            .asText()
            .startsWith("skipped, no model call: this account's budget of 1000 model tokens"));
    assertEquals("no model call past the budget", asked, model.questions().size());

    // run-now and assistance: 429 naming the budget and when it resets
    JsonNode now = error(service.call("POST", "/watches/later/run", carol, null), 429);
    assertEquals("modelTokensPerMonth", now.get("quota").asText());
    assertEquals(1000, now.get("limit").asLong());
    assertEquals(firstMonth().toString(), now.get("resetsAt").asText());
    assertTrue(now.get("error").asText().contains("resets at " + firstMonth()));
    JsonNode explain = error(service.call("POST", "/watches/later/explain", carol, null), 429);
    assertEquals("modelTokensPerMonth", explain.get("quota").asText());
    JsonNode dry = error(service.call("POST", "/watches/later/test", carol, "{}"), 429);
    assertEquals("modelTokensPerMonth", dry.get("quota").asText());
    assertEquals(asked, model.questions().size());

    // told once on the channels of its watches (two watches, one channel), whatever was refused,
    // through a watch's outbox: the receiver's failure is retried until it takes the notice
    RecordedRequest failed = hook.takeRequest(10, TimeUnit.SECONDS);
    assertTrue("the owner is told", failed != null);
    String told = failed.getBody().readUtf8();
    assertTrue(told, told.contains("budget of 1000 model tokens a month is spent"));
    RecordedRequest retried = hook.takeRequest(10, TimeUnit.SECONDS);
    assertTrue("the failed delivery is retried", retried != null);
    assertEquals(told, retried.getBody().readUtf8());
    assertEquals("told once", null, hook.takeRequest(2, TimeUnit.SECONDS));
    assertEquals("counted once", spent + 1, budgetsSpent("tokens"), 0);

    // raised: the next scheduled run judges the item the skipped one left unseen
    json(
        service.call(
            "PUT", "/admin/users/carol/quotas", root, "{\"modelTokensPerMonth\": 1000000}"),
        200);
    Instant next = CronExpressions.nextFireAfter(YEARLY, ZoneOffset.UTC, due, Instant.now());
    JsonNode resumed = scheduledRun("carol", carol, "later", next, 2);
    assertEquals(resumed.toString(), "no-match", resumed.get("outcome").asText());
    assertEquals(1, resumed.at("/judged/items").size());
    assertEquals(asked + 1, model.questions().size());
  }

  @Test
  public void aCostBudgetCountsThePricedCalls() throws Exception {
    String dave = service.signedIn("dave", "user");
    double spent = budgetsSpent("cost");
    json(
        service.call(
            "PUT",
            "/admin/users/dave/quotas",
            root,
            "{\"modelTokensPerMonth\": 1000000, \"modelCostPerMonth\": 0.001}"),
        200);
    json(
        service.call(
            "PUT",
            "/admin/model",
            root,
            """
            {"verdicts": {"provider": "openai", "baseUrl": "%1$s", "model": "judge",
               "price": {"inputPerMillion": 1, "outputPerMillion": 2}},
             "assistance": {"provider": "openai", "baseUrl": "%1$s", "model": "helper"}}\
            """
                .formatted(model.baseUrl())),
        200);
    json(service.call("POST", "/watches", dave, watch("priced", false)), 201);
    json(service.call("POST", "/watches/priced/run", dave, null), 200);
    JsonNode quotas = json(service.call("GET", "/quotas", dave, null), 200);
    // 1,000 in at 1 and 100 out at 2 per million
    assertEquals(
        0,
        new BigDecimal("0.0012").compareTo(quotas.at("/usage/modelCostThisMonth").decimalValue()));
    assertEquals(
        0,
        new BigDecimal("0.001").compareTo(quotas.at("/quotas/modelCostPerMonth").decimalValue()));
    JsonNode refused = error(service.call("POST", "/watches/priced/run", dave, null), 429);
    assertEquals("modelCostPerMonth", refused.get("quota").asText());
    assertTrue(refused.get("error").asText().contains("cost budget of 0.001"));
    error(service.call("POST", "/watches/priced/run", dave, null), 429);
    for (int i = 0; i < 100 && budgetsSpent("cost") == spent; i++) Thread.sleep(50);
    assertEquals("counted once, after the owner is told", spent + 1, budgetsSpent("cost"), 0);
  }

  /**
   * Accounts counted as having spent their monthly {@code budget} ({@code tokens}, {@code cost}).
   */
  private static double budgetsSpent(String budget) {
    return Metrics.get(service.system)
        .registry()
        .get("periscope.model.budgets.spent")
        .tag("budget", budget)
        .counter()
        .count();
  }

  @Test
  public void theBudgetsAreValidated() throws Exception {
    service.signedIn("erin", "user");
    JsonNode bad =
        error(
            service.call(
                "PUT",
                "/admin/users/erin/quotas",
                root,
                "{\"modelTokensPerMonth\": 0, \"modelCostPerMonth\": \"ten\"}"),
            400);
    assertEquals(bad.toString(), 2, bad.get("issues").size());
    error(
        service.call("PUT", "/admin/users/erin/quotas", root, "{\"modelCostPerMonth\": -1}"), 400);
    error(
        service.call("PUT", "/admin/users/erin/quotas", root, "{\"modelTokensPerMonth\": 1.5}"),
        400);
    JsonNode set =
        json(
            service.call(
                "PUT",
                "/admin/users/erin/quotas",
                root,
                "{\"modelTokensPerMonth\": 5000000000, \"modelCostPerMonth\": 12.50}"),
            200);
    assertEquals(5_000_000_000L, set.at("/overrides/modelTokensPerMonth").asLong());
    assertEquals(
        0, new BigDecimal("12.5").compareTo(set.at("/quotas/modelCostPerMonth").decimalValue()));
  }
}
