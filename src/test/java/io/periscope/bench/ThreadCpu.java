package io.periscope.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A process's CPU by group of threads, from {@code /proc/<pid>/stat} and {@code
 * /proc/<pid>/task/<tid>/stat}: what the JVM spends compiling and collecting, told from what the
 * application's threads do. Sampled more than once over a window, since a thread that ends takes
 * its CPU out of the task list (the process's total keeps it): what the samples cannot place is
 * reported as {@link #UNPLACED}.
 */
final class ThreadCpu {
  /** Linux reports CPU in clock ticks of {@code USER_HZ}, 100 a second on every usual kernel. */
  static final double TICKS_PER_SECOND = 100;

  static final String C2 = "jit C2";
  static final String C1 = "jit C1";

  /**
   * The collector's threads (G1's workers, refinement, marking and service threads, Parallel's
   * {@code GC Thread#n}) and the VM Thread, which runs every stop-the-world pause and, with
   * SerialGC, the whole collection: without it the collectors would not compare.
   */
  static final String GC = "gc and VM Thread";

  /** CPU of threads that ended between two samples: in the process's total, in no group. */
  static final String UNPLACED = "ended threads";

  /**
   * A thread's name ({@code comm}, at most 15 bytes), its CPU ticks in user and in kernel mode, and
   * when it started (ticks after boot), which tells a thread from a later one given its id.
   */
  record Task(String name, long user, long system, long start) {
    long ticks() {
      return user + system;
    }

    boolean sameThreadAs(Task other) {
      return other != null && other.start == start;
    }
  }

  private final Path proc;
  private final long processStart;
  private Map<String, Task> last;
  // A thread keeps the group of the name it was first seen with: OkHttp renames a dispatcher's
  // thread for each call it runs ("OkHttp http://…") and its task runner's for each task.
  private final Map<String, String> groupOf = new HashMap<>();
  private final Map<String, long[]> groups = new HashMap<>();
  private final Map<String, Double> systemSeconds = new HashMap<>();

  /** Starts a window on the process whose {@code /proc} directory is {@code proc}. */
  ThreadCpu(Path proc) {
    this.proc = proc;
    this.processStart = processTicks(proc);
    this.last = tasks(proc);
  }

  /** Adds what every thread used since the last sample to its group. */
  void sample() {
    Map<String, Task> now = tasks(proc);
    for (Map.Entry<String, Task> t : now.entrySet()) {
      Task task = t.getValue();
      Task before = last.get(t.getKey());
      // A thread id that now names another thread was reused: the new one's CPU is all new.
      boolean same = task.sameThreadAs(before);
      String key = t.getKey() + "@" + task.start();
      String group = groupOf.computeIfAbsent(key, k -> group((same ? before : task).name()));
      long[] used = groups.computeIfAbsent(group, g -> new long[2]);
      used[0] += task.user() - (same ? before.user() : 0);
      used[1] += task.system() - (same ? before.system() : 0);
    }
    last = now;
  }

  /** Samples, then the window's CPU-seconds by group, {@link #UNPLACED} included, largest first. */
  Map<String, Double> seconds() {
    sample();
    long placed = 0;
    Map<String, Long> all = new HashMap<>();
    for (Map.Entry<String, long[]> g : groups.entrySet()) {
      all.put(g.getKey(), g.getValue()[0] + g.getValue()[1]);
      systemSeconds.put(g.getKey(), g.getValue()[1] / TICKS_PER_SECOND);
      placed += g.getValue()[0] + g.getValue()[1];
    }
    all.put(UNPLACED, Math.max(0, processTicks(proc) - processStart - placed));
    Map<String, Double> sorted = new LinkedHashMap<>();
    all.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .forEach(e -> sorted.put(e.getKey(), e.getValue() / TICKS_PER_SECOND));
    return sorted;
  }

  /** Of {@link #seconds()}, what each group spent in the kernel (system calls, page faults). */
  Map<String, Double> systemSeconds() {
    return Map.copyOf(systemSeconds);
  }

  /** The process's CPU ticks so far, user and system, its ended threads' included. */
  static long processTicks(Path proc) {
    try {
      return parse(Files.readString(proc.resolve("stat"))).ticks();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every thread of the process now, by thread id; one that ends while read is left out. */
  static Map<String, Task> tasks(Path proc) {
    Map<String, Task> tasks = new TreeMap<>();
    try (Stream<Path> dirs = Files.list(proc.resolve("task"))) {
      for (Path dir : (Iterable<Path>) dirs::iterator) {
        try {
          tasks.put(dir.getFileName().toString(), parse(Files.readString(dir.resolve("stat"))));
        } catch (NoSuchFileException ended) {
          // ended between the listing and the read: its CPU is in the process's total
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return tasks;
  }

  /**
   * A {@code stat} line: {@code pid (comm) state ppid …}, utime and stime the 14th and 15th fields,
   * starttime the 22nd. The name may hold spaces and parentheses, so it ends at the line's last
   * {@code ')'}.
   */
  static Task parse(String stat) {
    int open = stat.indexOf('(');
    int close = stat.lastIndexOf(')');
    if (open < 0 || close < open) throw new IllegalArgumentException("not a stat line: " + stat);
    String[] fields = stat.substring(close + 2).trim().split(" ");
    return new Task(
        stat.substring(open + 1, close),
        Long.parseLong(fields[11]),
        Long.parseLong(fields[12]),
        Long.parseLong(fields[19]));
  }

  /**
   * The group of a thread's name: the JIT's compilers, the collector, or the name without its
   * number ({@code db-3} and {@code db-12} are {@code db-*}).
   */
  static String group(String name) {
    if (name.startsWith("C2 CompilerThre")) return C2;
    if (name.startsWith("C1 CompilerThre")) return C1;
    if (name.equals("VM Thread") || name.startsWith("GC Thread") || name.startsWith("G1 "))
      return GC;
    return name.replaceFirst("\\d+$", "*");
  }

  /** The CPU-seconds of a window's group, 0 when none of its threads ran. */
  static double of(Map<String, Double> seconds, String group) {
    return seconds.getOrDefault(group, 0.0);
  }

  /**
   * The groups as {@code name s (share %, of it in the kernel %)}, the largest first, for a report.
   */
  static String table(
      Map<String, Double> seconds, Map<String, Double> system, double perMinuteOver) {
    double total = seconds.values().stream().mapToDouble(Double::doubleValue).sum();
    List<String> rows = new ArrayList<>();
    for (Map.Entry<String, Double> e : seconds.entrySet()) {
      if (e.getValue() <= 0) continue;
      rows.add(
          String.format(
              Locale.ROOT,
              "  %-28s %6.3f cpu-s/min %5.1f %%  kernel %3.0f %%",
              e.getKey(),
              e.getValue() * 60 / perMinuteOver,
              100 * e.getValue() / Math.max(1e-9, total),
              100 * system.getOrDefault(e.getKey(), 0.0) / e.getValue()));
    }
    return String.join("\n", rows);
  }
}
