package io.periscope.bench;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.periscope.entity.Asks;
import io.periscope.keys.KeyPools;
import io.periscope.llm.ModelCallMeter;
import io.periscope.llm.PooledModel;
import io.periscope.llm.UsageRecorder;
import io.periscope.net.SafeHttp;
import io.periscope.notify.AdminAlerts;
import io.periscope.notify.Notifier;
import io.periscope.notify.RepeatedAlerts;
import io.periscope.persistence.JournalSchema;
import io.periscope.run.Pipeline;
import io.periscope.runtime.LocalEntities;
import io.periscope.source.ArticleExtractor;
import io.periscope.source.CollectionBudget;
import io.periscope.source.CollectionLimits;
import io.periscope.source.FeedCollector;
import io.periscope.source.PageCollector;
import io.periscope.testing.LoggedAlerts;
import io.periscope.testing.TestJournals;
import io.periscope.trust.TrustRules;
import io.periscope.trust.TrustRulesEntity;
import io.periscope.watch.RunRecord;
import io.periscope.watch.Watch;
import io.periscope.watch.WatchEntity;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.pattern.StatusReply;

/**
 * What the in-process run benchmarks share ({@link NothingNewRuns}, {@link JudgedRuns}): an actor
 * system on the H2 file journal as the service runs by default, the entities, the real pipeline and
 * collectors (the owner's trust rules read from their entity as the service reads them), the
 * watches' entities, rounds of a run of every watch, and the CPU of the measured rounds. The CPU is
 * the process's (user and system, background threads included: the journal's, the JIT's) less that
 * of the loopback fakes' threads, which the service would not run.
 */
final class InProcessRuns implements AutoCloseable {
  final ActorTestKit testKit;
  final LocalEntities entities;
  final Asks asks;
  final SafeHttp userUrls = new SafeHttp(true);
  final CollectionBudget budget = new CollectionBudget(CollectionLimits.DEFAULTS);
  final AdminAlerts admin = LoggedAlerts.create();

  /** The service's configuration with {@code overrides} and the journal in a new directory. */
  InProcessRuns(String name, Map<String, ?> overrides) throws Exception {
    Config config =
        ConfigFactory.parseMap(overrides)
            .withFallback(TestJournals.embedded(Files.createTempDirectory(name)));
    testKit = ActorTestKit.create(config);
    JournalSchema.create(testKit.system());
    entities = new LocalEntities(testKit.system());
    asks = new Asks(testKit.system(), Duration.ofSeconds(30));
  }

  Config config() {
    return testKit.system().settings().config();
  }

  /** The pipeline the service builds, with this model (null: none) and notifier (null: none). */
  Pipeline pipeline(
      PooledModel model,
      KeyPools keyPools,
      Notifier notifier,
      ModelCallMeter meter,
      UsageRecorder usage) {
    return new Pipeline(
        new FeedCollector(userUrls, budget),
        new PageCollector(userUrls, budget, Optional.empty()),
        Optional.empty(),
        new ArticleExtractor(userUrls, budget),
        model,
        keyPools,
        notifier,
        admin,
        new RepeatedAlerts(admin, Clock.systemUTC(), RepeatedAlerts.REPEAT_EVERY),
        accountId ->
            asks.<TrustRulesEntity.Command, TrustRulesEntity.Rules>ask(
                    entities.trustRules(accountId), TrustRulesEntity.GetRules::new)
                .thenApply(r -> TrustRules.of(r.rules())),
        meter,
        usage,
        Clock.systemUTC());
  }

  /** An entity for each watch, created. */
  List<ActorRef<WatchEntity.Command>> create(List<Watch> watches, Pipeline pipeline) {
    List<ActorRef<WatchEntity.Command>> refs = new ArrayList<>();
    for (Watch watch : watches) {
      ActorRef<WatchEntity.Command> ref =
          testKit.spawn(
              WatchEntity.create(
                  WatchEntity.entityId(watch.owner(), watch.id()), pipeline, Clock.systemUTC()));
      TestProbe<StatusReply<Watch>> created = testKit.createTestProbe();
      ref.tell(new WatchEntity.Create(watch, null, null, created.ref()));
      if (!created.receiveMessage(Duration.ofSeconds(30)).isSuccess())
        throw new IllegalStateException("not created");
      refs.add(ref);
    }
    return refs;
  }

