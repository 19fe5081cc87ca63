package io.periscope.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.auth.Role;
import io.periscope.auth.Tokens;
import io.periscope.json.Json;
import io.periscope.testing.FakeUpstream;
import io.periscope.testing.LocalCluster;
import io.periscope.testing.ServiceProcess;
import io.periscope.testing.TestWatches;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs at scale against loopback fakes with fixed latency (feed 50 ms, model 300 ms; article pages
 * answer at once): the service is {@code target/periscope.jar} in a child process, as an operator
 * starts it. Every feed request publishes one new item, so every run judges one fresh item with one
 * model call.
 *
 * <ul>
 *   <li>{@code --scenario run-all}: one owner with {@code --watches} (100) watches; {@code POST
 *       /watches/run-all} with {@code RUN_ALL_CONCURRENCY=1}, then 8 (a service start each; one
 *       run-all warms it up first), against the ideal of upstream latency × watches / concurrency.
 *   <li>{@code --scenario run-cost}: model calls per run with and without fresh items, and the
 *       service's own time per run ({@code --runs}, 200, run-now calls one after another).
 *   <li>{@code --scenario schedule}: {@code --watches} (10,000) watches due every minute, spread
 *       over {@code --owners} accounts, observed for {@code --minutes} whole minutes: per watch and
 *       minute exactly one scheduled run (none missed, none doubled), lateness = start − due time
 *       (the watch starting the run; a run waiting for one of the node's RUNS_PER_NODE slots has
 *       started), judged-after-due = the run's end − due time, and the service's heap (capped at
 *       {@code --heap}, sampled with jcmd).
 *   <li>{@code --scenario cluster}: the same work on 1 node, then on 3 (conf/local1..3 on a scratch
 *       PostgreSQL database, see {@link LocalCluster}), each node bounded to {@code
 *       --runs-per-node} (8) runs at once: scheduled-run throughput — {@code --watches} (600)
 *       watches due every minute, measured in the minute after {@code --warm-minutes} (4) whose
 *       runs warm the nodes up (on two slow cores the JIT still takes half a node's CPU after the
 *       first minute): runs ÷ (last run's end − due time) — and API read throughput (the {@link
 *       LoadDriver}'s read scenario, {@code --clients} (16) spread over the nodes for {@code
 *       --seconds} (15) after a 5 s warm-up); then the 3-node ÷ 1-node ratios.
 * </ul>
 *
 * <pre>
 * scripts/schedule-bench.sh --scenario schedule     # or --scenario run-all, cluster, cpu
 * </pre>
 *
 * It targets 127.0.0.1 only and removes its data directories (and the cluster scenario its
 * databases).
 */
