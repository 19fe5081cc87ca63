package io.periscope.http;

import static io.periscope.testing.ApiClient.error;
import static io.periscope.testing.InProcessService.json;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.periscope.testing.InProcessService;
import io.periscope.testing.TestJournals;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The two windows of the routes of decisions, over real HTTP: the reads of what runs judged and
 * cost share one per account, and the routes that call the model (dry runs, backtests) share the AI
 * routes' one. Each counts whatever the route answers, and one account's use leaves another's
 * window whole.
 */
public class RouteLimitsTest {
  private static final int READS = 6;
  private static final int AI = 3;

  private static InProcessService service;

  @BeforeClass
  public static void start() throws Exception {
    service =
        new InProcessService(
            TestJournals.h2(
                Map.of(
                    "periscope.rate-limits.reads-per-owner-per-minute",
                    READS,
                    "periscope.rate-limits.ai-per-owner-per-minute",
                    AI)),
            // held still: a window does not end mid-test
            Clock.fixed(Instant.parse("2026-01-05T10:00:30Z"), ZoneOffset.UTC));
  }

  @AfterClass
  public static void stop() throws Exception {
    service.close();
  }

  private static HttpResponse<String> get(String path, String token) throws Exception {
    return service.call("GET", path, token, null);
  }

  private static void assertLimited(HttpResponse<String> response) throws Exception {
    assertEquals(
        "rate limit exceeded; try again later", error(response, 429).get("error").asText());
    assertTrue(response.headers().firstValue("Retry-After").isPresent());
  }

  @Test
  public void theReadsOfRunsQualityUsageAndBacktestJobsShareOneWindowPerAccount() throws Exception {
    String dora = service.signedIn("dora", "user");
    String erik = service.signedIn("erik", "user");
    List<String> reads =
        List.of(
            "/account/usage",
            "/watches/none/usage",
            "/watches/none/quality",
            "/watches/none/runs/r1",
            "/watches/none/backtest/jobs/j1",
            "/watches/none/backtest/jobs/j1/events");
    assertEquals(READS, reads.size());
    json(get(reads.get(0), dora), 200);
    for (String path : reads.subList(1, reads.size())) error(get(path, dora), 404);

    for (String path : reads) assertLimited(get(path, dora));
    // routes outside the window answer as before
    json(get("/watches", dora), 200);
    json(get("/quotas", dora), 200);
    // another account's window is its own
    json(get("/account/usage", erik), 200);
  }

  @Test
  public void anAdministratorsUsageReadsCountToo() throws Exception {
    String root = service.signedIn("fern", "admin");
    for (int i = 0; i < READS; i++) json(get("/admin/usage?days=7", root), 200);
    assertLimited(get("/admin/usage?days=7", root));
  }

  @Test
  public void dryRunsAndBacktestsCountAgainstTheAiWindow() throws Exception {
    String gus = service.signedIn("gus", "user");
    error(service.call("POST", "/watches/none/backtest", gus, "{}"), 404);
    error(service.call("POST", "/watches/none/test", gus, "{}"), 404);
    error(service.call("POST", "/watches/test", gus, "{}"), 400);
    assertLimited(service.call("POST", "/watches/none/backtest", gus, "{}"));
    assertLimited(service.call("POST", "/watches/test", gus, "{}"));
    // the reads are another window
    json(get("/account/usage", gus), 200);
  }
}