  /** A run of every watch, each of whose records must have one of {@code outcomes}. */
  void round(List<ActorRef<WatchEntity.Command>> refs, Set<String> outcomes) {
    TestProbe<StatusReply<RunRecord>> ran = testKit.createTestProbe();
    for (ActorRef<WatchEntity.Command> ref : refs)
      ref.tell(new WatchEntity.Run(RunRecord.TRIGGER_MANUAL, ran.ref()));
    for (int i = 0; i < refs.size(); i++) {
      StatusReply<RunRecord> reply = ran.receiveMessage(Duration.ofSeconds(30));
      if (reply.isError()) throw new IllegalStateException("run failed", reply.getError());
      RunRecord r = reply.getValue();
      if (!outcomes.contains(r.outcome()))
        throw new IllegalStateException("outcome " + r.outcome() + ": " + r.error());
    }
  }

  /**
   * The CPU from now: the process's less that of the threads whose names start with one of {@code
   * fakes} (a fake's thread that ended within the window is counted as the process's).
   */
  static final class Cpu {
    private static final com.sun.management.OperatingSystemMXBean OS =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private final List<String> fakes;
    private final long process = OS.getProcessCpuTime();
    private final Map<Long, Long> fakeStart;
    private final ThreadCpu threads = new ThreadCpu(Path.of("/proc/self"));
    private final Map<Long, Long> pekkoAllocatedStart;
    private final Map<Long, Long> pekkoCpuStart;
    private final Map<Long, Long> parseAllocatedStart;
    private final Map<Long, Long> parseCpuStart;

    Cpu(List<String> fakes) {
      this.fakes = fakes;
      this.fakeStart = fakeThreads();
      this.pekkoAllocatedStart = named("pekko", Cpu::allocated);
      this.pekkoCpuStart = named("pekko", THREADS::getThreadCpuTime);
      this.parseAllocatedStart = named("periscope-parse", Cpu::allocated);
      this.parseCpuStart = named("periscope-parse", THREADS::getThreadCpuTime);
    }

    /**
     * What the JIT's compilers and the collector (its threads and the VM Thread) used of it, per
     * run of {@code runs}: the first is still compiling after the warm-up on two cores, and is what
     * a node that has run long no longer pays; and what the {@code pekko} threads allocated a run
     * and their CPU (a thread of theirs that ended within the window is left out); the same of the
     * parse threads ({@code periscope-parse}: feeds and pages parsed, texts made).
     */
    String jitAndGc(int runs) {
      Map<String, Double> seconds = threads.seconds();
      return format(
          "jit-ms-per-run=%.3f gc-and-vm-thread-ms-per-run=%.3f pekko-allocated-kb-per-run=%.1f"
              + " pekko-cpu-ms-per-run=%.3f parse-allocated-kb-per-run=%.1f"
              + " parse-cpu-ms-per-run=%.3f",
          (ThreadCpu.of(seconds, ThreadCpu.C2) + ThreadCpu.of(seconds, ThreadCpu.C1)) * 1e3 / runs,
          ThreadCpu.of(seconds, ThreadCpu.GC) * 1e3 / runs,
          since(named("pekko", Cpu::allocated), pekkoAllocatedStart) / 1024.0 / runs,
          since(named("pekko", THREADS::getThreadCpuTime), pekkoCpuStart) / 1e6 / runs,
          since(named("periscope-parse", Cpu::allocated), parseAllocatedStart) / 1024.0 / runs,
          since(named("periscope-parse", THREADS::getThreadCpuTime), parseCpuStart) / 1e6 / runs);
    }

