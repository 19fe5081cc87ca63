package io.periscope.bench;

import io.periscope.testing.ServiceProcess;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The idle node under JVM options: the service's jar, as an operator starts it ({@code java
 * -Xmx<heap> <options> -jar … serve}, the embedded journal), once per variant and side by side, so
 * that the machine's load falls on every variant alike over the same minutes. After {@code
 * --settle} seconds (180: start-up's compiling done), {@code --windows} (4) windows of a minute:
 * each variant's CPU-seconds, its JIT compilers' and its collector's ({@link ThreadCpu}), and its
 * ratio to the first variant; then the medians of the windows. A variant is {@code name=options},
 * the options separated by spaces, none for the JVM's defaults, and {@code name@jar=options} starts
 * another build's jar (two builds side by side):
 *
 * <pre>
 * java -cp "target/test-classes:target/classes:$(cat target/bench.classpath)" io.periscope.bench.IdleJvms \
 *   --heap 512m G1= Serial=-XX:+UseSerialGC Parallel=-XX:+UseParallelGC C1=-XX:TieredStopAtLevel=1
 * java … io.periscope.bench.IdleJvms --settle 150 --windows 5 before@../before/target/periscope.jar= now=
 * </pre>
 */
final class IdleJvms {
  private IdleJvms() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> options = new HashMap<>();
    Map<String, List<String>> variants = new LinkedHashMap<>();
    Map<String, Path> jars = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (args[i].startsWith("--")) options.put(args[i], args[++i]);
      else {
        String[] v = args[i].split("=", 2);
        String[] named = v[0].split("@", 2);
        if (named.length > 1) jars.put(named[0], Path.of(named[1]));
        variants.put(
            named[0], v[1].isBlank() ? List.of() : Arrays.asList(v[1].trim().split("\\s+")));
      }
    }
    String heap = options.getOrDefault("--heap", "512m");
    int settle = Integer.parseInt(options.getOrDefault("--settle", "180"));
    int windows = Integer.parseInt(options.getOrDefault("--windows", "4"));
    Path jar = Path.of(options.getOrDefault("--jar", "target/periscope.jar"));

    Map<String, Process> nodes = new LinkedHashMap<>();
    List<Path> dirs = new ArrayList<>();
    try {
      HttpClient http = HttpClient.newHttpClient();
      Map<String, URI> health = new LinkedHashMap<>();
      for (Map.Entry<String, List<String>> v : variants.entrySet()) {
        Path dir = Files.createTempDirectory("periscope-idle-" + v.getKey());
        dirs.add(dir);
        int port = ServiceProcess.freePort();
        List<String> cmd =
            new ArrayList<>(
                List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.add("-Xmx" + heap);
        cmd.addAll(v.getValue());
        cmd.addAll(List.of("-jar", jars.getOrDefault(v.getKey(), jar).toString(), "serve"));
        ProcessBuilder pb =
            new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("service.log").toFile());
        pb.environment()
            .putAll(
                Map.of(
                    "DATA_DIR",
                    dir.toString(),
                    "PORT",
                    String.valueOf(port),
                    "REMOTE_PORT",
                    "0",
                    "AUTH_JWT_SECRET",
                    ScheduleBench.SECRET));
        nodes.put(v.getKey(), pb.start());
        health.put(v.getKey(), URI.create("http://127.0.0.1:" + port + "/health"));
      }
      for (Map.Entry<String, URI> h : health.entrySet()) {
        for (int i = 0; ServiceProcess.status(http, h.getValue()) != 200; i++) {
          if (i > 900 || !nodes.get(h.getKey()).isAlive())
            throw new IllegalStateException(h.getKey() + " did not start");
          Thread.sleep(200);
        }
      }
      Thread.sleep(settle * 1000L);

      Map<String, List<double[]>> rows = new LinkedHashMap<>();
      for (int w = 0; w < windows; w++) {
        Map<String, ThreadCpu> cpu = new LinkedHashMap<>();
        for (Map.Entry<String, Process> n : nodes.entrySet())
          cpu.put(n.getKey(), new ThreadCpu(Path.of("/proc", String.valueOf(n.getValue().pid()))));
        for (int s = 0; s < 6; s++) {
          Thread.sleep(10_000);
          cpu.values().forEach(ThreadCpu::sample);
        }
        double first = 0;
        for (Map.Entry<String, ThreadCpu> c : cpu.entrySet()) {
          Map<String, Double> seconds = c.getValue().seconds();
          double total = seconds.values().stream().mapToDouble(Double::doubleValue).sum();
          double jit = ThreadCpu.of(seconds, ThreadCpu.C2) + ThreadCpu.of(seconds, ThreadCpu.C1);
          if (first == 0) first = total;
          double[] row = {total, jit, ThreadCpu.of(seconds, ThreadCpu.GC), total / first};
          rows.computeIfAbsent(c.getKey(), k -> new ArrayList<>()).add(row);
          System.out.printf(
              Locale.ROOT,
              "window %d %-10s cpu-s/min=%.3f jit=%.3f gc-and-vm-thread=%.3f ratio=%.2f%n%s%n",
              w + 1,
              c.getKey(),
              row[0],
              row[1],
              row[2],
              row[3],
              ThreadCpu.table(seconds, c.getValue().systemSeconds(), 60));
        }
      }
      System.out.printf(
          Locale.ROOT,
          "load average %.1f; medians of %d windows:%n",
          AlternatingCpu.load(),
          windows);
      for (Map.Entry<String, List<double[]>> r : rows.entrySet()) {
        System.out.printf(
            Locale.ROOT,
            "%-10s cpu-s/min=%.3f jit=%.3f gc-and-vm-thread=%.3f ratio to %s=%.2f (%s)%n",
            r.getKey(),
            median(r.getValue(), 0),
            median(r.getValue(), 1),
            median(r.getValue(), 2),
            variants.keySet().iterator().next(),
            median(r.getValue(), 3),
            String.join(" ", variants.get(r.getKey())));
      }
    } finally {
      for (Process p : nodes.values()) p.destroy();
      for (Process p : nodes.values()) p.waitFor();
      for (Path dir : dirs)
        try (var files = Files.walk(dir)) {
          files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
  }

  private static double median(List<double[]> rows, int column) {
    double[] values = rows.stream().mapToDouble(r -> r[column]).sorted().toArray();
    return values[values.length / 2];
  }
}
