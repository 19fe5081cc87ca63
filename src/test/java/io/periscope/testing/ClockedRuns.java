package io.periscope.testing;

import static org.junit.Assert.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

/**
 * The whole service on a journal of the test's choosing, its schedules driven by a clock the test
 * moves, one account's watches polling the loopback fakes ({@link FakeUpstream}: a feed that gains
 * an item a request or never changes, a model that finds the condition met, webhooks): a run
 * happens when the test moves the clock past its minute, so what the node does meanwhile is that
 * run's.
 */
public final class ClockedRuns implements AutoCloseable {
  private static final String PASSWORD = "clocked-runs-passphrase";

  public final MutableClock clock =
      new MutableClock(Instant.now().truncatedTo(ChronoUnit.HOURS).plusSeconds(30));

  public final FakeUpstream upstream;
  public final InProcessService service;
  private final String token;

  /** The service on {@code journal} (as {@link TestJournals} configures one). */
  public ClockedRuns(Config journal) throws Exception {
    upstream = new FakeUpstream(Duration.ZERO, Duration.ZERO, true, 1);
    Config config =
        ConfigFactory.parseMap(
                Map.of(
                    "periscope.scheduler.tick", "100ms",
                    "jdbc-read-journal.refresh-interval", "100ms",
                    "periscope.scheduler.index-group-within", "100ms",
                    "periscope.quotas.min-interval", "1m",
                    "periscope.fetch.allow-private-networks", true,
                    "periscope.model.base-url", upstream.base() + "/v1",
                    "periscope.model.api-keys", "sk-clocked-runs-test-0001"))
            .withFallback(journal)
            .resolve();
    InProcessService started = null;
    try {
      started = new InProcessService(config, clock);
      started.account("sam", "user", PASSWORD);
      token = started.login("sam", PASSWORD);
    } catch (Exception | Error e) {
      if (started != null) started.close();
      upstream.close();
      throw e;
    }
    service = started;
  }

  /** The hour the clock started in: the schedules' minutes count from it. */
  public Instant hour() {
    return clock.instant().truncatedTo(ChronoUnit.HOURS);
  }

  /** A watch of {@code feed} on {@code schedule} (cron) whose alerts go to its own webhook. */
  public void create(String id, String feed, String schedule) throws Exception {
    String body =
        TestWatches.feedBody(id, feed, schedule, List.of("webhook:" + upstream.hookUrl(id)));
    InProcessService.json(service.call("POST", "/watches", token, body), 201);
  }

  /**
   * The watch's newest run, once it is a run other than {@code before} with its deliveries ended
   * (asked of the watch, which answers from memory).
   */
  public JsonNode nextRun(String watchId, String before) throws Exception {
    for (int i = 0; i < 300; i++) {
      JsonNode runs =
          InProcessService.json(
                  service.call("GET", "/watches/" + watchId + "/runs?limit=1", token, null), 200)
              .get("runs");
      if (runs.size() > 0) {
        JsonNode run = runs.get(0);
        boolean settled = true;
        for (JsonNode d : run.path("deliveries"))
          settled &= !d.path("state").asText().equals("pending");
        if (!run.get("runId").asText().equals(before) && settled) return run;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("no new run of " + watchId);
  }

  /**
   * Moves the clock just past {@code minute}, when the watch is due, and waits for its run after
   * {@code before} (null: its first); the run ends as {@code outcome}.
   *
   * @return the run's id
   */
  public String run(String watchId, Instant minute, String before, String outcome)
      throws Exception {
    clock.set(minute.plusSeconds(5));
    JsonNode run = nextRun(watchId, before);
    assertEquals(run.toString(), outcome, run.get("outcome").asText());
    return run.get("runId").asText();
  }

  @Override
  public void close() throws Exception {
    try {
      service.close();
    } finally {
      upstream.close();
    }
  }
}
