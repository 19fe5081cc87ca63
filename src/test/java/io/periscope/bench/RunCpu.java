package io.periscope.bench;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;

/**
 * The {@code cpu} scenario of {@link ScheduleBench}: what a node's CPU costs an operator, from
 * {@code /proc} of the service's process. Three phases on one service:
 *
 * <ol>
 *   <li><b>nothing-new</b>: {@code --watches} (200) watches due every minute on feeds that never
 *       change; their first due minute judges the one item, the next {@code --minutes} are
 *       measured;
 *   <li><b>judged</b>: those watches deleted, as many on feeds that gain one item a request, which
 *       the model finds met and which alert to a webhook; {@code --warm-minutes} (1) due minutes,
 *       then {@code --minutes} measured;
 *   <li><b>idle</b>: those deleted too, 30 s later, CPU-seconds a minute over {@code
 *       --idle-seconds} (60): the node's periodic work (cluster, scheduler, pollers) once its run
 *       path is compiled.
 * </ol>
 *
 * A run's marginal CPU is the phase's CPU less the idle node's over the same time, divided by the
 * runs. Each measured window runs from 2 s before its first due time to 2 s before the minute after
 * its last, so it holds the runs of its due minutes whole. With {@code --jar} another build is
 * measured; with {@code --jvm-args} the service gets JVM options; with {@code --jfr <dir>} each
 * measured window is recorded by JDK Flight Recorder (profile settings) into {@code
 * <dir>/<phase>.jfr}. Each phase prints the connections its requests came on; the fakes close each
 * one after its answer (a connection per call), or with {@code --keep-alive true} keep them open
 * ({@link io.periscope.testing.FakeUpstream}), to count what the service's pools reuse.
 *
 * <p>With {@code --slope-watches} (say 500, less than {@code --watches}) the nothing-new watches
 * are also measured at that size: those past it deleted after their phase, the rest measured again
 * after a due minute; then as many watches as were deleted are created again and the larger size is
 * measured a second time ({@code nothing-new-again}). The slope between the two sizes, the CPU a
 * minute's runs add per run, is how the marginal figure is defined: what a node pays
 * whatever its watches (its idle work, the JIT's start-up compiling, anything that runs only while
 * some watch is live) falls out of it, while what grows with the watches stays in. It is printed
 * twice, against the larger size's first phase and against its second. The first phase runs while
 * C2 is still compiling the run path, so every thread's run costs more in it than in the phases
 * after (docs/performance.md, "What grows between 500 and 1,000 watches"): that slope is the order
 * of the phases, the second is the one to hold against the target.
 *
 * <p>Each window's CPU is also told by thread ({@link ThreadCpu}): the JIT's compilers, the
 * collector's threads with the VM Thread, and the rest. A run's marginal CPU is then given twice:
 * with the JIT, what these phases cost, and without it (the phase's and the idle node's compiling
 * both left out), toward what a node that has long finished compiling its run path pays: the
 * application's threads still run code that is interpreted or profiled while it waits for C2, so it
 * stays above that. On two cores the JIT is still compiling after minutes, so the first is the
 * larger by a share that the phase's length decides; the second is the one to compare builds by.
 * The idle node's CPU is printed by group of threads.
 */
final class RunCpu {
  private final ScheduleBench bench;

  RunCpu(ScheduleBench bench) {
    this.bench = bench;
  }

