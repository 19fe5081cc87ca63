package io.periscope.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;

/**
 * Two paths' CPU in one JVM, by the thread's CPU time: a measure is {@code reps} passes of a path;
 * A and B alternate (A, B, then B, A) for {@code rounds} rounds after as many of warm-up, and the
 * ratio reported is the median of the rounds' A / B, with the medians of each per item. What the
 * in-process benchmarks ({@link ItemTextBench}, {@link PageBench}) share.
 */
final class AlternatingCpu {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final int reps;
  private final int rounds;

  /** One pass of a path over its inputs. */
  interface Pass {
    void run() throws Exception;
  }

  AlternatingCpu(int reps, int rounds) {
    this.reps = reps;
    this.rounds = rounds;
  }

  /** Prints the line of {@code name}: old (A) and new (B) per item, and old / new. */
  void compare(String name, Pass a, Pass b, int items) throws Exception {
    long[] as = new long[rounds];
    long[] bs = new long[rounds];
    double[] ratios = new double[rounds];
    for (int r = -rounds; r < rounds; r++) {
      boolean aFirst = (r & 1) == 0;
      long first = cpu(aFirst ? a : b);
      long second = cpu(aFirst ? b : a);
      if (r < 0) continue; // warm-up
      as[r] = aFirst ? first : second;
      bs[r] = aFirst ? second : first;
      ratios[r] = (double) as[r] / bs[r];
    }
    Arrays.sort(ratios);
    System.out.printf(
        Locale.ROOT,
        "%s: old %.3f ms, new %.3f ms each (medians); old / new %.1f (rounds: %.1f to %.1f)%n",
        name,
        median(as) / 1e6 / reps / items,
        median(bs) / 1e6 / reps / items,
        ratios[rounds / 2],
        ratios[0],
        ratios[rounds - 1]);
  }

  private long cpu(Pass pass) throws Exception {
    long start = THREADS.getCurrentThreadCpuTime();
    for (int p = 0; p < reps; p++) pass.run();
    return THREADS.getCurrentThreadCpuTime() - start;
  }

  private static double median(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  static double load() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  static String option(String[] argv, String name, String otherwise) {
    for (int i = 0; i + 1 < argv.length; i++) if (argv[i].equals(name)) return argv[i + 1];
    return otherwise;
  }
}
