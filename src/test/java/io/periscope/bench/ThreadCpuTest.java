package io.periscope.bench;

import static org.junit.Assert.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** {@link ThreadCpu} on a copy of a JVM's {@code /proc/<pid>} (the fixture {@code proc-4240}). */
public class ThreadCpuTest {
  @Rule public TemporaryFolder tmp = new TemporaryFolder();

  private static Path fixture() throws Exception {
    return Path.of(ThreadCpuTest.class.getResource("proc-4240").toURI());
  }

  @Test
  public void aNameEndsAtTheLineLastParenthesisWhateverItHolds() {
    ThreadCpu.Task odd =
        ThreadCpu.parse(
            "4252 (a) b (c) S 1 4240 4240 0 -1 4194368 39 0 0 0 7 3 0 0 20 0 31 0 1900 30");
    assertEquals(new ThreadCpu.Task("a) b (c", 7, 3, 1900), odd);
    assertEquals(
        new ThreadCpu.Task("C2 CompilerThre", 900, 20, 1901),
        ThreadCpu.parse(
            "4243 (C2 CompilerThre) S 1 4240 4240 0 -1 4194368 39 0 0 0 900 20 0 0 20 0 2 0 1901"));
  }

  @Test
  public void everyThreadIsReadByItsId() throws Exception {
    Map<String, ThreadCpu.Task> tasks = ThreadCpu.tasks(fixture());
    assertEquals(10, tasks.size());
    assertEquals(10, tasks.get("4252").ticks());
    assertEquals("GC Thread#0", tasks.get("4245").name());
    assertEquals(42, tasks.get("4245").ticks());
    assertEquals(2300, ThreadCpu.processTicks(fixture()));
  }

  @Test
  public void threadsAreGroupedByWhatTheyDo() {
    assertEquals(ThreadCpu.C2, ThreadCpu.group("C2 CompilerThre"));
    assertEquals(ThreadCpu.C1, ThreadCpu.group("C1 CompilerThre"));
    assertEquals(ThreadCpu.GC, ThreadCpu.group("GC Thread#3"));
    assertEquals(ThreadCpu.GC, ThreadCpu.group("G1 Refine#0"));
    assertEquals(ThreadCpu.GC, ThreadCpu.group("VM Thread"));
    assertEquals("VM Periodic Tas", ThreadCpu.group("VM Periodic Tas"));
    assertEquals("db-*", ThreadCpu.group("db-12"));
    assertEquals("periscope-pekko", ThreadCpu.group("periscope-pekko"));
    assertEquals("a) b (c", ThreadCpu.group("a) b (c"));
  }

  @Test
  public void aWindowCountsWhatEachGroupUsedAndWhatEndedThreadsTookWithThem() throws Exception {
    Path proc = copy(fixture());
    ThreadCpu window = new ThreadCpu(proc);
    stat(proc.resolve("task/4243/stat"), 4243, "C2 CompilerThre", 1000, 20); // +100
    stat(proc.resolve("task/4251/stat"), 4251, "db-3", 80, 25); // +20
    window.sample();
    stat(proc.resolve("task/4250/stat"), 4250, "db-12", 80, 30); // +10
    Files.createDirectories(proc.resolve("task/4260"));
    stat(proc.resolve("task/4260/stat"), 4260, "db-13", 6, 2); // new: +8
    // 4252 ran 5 more ticks, then ended: only the process's total keeps them
    deleteTree(proc.resolve("task/4252"));
    stat(proc.resolve("stat"), 4240, "java", 2000 + 143, 300);

    Map<String, Double> seconds = window.seconds();
    assertEquals(1.00, seconds.get(ThreadCpu.C2), 1e-9);
    assertEquals(0.38, seconds.get("db-*"), 1e-9);
    assertEquals(0.05, seconds.get(ThreadCpu.UNPLACED), 1e-9);
    assertEquals(0.0, seconds.get(ThreadCpu.GC), 1e-9);
    assertEquals(1.43, seconds.values().stream().mapToDouble(Double::doubleValue).sum(), 1e-9);
    assertEquals(ThreadCpu.C2, seconds.keySet().iterator().next());
  }

  @Test
  public void aRenamedThreadCountsWhatItUsedSinceUnderTheNameItWasFirstSeenWith() throws Exception {
    Path proc = copy(fixture());
    ThreadCpu window = new ThreadCpu(proc);
    // OkHttp names the dispatcher's thread after the call it runs, then gives its name back
    stat(proc.resolve("task/4251/stat"), 4251, "OkHttp http://l", 70, 40, 1900); // +10 +15
    window.sample();
    stat(proc.resolve("task/4251/stat"), 4251, "db-3", 72, 41, 1900); // +2 +1
    stat(proc.resolve("task/4250/stat"), 4250, "db-12", 72, 25, 5000); // a new thread, same id
    stat(proc.resolve("stat"), 4240, "java", 2000 + 125, 300);

    Map<String, Double> seconds = window.seconds();
    assertEquals(0.28 + 0.97, seconds.get("db-*"), 1e-9);
    assertEquals(0.16 + 0.25, window.systemSeconds().get("db-*"), 1e-9);
    assertEquals(null, seconds.get("OkHttp http://l"));
    assertEquals(0.0, seconds.get(ThreadCpu.UNPLACED), 1e-9);
  }

  private Path copy(Path from) throws Exception {
    Path to = tmp.newFolder("proc").toPath();
    try (Stream<Path> files = Files.walk(from)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) Files.createDirectories(target);
        else Files.copy(p, target);
      }
    }
    return to;
  }

  private static void deleteTree(Path dir) throws Exception {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  private static void stat(Path file, int tid, String name, long utime, long stime)
      throws Exception {
    stat(file, tid, name, utime, stime, 1900);
  }

  private static void stat(Path file, int tid, String name, long utime, long stime, long start)
      throws Exception {
    Files.writeString(
        file,
        tid
            + " ("
            + name
            + ") S 1 4240 4240 0 -1 4194368 39 0 0 0 "
            + utime
            + " "
            + stime
            + " 0 0 20 0 31 0 "
            + start
            + " 3000000000 40000\n");
  }
}
