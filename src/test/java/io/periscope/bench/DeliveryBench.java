package io.periscope.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.testing.ApiClient;
import io.periscope.testing.FakeUpstream;
import io.periscope.testing.FlakyWebhookReceiver;
import io.periscope.testing.ServiceProcess;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Alerts delivered per second through the outbox to a webhook receiver that fails half of the first
 * attempts: every other alert's first attempt is answered 503, its retry 204. The service is {@code
 * target/periscope.jar} in a child process on a fresh embedded journal (or the PostgreSQL of {@code
 * --database-url}), with the retry backoff at its least (first-backoff 100 ms, so a retry comes
 * 50–100 ms after its failure) and the owner's hourly delivery limit out of the way; feed and model
 * are loopback fakes that answer at once, and every run of every watch decides one new alert.
 *
 * <p>{@code --watches} (1,000) watches of one owner, run together with run-all ({@code
 * --concurrency}, 32, at a time): a first round warms the service up, the second is measured. What
 * is measured is each alert from its decision (the alert's {@code at}, when the run decided it) to
 * the receiver's acknowledgement: alerts/s = alerts acknowledged ÷ (the last acknowledgement − the
 * first decision). The receiver de-duplicates by {@code webhook-id}: lost = alerts decided
 * (run-all's runs that alerted) − distinct ids acknowledged; doubled = acknowledgements of an id
 * past its first. Every run record must also end {@code delivered}.
 *
 * <pre>
 * scripts/delivery-bench.sh --watches 1000 --concurrency 32
 * </pre>
 *
 * It targets 127.0.0.1 only, every wait is bounded, and it removes its data directory. Exits 1 when
 * an alert was lost or doubled.
 */
public final class DeliveryBench {
  private static final String PASSWORD = "delivery-bench-passphrase";

  private final ApiClient api = new ApiClient();
  private final Map<String, String> options;

  private DeliveryBench(Map<String, String> options) {
    this.options = options;
  }

  public static void main(String[] argv) throws Exception {
    Map<String, String> options = new HashMap<>(Map.of("--watches", "1000", "--concurrency", "32"));
    for (int i = 0; i + 1 < argv.length; i += 2) options.put(argv[i], argv[i + 1]);
    boolean exact;
    try {
      exact = new DeliveryBench(options).run();
    } catch (Exception e) {
      e.printStackTrace();
      exact = false;
    }
    System.exit(exact ? 0 : 1); // a failed run leaves the fakes' threads behind
  }

  /** Whether every alert arrived exactly once in both rounds. */
  private boolean run() throws Exception {
    int watches = Integer.parseInt(options.get("--watches"));
    // Half of the first attempts fail: the 1st, 3rd, 5th … alert the receiver sees.
    AtomicLong firstAttempts = new AtomicLong();
    Path dataDir = Files.createTempDirectory("periscope-delivery-bench");
    try (FakeUpstream upstream = new FakeUpstream(Duration.ZERO, Duration.ZERO, true, 1);
        FlakyWebhookReceiver receiver =
            new FlakyWebhookReceiver(
                (id, attempt) -> attempt == 1 && firstAttempts.getAndIncrement() % 2 == 0)) {
      Map<String, String> env = new HashMap<>();
      env.put("DATA_DIR", dataDir.toString());
      env.put("AUTH_JWT_SECRET", "delivery-bench-secret-of-32-bytes-at-least");
      env.put("MODEL_BASE_URL", upstream.base() + "/v1");
      env.put("MODEL_API_KEYS", "sk-delivery-bench-0001");
      env.put("FETCH_ALLOW_PRIVATE_NETWORKS", "true");
      env.put("QUOTA_MAX_WATCHES", "0"); // a thousand watches: past the shipped quotas
      env.put("QUOTA_MODEL_CALLS_PER_DAY", "0");
      env.put("RUN_ALL_CONCURRENCY", options.get("--concurrency"));
      env.put(
          "JAVA_TOOL_OPTIONS",
          "-Dperiscope.notify.retry.first-backoff=100ms"
              + " -Dperiscope.notify.retry.max-backoff=1s"
              // one owner makes every delivery: the measure is the outbox's, not the hourly limit's
              + " -Dperiscope.rate-limits.notifications-per-owner-per-hour=100000000");
      if (options.containsKey("--database-url")) {
        env.put("DATABASE_URL", options.get("--database-url"));
        env.put("DATABASE_USER", options.getOrDefault("--database-user", "postgres"));
      }
      Path log = ServiceProcess.logFile("delivery-bench");
      Files.deleteIfExists(log);
      try (ServiceProcess service = new ServiceProcess(env, log).start()) {
        String token = service.signedInAdmin("bench", PASSWORD);
        createWatches(service, token, upstream, receiver, watches);
        boolean warm = round("warm-up", service, token, receiver, watches);
        boolean measured = round("measured", service, token, receiver, watches);
        service.stop();
        return warm && measured;
      }
    } finally {
      try (var files = Files.walk(dataDir)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  private void createWatches(
      ServiceProcess service,
      String token,
      FakeUpstream upstream,
      FlakyWebhookReceiver receiver,
      int watches)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    List<Future<Integer>> creates = new ArrayList<>();
    for (int i = 0; i < watches; i++) {
      String body = upstream.alertingWatch("w" + i, "webhook:" + receiver.url());
      creates.add(
          pool.submit(() -> api.send("POST", service.uri("/watches"), token, body).statusCode()));
    }
    for (Future<Integer> created : creates) {
      if (created.get() != 201)
        throw new IllegalStateException("a create answered " + created.get());
    }
    pool.shutdown();
  }

  /**
   * One run-all of every watch; prints what arrived of the alerts it decided. Whether every watch
   * alerted and each alert arrived exactly once.
   */
  private boolean round(
      String name, ServiceProcess service, String token, FlakyWebhookReceiver receiver, int watches)
      throws Exception {
    Set<String> before = new HashSet<>(receiver.received().keySet());
    long failedBefore = receiver.failed();
    HttpResponse<String> answer =
        api.send("POST", service.uri("/watches/run-all"), token, null, Duration.ofMinutes(11));
    if (answer.statusCode() != 200)
      throw new IllegalStateException("run-all answered " + answer.statusCode());
    List<String> alerted = new ArrayList<>();
    for (JsonNode outcome : ApiClient.json(answer).path("outcomes")) {
      if (outcome.path("result").path("outcome").asText().equals("alert"))
        alerted.add(outcome.path("watchId").asText());
    }
    // The retries that run-all's answer did not wait for; then a moment for doubles that must not
    // come.
    Instant patience = Instant.now().plusSeconds(120);
    while (receiver.delivered() - before.size() < alerted.size()
        && Instant.now().isBefore(patience)) Thread.sleep(50);
    Thread.sleep(2000);

    List<FlakyWebhookReceiver.Received> mine = new ArrayList<>();
    receiver
        .received()
        .forEach(
            (id, r) -> {
              if (!before.contains(id) && r.acks() > 0) mine.add(r);
            });
    if (mine.isEmpty()) {
      System.out.printf("round=%s alerts-decided=%d delivered=0%n", name, alerted.size());
      return false;
    }
    Instant firstDecision =
        mine.stream().map(FlakyWebhookReceiver.Received::decidedAt).min(Instant::compareTo).get();
    Instant lastDecision =
        mine.stream().map(FlakyWebhookReceiver.Received::decidedAt).max(Instant::compareTo).get();
    Instant lastAck =
        mine.stream().map(FlakyWebhookReceiver.Received::firstAck).max(Instant::compareTo).get();
    long[] all = latencies(mine, false);
    long[] retried = latencies(mine, true);
    long doubled = mine.stream().mapToLong(r -> Math.max(0, r.acks() - 1)).sum();
    long lost = alerted.size() - mine.size();
    long notRecorded = undelivered(service, token, alerted);
    double seconds = Duration.between(firstDecision, lastAck).toMillis() / 1000.0;
    System.out.printf(
        Locale.ROOT,
        "round=%s alerts-decided=%d delivered=%d lost=%d doubled=%d first-attempts-failed=%d"
            + " records-not-delivered=%d decided-over-s=%.2f delivered-over-s=%.2f"
            + " alerts-per-s=%.1f decision-to-ack-ms p50=%d p90=%d p99=%d max=%d"
            + " retried-ones p50=%d p99=%d%n",
        name,
        alerted.size(),
        mine.size(),
        lost,
        doubled,
        receiver.failed() - failedBefore,
        notRecorded,
        Duration.between(firstDecision, lastDecision).toMillis() / 1000.0,
        seconds,
        mine.size() / seconds,
        ScheduleBench.pct(all, 50),
        ScheduleBench.pct(all, 90),
        ScheduleBench.pct(all, 99),
        all[all.length - 1],
        ScheduleBench.pct(retried, 50),
        ScheduleBench.pct(retried, 99));
    return lost == 0 && doubled == 0 && notRecorded == 0 && alerted.size() == watches;
  }

  /**
   * Decision to first acknowledgement in ms, sorted; only of alerts that needed a retry if told.
   */
  private static long[] latencies(List<FlakyWebhookReceiver.Received> received, boolean retried) {
    return received.stream()
        .filter(r -> !retried || r.attempts() > 1)
        .mapToLong(r -> Duration.between(r.decidedAt(), r.firstAck()).toMillis())
        .sorted()
        .toArray();
  }

  /** The watches of {@code ids} whose latest run record does not say its delivery was made. */
  private long undelivered(ServiceProcess service, String token, List<String> ids)
      throws Exception {
    long undelivered = 0;
    for (String id : ids) {
      JsonNode delivery =
          ApiClient.json(
                  api.send("GET", service.uri("/watches/" + id + "/runs?limit=1"), token, null))
              .at("/runs/0/deliveries/0");
      if (delivery.path("state").asText().equals("delivered")) continue;
      if (undelivered++ == 0) System.out.println("not delivered: " + id + " " + delivery);
    }
    return undelivered;
  }
}
