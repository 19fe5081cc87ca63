package io.periscope.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where the Java samples of some threads of a flight recording go: the recording's {@code
 * jdk.ExecutionSample}s of the threads whose names contain {@code --threads} ({@code pekko}: the
 * actor dispatchers and the journal plugin's), each counted once for the first of {@link #GROUPS} a
 * frame of its stack belongs to, by the innermost frame of the service's own code (what of ours the
 * time is spent under), by the sampled frame (self) and by every frame a stack holds but Pekko's
 * and the pools' (total); proportions, not times (docs/performance.md, "The actor side of a run").
 *
 * <pre>
 * java -cp "target/test-classes:$(cat target/bench.classpath)" io.periscope.bench.ThreadProfile \
 *   judged.jfr --threads pekko --top 30
 * </pre>
 */
public final class ThreadProfile {
  private ThreadProfile() {}

  /** What a sample is counted as: the first group one of its frames' names contains. */
  static final Map<String, List<String>> GROUPS = new LinkedHashMap<>();

  static {
    GROUPS.put("journal: events serialized (Jackson)", List.of("PekkoSerialization$.serialize"));
    GROUPS.put("journal: the plugin's writes (Slick, rows)", List.of("persistence.jdbc.journal"));
    GROUPS.put("wake-up projection", List.of("pekko.projection"));
    GROUPS.put("read journal", List.of("persistence.jdbc.query"));
    GROUPS.put(
        "persistence: after a write (thenRun: first deliveries)",
        List.of("PersistingEvents.onWriteResponse"));
    GROUPS.put(
        "persistence: a command (handler, events applied, effects)",
        List.of("HandlingCommands.onCommand"));
    GROUPS.put("persistence: the rest (MDC, stash)", List.of("persistence.typed.internal"));
    GROUPS.put("pipeline steps after an ask (Asks)", List.of("io.periscope.entity.Asks"));
    GROUPS.put("streams", List.of("pekko.stream"));
  }

  public static void main(String[] args) throws Exception {
    String threads = InProcessRuns.text(args, "--threads", "pekko");
    int top = InProcessRuns.option(args, "--top", 30);
    Map<String, Integer> groups = new LinkedHashMap<>();
    Map<String, Integer> inner = new TreeMap<>();
    Map<String, Integer> self = new TreeMap<>();
    Map<String, Integer> total = new TreeMap<>();
    int samples = 0;
    for (RecordedEvent event : RecordingFile.readAllEvents(Path.of(args[0]))) {
      if (!event.getEventType().getName().equals("jdk.ExecutionSample")) continue;
      String thread = event.getThread("sampledThread").getJavaName();
      if (thread == null || !thread.contains(threads) || event.getStackTrace() == null) continue;
      samples++;
      List<String> frames = new ArrayList<>();
      for (RecordedFrame f : event.getStackTrace().getFrames())
        frames.add(f.getMethod().getType().getName() + "." + f.getMethod().getName());
      groups.merge(group(frames), 1, Integer::sum);
      if (!frames.isEmpty()) self.merge(frames.get(0), 1, Integer::sum);
      for (String f : new HashSet<>(frames))
        if (!f.startsWith("org.apache.pekko.") && !f.startsWith("java.util.concurrent."))
          total.merge(f, 1, Integer::sum);
      String own =
          frames.stream()
              .filter(f -> f.startsWith("io.periscope."))
              .findFirst()
              .map(f -> f.replaceAll("\\$\\$Lambda.*", "\\$\\$Lambda")) // one name per lambda
              .orElse("(none)");
      inner.merge(own, 1, Integer::sum);
    }
    System.out.printf("samples of threads named *%s*: %d%n", threads, samples);
    print(groups, samples, groups.size());
    System.out.println("innermost frame of the service's code:");
    print(inner, samples, top);
    System.out.println("self (the sampled frame):");
    print(self, samples, top);
    System.out.println(
        "total (a frame anywhere in the stack, once a sample; not Pekko's or a pool's):");
    print(total, samples, top);
  }

  static String group(List<String> frames) {
    for (Map.Entry<String, List<String>> g : GROUPS.entrySet())
      for (String frame : frames)
        for (String part : g.getValue()) if (frame.contains(part)) return g.getKey();
    return "the rest";
  }

  private static void print(Map<String, Integer> counts, int samples, int top) {
    counts.entrySet().stream()
        .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
        .limit(top)
        .forEach(
            e ->
                System.out.printf(
                    "%6.1f %% %6d  %s%n",
                    100.0 * e.getValue() / samples, e.getValue(), e.getKey()));
  }
}
