package io.periscope.http;

import static io.periscope.testing.InProcessService.json;
import static io.periscope.testing.Scrapes.value;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import io.periscope.json.Json;
import io.periscope.testing.FakeUpstream;
import io.periscope.testing.InProcessService;
import io.periscope.testing.KubernetesManifests;
import io.periscope.testing.MutableClock;
import io.periscope.testing.NeedsPostgres;
import io.periscope.testing.ScratchDatabase;
import io.periscope.testing.TestJournals;
import io.periscope.testing.TestWatches;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * The domain's meters, scraped at GET /metrics after real runs of a node on PostgreSQL against
 * loopback fakes (feeds, model, webhook): each counter moves by what the runs recorded, and no
 * label carries a watch, an owner, a URL or an address.
 */
@Category(NeedsPostgres.class)
public class DomainMetricsTest {
  static final String MODEL_KEY = "sk-metrics-test-0001";
  static final Instant START = Instant.now().truncatedTo(ChronoUnit.MINUTES).plusSeconds(30);
  static FakeUpstream upstream;
  static ScratchDatabase database;
  static MutableClock clock = new MutableClock(START);
  static InProcessService service;
  static String alice;

  @BeforeClass
  public static void start() throws Exception {
    upstream = new FakeUpstream(Duration.ZERO, Duration.ZERO, true, 2);
    database = ScratchDatabase.create("periscope_metrics");
    service =
        new InProcessService(
            ConfigFactory.parseMap(
                    Map.of(
                        "periscope.metrics.enabled",
                        true,
                        "periscope.quotas.min-interval", // a schedule of every minute
                        "1m",
                        "periscope.fetch.allow-private-networks",
                        true,
                        "periscope.model.base-url",
                        upstream.base() + "/v1",
                        "periscope.model.name",
                        "fake-model",
                        "periscope.model.api-keys",
                        MODEL_KEY,
                        "periscope.rate-limits.auth-per-ip-per-minute",
                        2,
                        "periscope.scheduler.tick",
                        "100ms",
                        "jdbc-read-journal.refresh-interval",
                        "100ms"))
                .withFallback(TestJournals.postgres(database))
                .resolve(),
            clock);
    alice = service.signedIn("alice-metrics", "user");
  }

  @AfterClass
  public static void stop() throws Exception {
    if (service != null) service.close();
    if (database != null) database.close();
    upstream.close();
  }

  static String scrape() throws Exception {
    HttpResponse<String> r = service.call("GET", "/metrics", null, null);
    assertEquals(r.body(), 200, r.statusCode());
    return r.body();
  }

  static String watch(String id, String schedule, String... feeds) {
    TestWatches.Body body =
        TestWatches.body(id)
            .name("Metrics")
            .condition("Acme sets a date")
            .schedule(schedule)
            .threshold(0.5)
            .channel("webhook:" + upstream.hookUrl(id));
    for (String feed : feeds) body.feed(feed);
    return body.json();
  }

  /** How much {@code name{labels}} moved from {@code before} to {@code after}. */
  static double moved(String before, String after, String name, String labels) {
    return value(after, name, labels) - value(before, name, labels);
  }