  void measure() throws Exception {
    int watches = option("--watches", 200);
    int minutes = option("--minutes", 3);
    int warmMinutes = option("--warm-minutes", 1);
    // Every watch alerts every minute: past the shipped deliveries an owner may make an hour.
    Map<String, String> env =
        Map.of(
            "JAVA_TOOL_OPTIONS",
            "-Dperiscope.rate-limits.notifications-per-owner-per-hour=1000000");
    try (ScheduleBench.Service service = bench.new Service(env)) {
      URI base = service.base();
      List<String> tokens = bench.owners(base, ScheduleBench.SECRET, 1);
      List<String> quiet = create(base, tokens, "quiet-", watches, true);
      Phase nothingNew = phase(service, "nothing-new", tokens, quiet, 1, minutes);
      int slopeWatches = option("--slope-watches", 0);
      Phase fewer = null;
      Phase again = null;
      if (slopeWatches > 0 && slopeWatches < watches) {
        delete(base, tokens, quiet.subList(slopeWatches, watches));
        quiet = new ArrayList<>(quiet.subList(0, slopeWatches));
        fewer = phase(service, "nothing-new-" + slopeWatches, tokens, quiet, 1, minutes);
        // the larger size again, on code as compiled as the smaller size's: the order falls out
        quiet.addAll(create(base, tokens, "quiet-again-", watches - slopeWatches, true));
        again = phase(service, "nothing-new-again", tokens, quiet, 1, minutes);
        nothingNew.slope("nothing-new", fewer);
        again.slope("nothing-new-again", fewer);
      }
      delete(base, tokens, quiet);
      List<String> fresh = create(base, tokens, "fresh-", watches, false);
      Phase judged = phase(service, "judged", tokens, fresh, warmMinutes, minutes);
      delete(base, tokens, fresh);

      // The idle node after the work, its run path compiled: at start the JIT takes most of it.
      Thread.sleep(30_000);
      record(service, "idle", true);
      double idleStart = service.cpuSeconds();
      ThreadCpu idleThreads = new ThreadCpu(service.proc());
      int idleSeconds = option("--idle-seconds", 60);
      for (int s = 0; s < idleSeconds; s += 10) {
        Thread.sleep(Math.min(10, idleSeconds - s) * 1000L);
        idleThreads.sample();
      }
      double idlePerMinute = (service.cpuSeconds() - idleStart) * 60 / idleSeconds;
      Map<String, Double> idleByThread = idleThreads.seconds();
      record(service, "idle", false);

      System.out.printf(
          Locale.ROOT,
          "jar=%s watches=%d minutes=%d idle-cpu-s-per-min=%.3f%n",
          bench.options.getOrDefault("--jar", "target/periscope.jar"),
          watches,
          minutes,
          idlePerMinute);
      System.out.println(
          "idle node by thread:\n"
              + ThreadCpu.table(idleByThread, idleThreads.systemSeconds(), idleSeconds));
      Idle idle = new Idle(idlePerMinute * minutes, idleByThread, idleSeconds / 60.0 / minutes);
      nothingNew.print("nothing-new", idle);
      if (fewer != null) {
        fewer.print("nothing-new-" + slopeWatches, idle);
        again.print("nothing-new-again", idle);
      }
      judged.print("judged", idle);
    }
  }

  private void delete(URI base, List<String> tokens, List<String> ids) throws Exception {
    for (String id : ids)
      bench.call(base, "DELETE", "/watches/" + id, tokens.get(0), null, Duration.ofSeconds(30));
  }