public final class ScheduleBench {
  static final Duration FEED_LATENCY = Duration.ofMillis(50);
  static final Duration MODEL_LATENCY = Duration.ofMillis(300);
  static final String SECRET = "schedule-bench-secret-of-32-bytes-at-least";
  static final String PASSWORD = "bench-passphrase";

  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(10))
          .build();

  /**
   * Every feed request publishes one new item: every run judges one fresh item with one model call.
   * The model finds the condition met only for the cpu scenario, whose runs alert.
   */
  final FakeUpstream upstream;

  final Map<String, String> options;

  private ScheduleBench(Map<String, String> options) throws IOException {
    this.options = options;
    upstream =
        new FakeUpstream(
            FEED_LATENCY,
            MODEL_LATENCY,
            options.get("--scenario").equals("cpu"),
            1,
            Boolean.parseBoolean(options.getOrDefault("--keep-alive", "false")));
  }

  public static void main(String[] argv) throws Exception {
    Map<String, String> options =
        new HashMap<>(
            Map.of(
                "--scenario", "schedule", "--heap", "1536m", "--minutes", "3", "--owners", "100"));
    for (int i = 0; i + 1 < argv.length; i += 2) options.put(argv[i], argv[i + 1]);
    ScheduleBench bench = new ScheduleBench(options);
    try {
      switch (options.get("--scenario")) {
        case "run-all" -> bench.runAll();
        case "run-cost" -> bench.runCost();
        case "cluster" -> bench.cluster();
        case "cpu" -> new RunCpu(bench).measure();
        default -> bench.schedule();
      }
    } catch (Exception e) {
      e.printStackTrace();
      System.exit(1); // a failed scenario leaves its worker threads behind
    } finally {
      bench.upstream.close();
    }
    System.exit(0);
  }

  // ---- the scenarios
  // ---------------------------------------------------------------------------------

  private void runAll() throws Exception {
    int watches = Integer.parseInt(options.getOrDefault("--watches", "100"));
    double perRun = FEED_LATENCY.toMillis() + MODEL_LATENCY.toMillis();
    System.out.printf(
        Locale.ROOT,
        "%-12s %8s %10s %10s %8s %8s %16s%n",
        "concurrency",
        "watches",
        "ideal s",
        "took s",
        "ratio",
        "ran",
        "run p50 ms");
    for (int concurrency : new int[] {1, 8}) {
      try (Service service =
          new Service(Map.of("RUN_ALL_CONCURRENCY", String.valueOf(concurrency)))) {
        String token = owners(service.base(), SECRET, 1).get(0);
        for (int i = 0; i < watches; i++) createWatch(service.base(), token, "w" + i, "0 0 1 1 *");
        call(
            service.base(),
            "POST",
            "/watches/run-all",
            token,
            null,
            Duration.ofMinutes(30)); // warm-up, not measured
        long start = System.nanoTime();
        JsonNode result =
            call(service.base(), "POST", "/watches/run-all", token, null, Duration.ofMinutes(30));
        double took = (System.nanoTime() - start) / 1e9;
        double ideal = watches * perRun / concurrency / 1000;
        long[] durations = new long[watches];
        for (int i = 0; i < watches; i++) {
          durations[i] = result.path("outcomes").path(i).path("result").path("durationMs").asLong();
        }
        Arrays.sort(durations);
        System.out.printf(
            Locale.ROOT,
            "%-12d %8d %10.2f %10.2f %8.3f %8d %16d%n",
            concurrency,
            watches,
            ideal,
            took,
            took / ideal,
            result.path("summary").path("ran").asInt(),
            pct(durations, 50));
      }
    }
  }

  /**
   * What one run costs: model calls per run (a watch whose feed publishes a new item every run, and
   * one whose feed never changes), and the service's own time per run: the run-now round trip less
   * the fixed upstream latency on its path (feed, then model; pages and the journal are the
   * service's).
   */
  private void runCost() throws Exception {
    int runs = Integer.parseInt(options.getOrDefault("--runs", "200"));
    double upstreamMs = FEED_LATENCY.toMillis() + MODEL_LATENCY.toMillis();
    try (Service service = new Service(Map.of())) {
      URI base = service.base();
      String token = owners(base, SECRET, 1).get(0);
      createWatch(base, token, "fresh", "0 0 1 1 *", upstream.feedUrl("fresh"));
      createWatch(base, token, "static", "0 0 1 1 *", upstream.staticFeedUrl("static"));
      warmUp(base, token);
      call(
          base,
          "POST",
          "/watches/static/run",
          token,
          null,
          Duration.ofMinutes(5)); // judges its one item
      long freshCalls = upstream.modelCalls();
      long[] overhead = new long[runs];
      long[] recorded = new long[runs];
      for (int i = 0; i < runs; i++) {
        long start = System.nanoTime();
        JsonNode result =
            call(base, "POST", "/watches/fresh/run", token, null, Duration.ofMinutes(5))
                .path("result");
        overhead[i] = Math.round((System.nanoTime() - start) / 1e6 - upstreamMs);
        recorded[i] = result.path("durationMs").asLong() - (long) upstreamMs;
        if (result.path("fresh").asInt() != 1)
          throw new IllegalStateException("expected one fresh item: " + result);
      }
      freshCalls = upstream.modelCalls() - freshCalls;
      long nothingNewCalls = upstream.modelCalls();
      for (int i = 0; i < runs; i++) {
        JsonNode result =
            call(base, "POST", "/watches/static/run", token, null, Duration.ofMinutes(5))
                .path("result");
        if (!result.path("outcome").asText().equals("nothing-new")) {
          throw new IllegalStateException("expected nothing-new: " + result);
        }
      }
      nothingNewCalls = upstream.modelCalls() - nothingNewCalls;
      Arrays.sort(overhead);
      Arrays.sort(recorded);
      System.out.printf(
          Locale.ROOT,
          "runs=%d model-calls: fresh-runs=%d (%.2f a run) nothing-new-runs=%d (%.2f a run)%n",
          runs,
          freshCalls,
          (double) freshCalls / runs,
          nothingNewCalls,
          (double) nothingNewCalls / runs);
      System.out.printf(
          Locale.ROOT,
          "own time per run, round trip less %.0f ms upstream: p50=%d p90=%d p99=%d ms; "
              + "inside the run record (durationMs less upstream): p50=%d p90=%d ms%n",
          upstreamMs,
          pct(overhead, 50),
          pct(overhead, 90),
          pct(overhead, 99),
          pct(recorded, 50),
          pct(recorded, 90));
    }
  }

  /**
   * Runs the pipeline about a thousand times before measuring, so the JIT has compiled it: 16
   * watches run at once (the measured runs go one at a time). A few dozen runs left most of a run
   * interpreted.
   */
  private void warmUp(URI base, String token) throws Exception {
    int watches = 16, runsEach = 60;
    ExecutorService runners = Executors.newFixedThreadPool(watches);
    List<Future<?>> done = new ArrayList<>();
    for (int w = 0; w < watches; w++) {
      String id = "warm-up-" + w;
      createWatch(base, token, id, "0 0 1 1 *");
      done.add(
          runners.submit(
              () -> {
                for (int i = 0; i < runsEach; i++)
                  call(base, "POST", "/watches/" + id + "/run", token, null, Duration.ofMinutes(5));
                return null;
              }));
    }
    for (Future<?> f : done) f.get();
    runners.shutdown();
    call(base, "POST", "/watches/fresh/run", token, null, Duration.ofMinutes(5));
  }

  private void schedule() throws Exception {
    int watches = Integer.parseInt(options.getOrDefault("--watches", "10000"));
    int owners = Integer.parseInt(options.get("--owners"));
    int minutes = Integer.parseInt(options.get("--minutes"));
    try (Service service = new Service(Map.of())) {
      List<String> tokens = owners(service.base(), SECRET, owners);
      ExecutorService creators = Executors.newFixedThreadPool(16);
      List<Future<?>> creates = new ArrayList<>();
      for (int i = 0; i < watches; i++) {
        String token = tokens.get(i % owners);
        String id = "w" + i;
        creates.add(creators.submit(() -> createWatch(service.base(), token, id, "* * * * *")));
      }
      for (Future<?> f : creates) f.get();
      creators.shutdown();
      // The first whole minute after every watch exists, then --minutes due times.
      Instant first = Instant.now().truncatedTo(ChronoUnit.MINUTES).plus(1, ChronoUnit.MINUTES);
      Instant last = first.plus(minutes - 1, ChronoUnit.MINUTES);
      System.out.printf(
          "created %d watches; measuring the due times %s … %s%n", watches, first, last);
      long peakHeap = 0;
      while (Instant.now().isBefore(last.plusSeconds(55))) {
        peakHeap = Math.max(peakHeap, service.usedHeapBytes());
        Thread.sleep(2000);
      }
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < watches; i++) ids.add("w" + i);
      DueRuns due = dueRuns(service.base(), tokens, ids, first, last);
      List<Long> lateness = due.lateness(), judgedAfter = due.judgedAfter();
      int missed = due.missed(), doubled = due.doubled();
      long[] sorted = lateness.stream().mapToLong(Long::longValue).sorted().toArray();
      long[] judged = judgedAfter.stream().mapToLong(Long::longValue).sorted().toArray();
      System.out.printf(
          Locale.ROOT,
          "watches=%d minutes=%d runs=%d missed=%d doubled=%d lateness-ms p50=%d p90=%d "
              + "p99=%d max=%d judged-after-due-ms p50=%d p90=%d p99=%d model-calls=%d heap-cap=%s "
              + "peak-used-heap-mb=%d%n",
          watches,
          minutes,
          sorted.length,
          missed,
          doubled,
          pct(sorted, 50),
          pct(sorted, 90),
          pct(sorted, 99),
          sorted.length == 0 ? 0 : sorted[sorted.length - 1],
          pct(judged, 50),
          pct(judged, 90),
          pct(judged, 99),
          upstream.modelCalls(),
          options.get("--heap"),
          peakHeap / (1024 * 1024));
    }
  }

  /**
   * Scheduled-run throughput and API read throughput of one node, then of three, each bounded to
   * the same runs per node. The reads come first, on the idle cluster; then every watch is due
   * every minute, and the runs of the minute after the warm-up minutes are measured.
   */
  private void cluster() throws Exception {
    int watches = Integer.parseInt(options.getOrDefault("--watches", "600"));
    int owners = Integer.parseInt(options.get("--owners"));
    int slots = Integer.parseInt(options.getOrDefault("--runs-per-node", "8"));
    int clients = Integer.parseInt(options.getOrDefault("--clients", "16"));
    int seconds = Integer.parseInt(options.getOrDefault("--seconds", "15"));
    int warmMinutes = Integer.parseInt(options.getOrDefault("--warm-minutes", "4"));
    Map<Integer, double[]> throughput = new java.util.TreeMap<>(); // nodes → {runs/s, reads/s}
    for (int size : new int[] {1, 3}) {
      try (LocalCluster cluster =
          new LocalCluster(
              "bench" + size,
              size,
              Map.of(
                  "RUNS_PER_NODE",
                  String.valueOf(slots),
                  "FETCH_ALLOW_PRIVATE_NETWORKS",
                  "true",
                  "MODEL_BASE_URL",
                  upstream.base() + "/v1",
                  "MODEL_API_KEYS",
                  "bench-key",
                  "JAVA_TOOL_OPTIONS",
                  "-Xmx" + options.get("--heap")))) {
        cluster.start();
        if (cluster
                .node(1)
                .command(
                    List.of(
                        "users",
                        "create",
                        "--id",
                        "bench-admin",
                        "--email",
                        "bench-admin@example.org",
                        "--role",
                        "admin"),
                    PASSWORD + "\n")
            != 0) {
          throw new IllegalStateException("could not create the admin account");
        }
        List<URI> bases = new ArrayList<>();
        for (int n = 1; n <= size; n++) bases.add(cluster.node(n).uri("/"));
        List<String> tokens = owners(bases.get(0), LocalCluster.SECRET, owners);

        createWatch(bases.get(0), tokens.get(0), "bench-read", "0 0 1 1 *");
        LoadDriver.Result reads =
            LoadDriver.runScenario(
                new LoadDriver.Options(
                    bases,
                    List.of("owner0@example.org"),
                    List.of(PASSWORD),
                    clients,
                    seconds,
                    5,
                    List.of("read"),
                    size + "-nodes",
                    null),
                "read",
                List.of(new LoadDriver.Session("owner0@example.org", tokens.get(0), "bench-read")),
                "cluster");

        ExecutorService pool = Executors.newFixedThreadPool(16);
        List<Future<Void>> creates = new ArrayList<>();
        for (int i = 0; i < watches; i++) {
          URI base = bases.get(i % size);
          String token = tokens.get(i % owners);
          String id = "w" + i;
          creates.add(pool.submit(() -> createWatch(base, token, id, "* * * * *")));
        }
        for (Future<Void> f : creates) f.get();
        // The first due minutes warm the nodes up (their JIT compiles the run path); the next one
        // is measured.
        Instant first =
            Instant.now()
                .plusSeconds(10)
                .truncatedTo(ChronoUnit.MINUTES)
                .plus(1, ChronoUnit.MINUTES);
        for (int m = 0; m < warmMinutes; m++)
          awaitRunsOfMinute(first.plus(m, ChronoUnit.MINUTES), watches);
        Instant due = first.plus(warmMinutes, ChronoUnit.MINUTES);
        awaitRunsOfMinute(due, watches);
        List<long[]> runs =
            runsOfDue(bases, tokens, watches, due, pool); // {lateness ms, end ms after due}
        pool.shutdown();

        long[] lateness = runs.stream().mapToLong(r -> r[0]).sorted().toArray();
        long drainMs = runs.stream().mapToLong(r -> r[1]).max().orElse(0);
        double runsPerSecond = runs.size() / (drainMs / 1000.0);
        throughput.put(size, new double[] {runsPerSecond, reads.throughput()});
        System.out.printf(
            Locale.ROOT,
            "nodes=%d watches=%d runs-per-node=%d warm-minutes=%d ran=%d drain-s=%.1f runs/s=%.1f"
                + " lateness-ms p50=%d p90=%d max=%d reads/s=%.0f read-p50-ms=%.2f read-p99-ms=%.2f"
                + " read-errors=%d%n",
            size,
            watches,
            slots,
            warmMinutes,
            runs.size(),
            drainMs / 1000.0,
            runsPerSecond,
            pct(lateness, 50),
            pct(lateness, 90),
            lateness.length == 0 ? 0 : lateness[lateness.length - 1],
            reads.throughput(),
            reads.p50(),
            reads.p99(),
            reads.errors());
      }
    }
    System.out.printf(
        Locale.ROOT,
        "3 nodes / 1 node: scheduled runs x%.2f (target >= 2.2), reads x%.2f%n",
        throughput.get(3)[0] / throughput.get(1)[0],
        throughput.get(3)[1] / throughput.get(1)[1]);
  }

  /**
   * Waits for the runs due at {@code due}: every run makes one model call, so they are counted at
   * the fake, and the nodes serve no polling while they drain. Gives up three minutes after {@code
   * due}.
   */
  private void awaitRunsOfMinute(Instant due, int watches) throws InterruptedException {
    long callsBefore = upstream.modelCalls();
    Thread.sleep(Math.max(0, Duration.between(Instant.now(), due).toMillis()));
    while (upstream.modelCalls() - callsBefore < watches
        && Instant.now().isBefore(due.plus(3, ChronoUnit.MINUTES))) {
      Thread.sleep(200);
    }
  }

  /**
   * Each watch's first scheduled run at or after {@code due} (the run for that due time; a late one
   * moves the next due time on, it does not run twice), polled until every watch has one or three
   * minutes passed: for each, its lateness and when it ended, in milliseconds after {@code due}.
   */
  private List<long[]> runsOfDue(
      List<URI> bases, List<String> tokens, int watches, Instant due, ExecutorService pool)
      throws Exception {
    Map<Integer, long[]> found = new java.util.concurrent.ConcurrentHashMap<>();
    while (found.size() < watches && Instant.now().isBefore(due.plus(3, ChronoUnit.MINUTES))) {
      List<Future<?>> polls = new ArrayList<>();
      for (int i = 0; i < watches; i++) {
        if (found.containsKey(i)) continue;
        int watch = i;
        polls.add(
            pool.submit(
                () -> {
                  JsonNode runs =
                      call(
                              bases.get(watch % bases.size()),
                              "GET",
                              "/watches/w" + watch + "/runs?limit=5",
                              tokens.get(watch % tokens.size()),
                              null,
                              Duration.ofSeconds(30))
                          .path("runs");
                  for (JsonNode run : runs) {
                    Instant started = Instant.parse(run.path("startedAt").asText());
                    if (run.path("trigger").asText().equals("schedule") && !started.isBefore(due)) {
                      long late = Duration.between(due, started).toMillis();
                      found.merge(
                          watch,
                          new long[] {late, late + run.path("durationMs").asLong()},
                          (a, b) -> a[0] <= b[0] ? a : b);
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> f : polls) f.get();
      if (found.size() < watches) Thread.sleep(2000);
    }
    return List.copyOf(found.values());
  }

  /**
   * The scheduled runs of the watches {@code ids} (watch {@code i} owned by {@code tokens[i %
   * tokens.size()]}) due from {@code first} to {@code last}, read from their run records: per watch
   * and due minute exactly one is expected. Lateness = start − due time; judged after = the run's
   * end − due time, both in ms.
   */
  DueRuns dueRuns(URI base, List<String> tokens, List<String> ids, Instant first, Instant last)
      throws Exception {
    List<Long> lateness = new ArrayList<>(), judgedAfter = new ArrayList<>();
    int missed = 0, doubled = 0;
    for (int i = 0; i < ids.size(); i++) {
      JsonNode runs =
          call(
                  base,
                  "GET",
                  "/watches/" + ids.get(i) + "/runs?limit=100",
                  tokens.get(i % tokens.size()),
                  null,
                  Duration.ofSeconds(30))
              .path("runs");
      Map<Instant, Integer> perDue = new HashMap<>();
      for (JsonNode run : runs) {
        if (!run.path("trigger").asText().equals("schedule")) continue;
        Instant started = Instant.parse(run.path("startedAt").asText());
        Instant due = started.truncatedTo(ChronoUnit.MINUTES); // lateness stays under a minute
        if (due.isBefore(first) || due.isAfter(last)) continue;
        perDue.merge(due, 1, Integer::sum);
        long late = Duration.between(due, started).toMillis();
        lateness.add(late);
        judgedAfter.add(late + run.path("durationMs").asLong());
      }
      for (Instant due = first; !due.isAfter(last); due = due.plus(1, ChronoUnit.MINUTES)) {
        int n = perDue.getOrDefault(due, 0);
        if (n == 0) missed++;
        if (n > 1) doubled += n - 1;
      }
    }
    return new DueRuns(lateness, judgedAfter, missed, doubled);
  }

  record DueRuns(List<Long> lateness, List<Long> judgedAfter, int missed, int doubled) {}

  static long pct(long[] sorted, double p) {
    if (sorted.length == 0) return 0;
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }

  // ---- talking to the service
  // -------------------------------------------------------------------------

  /**
   * Tokens of {@code n} new accounts, made through the admin route of {@code base} as bench-admin.
   * The tokens are signed here with the service's secret: signing in a hundred accounts would meet
   * the 20-a-minute limit of /auth/*.
   */
  List<String> owners(URI base, String secret, int n) throws Exception {
    Tokens tokens = new Tokens(secret, Duration.ofDays(1), Clock.systemUTC());
    String admin =
        call(
                base,
                "POST",
                "/auth/login",
                null,
                Json.text(Map.of("email", "bench-admin@example.org", "password", PASSWORD)),
                Duration.ofSeconds(30))
            .path("token")
            .asText();
    List<String> owners = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String id = "owner" + i;
      call(
          base,
          "POST",
          "/admin/users",
          admin,
          Json.text(
              Map.of("id", id, "email", id + "@example.org", "role", "user", "password", PASSWORD)),
          Duration.ofSeconds(30));
      owners.add(tokens.issue(id, Role.USER, Instant.now()));
    }
    return owners;
  }

  private Void createWatch(URI base, String token, String id, String schedule) throws Exception {
    return createWatch(base, token, id, schedule, upstream.feedUrl(id));
  }

  /**
   * Creates the watch as a client would: a 503 (the service busy, as a cold cluster is while it
   * allocates its shards) is tried again, and a 409 after it means the first attempt got through
   * after all.
   */
  private Void createWatch(URI base, String token, String id, String schedule, String feedUrl)
      throws Exception {
    return createWatch(base, token, id, schedule, feedUrl, List.of());
  }

  Void createWatch(
      URI base, String token, String id, String schedule, String feedUrl, List<String> channels)
      throws Exception {
    String body = TestWatches.feedBody(id, feedUrl, schedule, channels);
    for (int attempt = 1; ; attempt++) {
      HttpResponse<String> r = send(base, "POST", "/watches", token, body, Duration.ofSeconds(60));
      if (r.statusCode() == 201 || (r.statusCode() == 409 && attempt > 1)) return null;
      if (r.statusCode() != 503 || attempt == 5) {
        throw new IllegalStateException("POST /watches → " + r.statusCode() + " " + r.body());
      }
      Thread.sleep(1000);
    }
  }

  JsonNode call(URI base, String method, String path, String token, String body, Duration timeout)
      throws Exception {
    HttpResponse<String> r = send(base, method, path, token, body, timeout);
    if (r.statusCode() >= 300)
      throw new IllegalStateException(
          method + " " + path + " → " + r.statusCode() + " " + r.body());
    return Json.MAPPER.readTree(r.body());
  }

  /** One request with the bearer token and a JSON body, either optional; any answer is returned. */
  private HttpResponse<String> send(
      URI base, String method, String path, String token, String body, Duration timeout)
      throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).timeout(timeout);
    if (token != null) b.header("Authorization", "Bearer " + token);
    if (body != null) b.header("Content-Type", "application/json");
    b.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  // ---- the service under test
  // ------------------------------------------------------------------------

  /** {@code target/periscope.jar} on a fresh data directory, with the fakes configured. */
  final class Service implements AutoCloseable {
    private final Path dataDir = Files.createTempDirectory("periscope-bench");
    private final Map<String, String> env = new HashMap<>();
    private final Process process;
    private final int port;

    Service(Map<String, String> extra) throws Exception {
      port = ServiceProcess.freePort();
      env.putAll(
          Map.of(
              "DATA_DIR",
              dataDir.toString(),
              "PORT",
              String.valueOf(port),
              "AUTH_JWT_SECRET",
              SECRET,
              "FETCH_ALLOW_PRIVATE_NETWORKS",
              "true",
              "MODEL_BASE_URL",
              upstream.base() + "/v1",
              "MODEL_API_KEYS",
              "bench-key",
              "PERISCOPE_LOG_LEVEL",
              "INFO",
              // thousands of watches, every minute: past the shipped quotas
              "QUOTA_MAX_WATCHES",
              "0",
              "QUOTA_MIN_INTERVAL",
              "1m",
              "QUOTA_MODEL_CALLS_PER_DAY",
              "0"));
      if (options.containsKey("--database-url"))
        env.put("DATABASE_URL", options.get("--database-url"));
      if (options.containsKey("--database-user"))
        env.put("DATABASE_USER", options.get("--database-user"));
      env.putAll(extra);
      Process admin =
          java(
              List.of(
                  "users",
                  "create",
                  "--id",
                  "bench-admin",
                  "--email",
                  "bench-admin@example.org",
                  "--role",
                  "admin"),
              false);
      admin.getOutputStream().write((PASSWORD + "\n").getBytes(StandardCharsets.UTF_8));
      admin.getOutputStream().close();
      if (admin.waitFor() != 0)
        throw new IllegalStateException("could not create the admin account");
      process = java(List.of("serve"), true);
      for (int i = 0; i < 1800; i++) { // three minutes: a loaded machine starts it slowly
        try {
          if (http.send(
                      HttpRequest.newBuilder(base().resolve("/health")).build(),
                      HttpResponse.BodyHandlers.discarding())
                  .statusCode()
              == 200) return;
        } catch (IOException notYet) {
          // starting
        }
        Thread.sleep(100);
      }
      process.destroy();
      throw new IllegalStateException("the service did not start");
    }

    private Process java(List<String> args, boolean serve) throws IOException {
      List<String> cmd =
          new ArrayList<>(
              List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
      if (serve) cmd.add("-Xmx" + options.get("--heap"));
      if (serve && options.containsKey("--jvm-args"))
        cmd.addAll(Arrays.asList(options.get("--jvm-args").trim().split("\\s+")));
      cmd.addAll(List.of("-jar", options.getOrDefault("--jar", "target/periscope.jar")));
      cmd.addAll(args);
      ProcessBuilder pb =
          new ProcessBuilder(cmd)
              .redirectErrorStream(true)
              .redirectOutput(
                  ProcessBuilder.Redirect.appendTo(dataDir.resolve("service.log").toFile()));
      pb.environment().putAll(env);
      return pb.start();
    }

    URI base() {
      return URI.create("http://127.0.0.1:" + port + "/");
    }

    /** The CPU time the service's process has used so far, user and system, in seconds. */
    double cpuSeconds() throws IOException {
      String stat = Files.readString(Path.of("/proc", String.valueOf(process.pid()), "stat"));
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / 100.0; // utime, stime
    }

    /** The service's directory in {@code /proc}. */
    Path proc() {
      return Path.of("/proc", String.valueOf(process.pid()));
    }

    /** The service's resident memory now (VmRSS). */
    long residentBytes() throws IOException {
      Matcher m =
          Pattern.compile("VmRSS:\\s+(\\d+) kB")
              .matcher(Files.readString(Path.of("/proc", String.valueOf(process.pid()), "status")));
      return m.find() ? Long.parseLong(m.group(1)) * 1024 : 0;
    }

    /** The service's used heap now, from {@code jcmd GC.heap_info}. */
    long usedHeapBytes() throws Exception {
      Matcher m = Pattern.compile("total \\d+K, used (\\d+)K").matcher(jcmd("GC.heap_info"));
      return m.find() ? Long.parseLong(m.group(1)) * 1024 : 0;
    }

    /** What {@code jcmd <the service> <command…>} prints. */
    String jcmd(String... command) throws Exception {
      List<String> cmd =
          new ArrayList<>(
              List.of(
                  Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                  String.valueOf(process.pid())));
      cmd.addAll(Arrays.asList(command));
      Process jcmd = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      String out = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      jcmd.waitFor();
      return out;
    }

    @Override
    public void close() throws Exception {
      process.destroy();
      process.waitFor(60, TimeUnit.SECONDS);
      Path log = Path.of("target", "bench", "schedule-bench-service.log");
      Files.createDirectories(log.getParent());
      Files.copy(
          dataDir.resolve("service.log"), log, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      try (var files = Files.walk(dataDir)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }
}