  @Test
  public void runsModelCallsDeliveriesAndTheRestMoveByWhatHappened() throws Exception {
    // a sign-in over the limit (two per minute; alice used one)
    String before = scrape();
    service.send(
        "POST",
        "/auth/login",
        null,
        Json.text(Map.of("email", "nobody@example.org", "password", "wrong-password")),
        Map.of());
    assertEquals(
        429,
        service
            .send(
                "POST",
                "/auth/login",
                null,
                Json.text(Map.of("email", "nobody@example.org", "password", "wrong-password")),
                Map.of())
            .statusCode());
    String after = scrape();
    assertEquals(
        1, moved(before, after, "periscope_rate_limit_rejections_total", "limiter=\"auth\""), 0);

    // a run now: one good feed, one that answers 404; the model says met, the webhook gets it
    json(
        service.call(
            "POST",
            "/watches",
            alice,
            watch(
                "metrics-now",
                "0 0 1 1 *",
                upstream.feedUrl("metrics-now"),
                upstream.base() + "/missing-feed")),
        201);
    before = scrape();
    JsonNode run =
        json(service.call("POST", "/watches/metrics-now/run", alice, null), 200).get("result");
    after = scrape();
    assertEquals(run.toString(), "alert", run.get("outcome").asText());
    assertEquals(
        1, moved(before, after, "periscope_runs_total", "outcome=\"alert\",trigger=\"manual\""), 0);
    assertEquals(
        1, moved(before, after, "periscope_run_duration_seconds_count", "trigger=\"manual\""), 0);
    assertEquals(
        run.get("collected").asDouble(),
        moved(before, after, "periscope_items_collected_total", ""),
        0);
    assertTrue(run.toString(), run.get("fresh").asInt() > 0);
    assertEquals(
        run.get("fresh").asDouble(), moved(before, after, "periscope_items_fresh_total", ""), 0);
    assertEquals(1, moved(before, after, "periscope_source_errors_total", "kind=\"http\""), 0);
    String model = "model=\"openai:fake-model\"";
    assertEquals(
        1,
        moved(before, after, "periscope_model_calls_seconds_count", model + ",result=\"ok\""),
        0);
    assertEquals(
        FakeUpstream.PROMPT_TOKENS,
        moved(before, after, "periscope_model_tokens_total", "direction=\"in\"," + model),
        0);
    assertEquals(
        FakeUpstream.ANSWER_TOKENS,
        moved(before, after, "periscope_model_tokens_total", "direction=\"out\"," + model),
        0);
    assertEquals(
        1,
        moved(
            before,
            after,
            "periscope_deliveries_total",
            "channel=\"webhook\",result=\"delivered\""),
        0);
    assertEquals(1, moved(before, after, "periscope_alerts_total", "result=\"delivered\""), 0);
    assertTrue(
        "the run's events were written",
        moved(before, after, "periscope_journal_write_seconds_count", "result=\"ok\"") > 0);
    assertEquals(0, value(after, "periscope_journal_write_failures_total", ""), 0);

    // a run whose every source fails: an error, and the operator's admin alert
    json(
        service.call(
            "POST",
            "/watches",
            alice,
            watch("metrics-broken", "0 0 1 1 *", upstream.base() + "/missing-feed")),
        201);
    before = scrape();
    run = json(service.call("POST", "/watches/metrics-broken/run", alice, null), 200).get("result");
    after = scrape();
    assertEquals("error", run.get("outcome").asText());
    assertEquals(
        1, moved(before, after, "periscope_runs_total", "outcome=\"error\",trigger=\"manual\""), 0);
    // the operator's alerts of an account are gathered for a few seconds before they go
    for (int i = 0;
        i < 100
            && moved(
                    before,
                    after,
                    "periscope_admin_alerts_total",
                    "delivered=\"false\",kind=\"all-sources-failed\"")
                == 0;
        i++) {
      Thread.sleep(100);
      after = scrape();
    }
    assertEquals(
        1,
        moved(
            before,
            after,
            "periscope_admin_alerts_total",
            "delivered=\"false\",kind=\"all-sources-failed\""),
        0);

    // a scheduled run: due at the next minute, the clock moves five seconds past it
    json(
        service.call(
            "POST",
            "/watches",
            alice,
            watch("metrics-scheduled", "* * * * *", upstream.feedUrl("metrics-scheduled"))),
        201);
    before = scrape();
    clock.set(START.plusSeconds(35));
    String scheduled = before;
    for (int i = 0;
        i < 300
            && moved(
                    before,
                    scheduled,
                    "periscope_runs_total",
                    "outcome=\"alert\",trigger=\"schedule\"")
                < 1;
        i++) {
      Thread.sleep(100);
      scheduled = scrape();
    }
    after = scrape();
    assertEquals(
        1,
        moved(before, after, "periscope_runs_total", "outcome=\"alert\",trigger=\"schedule\""),
        0);
    assertEquals(1, moved(before, after, "periscope_scheduler_lateness_seconds_count", ""), 0);
    assertEquals(
        "five seconds late by the clock",
        5,
        moved(before, after, "periscope_scheduler_lateness_seconds_sum", ""),
        0.001);
    assertEquals(1, moved(before, after, "periscope_run_due_to_verdict_seconds_count", ""), 0);
    assertTrue(value(after, "periscope_scheduler_last_tick_timestamp_seconds", "") > 0);

    // gauges: the key pool, the cluster, the live entities
    assertEquals(1, value(after, "periscope_key_pool_keys", "pool=\"model\",status=\"active\""), 0);
    assertEquals(1, value(after, "periscope_key_pool_usable_keys", "pool=\"model\""), 0);
    assertEquals(
        "two runs asked the model today",
        2,
        value(after, "periscope_key_pool_used_today", "pool=\"model\""),
        0);
    assertEquals(1, value(after, "periscope_cluster_members", "status=\"up\""), 0);
    assertEquals(0, value(after, "periscope_cluster_unreachable", ""), 0);
    assertTrue(after, value(after, "periscope_entities_live", "type=\"Watch\"") >= 1);

    // the web client's page has a template of its own
    service.send("GET", "/watches-of-mine", null, null, Map.of("Accept", "text/html"));
    after = scrape();
    assertTrue(
        after,
        after.contains(
            "http_server_requests_seconds_count{method=\"GET\",route=\"/{client-route}\","
                + "status=\"200\"}"));

    // what the alert rules and the dashboard of k8s/monitoring read is scraped
    for (String metric : KubernetesManifests.metricsRead())
      assertTrue(
          metric + " (k8s/monitoring) is scraped",
          Pattern.compile("(?m)^" + Pattern.quote(metric) + "[{ ]").matcher(after).find());

    // no id, owner, URL or address in any label
    for (String secret :
        List.of("metrics-now", "metrics-broken", "alice", "127.0.0.1", "missing-feed", "sk-"))
      assertFalse(secret, labels(after).contains(secret));
  }

  /** Every label value of the scrape. */
  static String labels(String scrape) {
    StringBuilder all = new StringBuilder();
    Matcher m = Pattern.compile("(?m)^[a-z_]+\\{([^}]*)\\}").matcher(scrape);
    while (m.find()) all.append(m.group(1)).append('\n');
    return all.toString();
  }
}