  /** {@code n} watches due every minute, alerting to the fake's webhook. */
  private List<String> create(
      URI base, List<String> tokens, String prefix, int n, boolean staticFeed) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    List<String> ids = new ArrayList<>();
    List<Future<Void>> creates = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String id = prefix + i;
      String feed = staticFeed ? bench.upstream.staticFeedUrl(id) : bench.upstream.feedUrl(id);
      List<String> channels = List.of("webhook:" + bench.upstream.hookUrl(id));
      ids.add(id);
      creates.add(
          pool.submit(
              () -> bench.createWatch(base, tokens.get(0), id, "* * * * *", feed, channels)));
    }
    for (Future<Void> f : creates) f.get();
    pool.shutdown();
    return ids;
  }

  /**
   * Lets {@code warm} due minutes pass, then measures {@code minutes}: the CPU, the model calls and
   * alerts, the heap (sampled every 10 s) and, from the run records, every watch's runs of them.
   */
  private Phase phase(
      ScheduleBench.Service service,
      String name,
      List<String> tokens,
      List<String> ids,
      int warm,
      int minutes)
      throws Exception {
    Instant first =
        Instant.now()
            .plusSeconds(5)
            .truncatedTo(ChronoUnit.MINUTES)
            .plus(1 + warm, ChronoUnit.MINUTES);
    Instant last = first.plus(minutes - 1, ChronoUnit.MINUTES);
    Instant end = last.plus(1, ChronoUnit.MINUTES).minusSeconds(2);
    sleepUntil(first.minusSeconds(3));
    record(service, name, true);
    sleepUntil(first.minusSeconds(2));
    double cpu = service.cpuSeconds();
    ThreadCpu threads = new ThreadCpu(service.proc());
    long started = System.nanoTime();
    long calls = bench.upstream.modelCalls();
    int alerts = bench.upstream.alerts().size();
    long connections = bench.upstream.connections();
    long peakHeap = 0;
    // each due minute's CPU without the JIT's: how a phase's runs get cheaper as its code compiles
    List<Double> byMinute = new ArrayList<>();
    double minuteCpu = cpu;
    double minuteJit = 0;
    Instant boundary = first.plusSeconds(58);
    while (true) {
      if (!Instant.now().isBefore(boundary)) {
        double at = service.cpuSeconds();
        double jit = jitSeconds(threads.seconds());
        byMinute.add(at - minuteCpu - (jit - minuteJit));
        minuteCpu = at;
        minuteJit = jit;
        if (!boundary.isBefore(end)) break;
        boundary = boundary.plusSeconds(60);
      }
      peakHeap = Math.max(peakHeap, service.usedHeapBytes());
      threads.sample();
      Thread.sleep(
          Math.max(0, Math.min(10_000, Duration.between(Instant.now(), boundary).toMillis())));
    }
    cpu = service.cpuSeconds() - cpu;
    Map<String, Double> byThread = threads.seconds();
    double seconds = (System.nanoTime() - started) / 1e9;
    calls = bench.upstream.modelCalls() - calls;
    alerts = bench.upstream.alerts().size() - alerts;
    connections = bench.upstream.connections() - connections;
    record(service, name, false);
    ScheduleBench.DueRuns runs = bench.dueRuns(service.base(), tokens, ids, first, last);
    return new Phase(
        cpu,
        seconds,
        byThread,
        threads.systemSeconds(),
        byMinute,
        runs,
        calls,
        alerts,
        connections,
        peakHeap,
        service.residentBytes());
  }

  /**
   * The idle node over as long as a phase: its CPU-seconds, and by thread over {@code
   * measuredPerPhase} of a phase's length.
   */
  private record Idle(double cpuSeconds, Map<String, Double> byThread, double measuredPerPhase) {
    double jit() {
      return jitSeconds(byThread) / measuredPerPhase;
    }

    double gc() {
      return ThreadCpu.of(byThread, ThreadCpu.GC) / measuredPerPhase;
    }
  }

  private record Phase(
      double cpuSeconds,
      double seconds,
      Map<String, Double> byThread,
      Map<String, Double> systemByThread,
      List<Double> byMinuteWithoutJit,
      ScheduleBench.DueRuns runs,
      long modelCalls,
      int alerts,
      long connections,
      long peakHeapBytes,
      long residentBytes) {
    /** Prints the phase, its CPU less the idle node's over as long. */
    void print(String name, Idle idle) {
      double idleCpuSeconds = idle.cpuSeconds();
      long[] late = runs.lateness().stream().mapToLong(Long::longValue).sorted().toArray();
      double perRun = 1000.0 / Math.max(1, late.length);
      double marginalMs = (cpuSeconds - idleCpuSeconds) * perRun;
      System.out.printf(
          Locale.ROOT,
          "%s: runs=%d missed=%d doubled=%d model-calls=%d alerts=%d connections=%d cpu-s=%.2f"
              + " (idle share %.2f) marginal-cpu-ms-per-run (= cpu-s per 1,000 runs)=%.2f"
              + " lateness-ms p50=%d p99=%d peak-used-heap-mb=%d rss-mb=%d%n",
          name,
          late.length,
          runs.missed(),
          runs.doubled(),
          modelCalls,
          alerts,
          connections,
          cpuSeconds,
          idleCpuSeconds,
          marginalMs,
          ScheduleBench.pct(late, 50),
          ScheduleBench.pct(late, 99),
          peakHeapBytes >> 20,
          residentBytes >> 20);
      double c2 = ThreadCpu.of(byThread, ThreadCpu.C2);
      double jit = jitSeconds(byThread);
      double gc = ThreadCpu.of(byThread, ThreadCpu.GC);
      System.out.printf(
          Locale.ROOT,
          "%s by thread: cpu-s=%.2f jit-cpu-s=%.2f (C2 %.2f; idle share %.2f)"
              + " gc-and-vm-thread-cpu-s=%.2f (idle share %.2f) ended-threads-cpu-s=%.2f;"
              + " marginal-cpu-ms-per-run with the JIT=%.2f, without the JIT's threads (toward a"
              + " long-running node's)=%.2f, of which gc and VM Thread=%.2f%n",
          name,
          byThread.values().stream().mapToDouble(Double::doubleValue).sum(),
          jit,
          c2,
          idle.jit(),
          gc,
          idle.gc(),
          ThreadCpu.of(byThread, ThreadCpu.UNPLACED),
          marginalMs,
          (cpuSeconds - jit - (idleCpuSeconds - idle.jit())) * perRun,
          (gc - idle.gc()) * perRun);
      System.out.println(
          name
              + " by due minute, cpu-s without the JIT's threads: "
              + byMinuteWithoutJit.stream()
                  .map(s -> String.format(Locale.ROOT, "%.2f", s))
                  .collect(Collectors.joining(", ")));
      System.out.println(ThreadCpu.table(byThread, systemByThread, seconds));
    }

    /**
     * The CPU a run adds between this phase and {@code fewer}, of fewer watches: the difference of
     * their CPU a second over that of their runs a second, the idle node not needed.
     */
    void slope(String name, Phase fewer) {
      double runsPerSecond =
          runs.lateness().size() / seconds - fewer.runs.lateness().size() / fewer.seconds;
      double withJit = cpuSeconds / seconds - fewer.cpuSeconds / fewer.seconds;
      double withoutJit =
          withJit - (jitSeconds(byThread) / seconds - jitSeconds(fewer.byThread) / fewer.seconds);
      System.out.printf(
          Locale.ROOT,
          "%s slope between %d and %d runs a phase: cpu-ms-per-run with the JIT=%.2f, without the"
              + " JIT's threads=%.2f%n",
          name,
          fewer.runs.lateness().size(),
          runs.lateness().size(),
          withJit * 1000 / runsPerSecond,
          withoutJit * 1000 / runsPerSecond);
    }
  }

  /** The CPU-seconds of the JIT's compilers in a window by thread. */
  private static double jitSeconds(Map<String, Double> byThread) {
    return ThreadCpu.of(byThread, ThreadCpu.C2) + ThreadCpu.of(byThread, ThreadCpu.C1);
  }

  /** Starts or stops the flight recording of a phase, when {@code --jfr} names a directory. */
  private void record(ScheduleBench.Service service, String phase, boolean start) throws Exception {
    String dir = bench.options.get("--jfr");
    if (dir == null) return;
    String file = java.nio.file.Path.of(dir, phase + ".jfr").toAbsolutePath().toString();
    if (start) service.jcmd("JFR.start", "name=" + phase, "settings=profile", "filename=" + file);
    else service.jcmd("JFR.stop", "name=" + phase, "filename=" + file);
  }

  private int option(String name, int fallback) {
    return Integer.parseInt(bench.options.getOrDefault(name, String.valueOf(fallback)));
  }

  private static void sleepUntil(Instant when) throws InterruptedException {
    Thread.sleep(Math.max(0, Duration.between(Instant.now(), when).toMillis()));
  }
}