    /** The window's CPU by group of threads, the fakes' among them, in ms a run of {@code runs}. */
    String byThread(int runs) {
      StringBuilder rows = new StringBuilder();
      threads
          .seconds()
          .forEach(
              (group, seconds) -> {
                if (seconds > 0)
                  rows.append(format("  %-28s %7.3f ms/run%n", group, seconds * 1e3 / runs));
              });
      return rows.toString();
    }

    private static long since(Map<Long, Long> now, Map<Long, Long> start) {
      long sum = 0;
      for (Map.Entry<Long, Long> t : now.entrySet())
        sum += t.getValue() - start.getOrDefault(t.getKey(), 0L);
      return sum;
    }

    private static long allocated(long threadId) {
      return ((com.sun.management.ThreadMXBean) THREADS).getThreadAllocatedBytes(threadId);
    }

    /**
     * {@code count} of each live thread with {@code part} in its name ({@code pekko}: the actor
     * dispatchers and the journal plugin) so far: its bytes allocated (a count steadier than its
     * CPU on a loaded machine) or its CPU nanoseconds.
     */
    private static Map<Long, Long> named(String part, java.util.function.LongUnaryOperator count) {
      Map<Long, Long> counts = new HashMap<>();
      for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
        if (info == null || !info.getThreadName().contains(part)) continue;
        long n = count.applyAsLong(info.getThreadId());
        if (n >= 0) counts.put(info.getThreadId(), n);
      }
      return counts;
    }

    /** The CPU nanoseconds since this was made, the fakes' left out. */
    long nanos() {
      long fake = 0;
      for (Map.Entry<Long, Long> t : fakeThreads().entrySet())
        fake += t.getValue() - fakeStart.getOrDefault(t.getKey(), 0L);
      return OS.getProcessCpuTime() - process - fake;
    }

    static double loadAverage() {
      return OS.getSystemLoadAverage();
    }

    private Map<Long, Long> fakeThreads() {
      Map<Long, Long> cpu = new HashMap<>();
      for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
        if (info == null || fakes.stream().noneMatch(info.getThreadName()::startsWith)) continue;
        long nanos = THREADS.getThreadCpuTime(info.getThreadId());
        if (nanos >= 0) cpu.put(info.getThreadId(), nanos);
      }
      return cpu;
    }
  }

  /**
   * A flight recording (JDK Flight Recorder, {@code profile} settings, Java sampled every
   * millisecond) from now into the file named by {@code --jfr}, which closing writes; none without
   * it.
   */
  static AutoCloseable record(String[] args) throws Exception {
    String file = null;
    for (int i = 0; i + 1 < args.length; i++) if (args[i].equals("--jfr")) file = args[i + 1];
    if (file == null) return () -> {};
    Recording recording = new Recording(Configuration.getConfiguration("profile"));
    // a sample a millisecond of a thread's CPU rather than 10 ms: a run takes a few milliseconds
    recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(1));
    recording.start();
    Path to = Path.of(file);
    return () -> {
      recording.dump(to);
      recording.close();
    };
  }

  /**
   * {@code overrides}, and with {@code --count} among {@code args} the settings that count what the
   * actor side does ({@link DispatcherCounts}).
   */
  static Map<String, Object> counting(String[] args, Map<String, ?> overrides) {
    Map<String, Object> all = new HashMap<>(overrides);
    if (counts(args)) all.putAll(DispatcherCounts.settings());
    return all;
  }

  static boolean counts(String[] args) {
    return List.of(args).contains("--count");
  }

  static String format(String template, Object... args) {
    return String.format(Locale.ROOT, template, args);
  }

  static int option(String[] args, String name, int otherwise) {
    return Integer.parseInt(text(args, name, Integer.toString(otherwise)));
  }

  static String text(String[] args, String name, String otherwise) {
    for (int i = 0; i + 1 < args.length; i++) if (args[i].equals(name)) return args[i + 1];
    return otherwise;
  }

  @Override
  public void close() {
    testKit.shutdownTestKit();
  }
}
