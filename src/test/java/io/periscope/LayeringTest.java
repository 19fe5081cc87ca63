package io.periscope;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.Test;

/**
 * No package of src/main/java imports one that sits above it in the layering written in
 * docs/architecture.md, every package sits in a layer, and the packages of the domain and the
 * ground import one another without a cycle: inside a layer any package may import any other, so
 * long as none comes back round to itself.
 */
public class LayeringTest {
  private static final Path SOURCES = Path.of("src/main/java/io/periscope");
  private static final String ROOT = "(root)";

  /** The layers whose packages must not import one another round in a circle. */
  private static final List<String> ACYCLIC_LAYERS = List.of("domain", "ground");

  /** Imports and qualified names in code: {@code io.periscope.<package>.} or a root class. */
  private static final Pattern REFERENCE =
      Pattern.compile("\\bio\\.periscope\\.(?:([a-z][a-z0-9]*)\\.|[A-Z])");

  /** Comments and string literals, which name packages without depending on them. */
  private static final Pattern NOT_CODE =
      Pattern.compile(
          "\"\"\"[\\s\\S]*?\"\"\"|\"(?:\\\\.|[^\"\\\\\\n])*\"|/\\*[\\s\\S]*?\\*/|//[^\\n]*");

  @Test
  public void noPackageImportsALayerAboveIt() throws IOException {
    Map<String, Integer> layerOf = documentedLayers();
    List<String> upwards = new ArrayList<>();
    for (Map.Entry<String, TreeSet<String>> uses : packageReferences().entrySet()) {
      String from = uses.getKey().split(" ")[0];
      String to = uses.getKey().split(" ")[1];
      if (layerOf.get(to) < layerOf.get(from))
        upwards.add(from + " -> " + to + " (" + String.join(", ", uses.getValue()) + ")");
    }
    assertEquals("imports that run up the layering of docs/architecture.md", List.of(), upwards);
  }

  @Test
  public void everyPackageSitsInALayer() throws IOException {
    Map<String, Integer> layerOf = documentedLayers();
    TreeSet<String> missing = new TreeSet<>();
    try (Stream<Path> files = Files.walk(SOURCES)) {
      files.filter(f -> f.toString().endsWith(".java")).forEach(f -> missing.add(packageOf(f)));
    }
    missing.removeAll(layerOf.keySet());
    assertEquals("packages in no layer of docs/architecture.md", new TreeSet<String>(), missing);
  }

  @Test
  public void noCycleBetweenThePackagesOfTheDomainOrTheGround() throws IOException {
    Map<String, Integer> layerOf = documentedLayers();
    List<String> names = layerNames();
    Map<String, TreeSet<String>> uses = packageReferences();
    Map<String, TreeSet<String>> graph = new TreeMap<>();
    for (String edge : uses.keySet()) {
      String from = edge.split(" ")[0];
      String to = edge.split(" ")[1];
      if (ACYCLIC_LAYERS.contains(names.get(layerOf.get(from)))
          && layerOf.get(from).equals(layerOf.get(to)))
        graph.computeIfAbsent(from, k -> new TreeSet<>()).add(to);
    }
    List<String> cycles = new ArrayList<>();
    for (List<String> cycle : cycles(graph)) {
      StringBuilder line = new StringBuilder(String.join(" -> ", cycle));
      for (int i = 0; i < cycle.size() - 1; i++)
        line.append("\n    ")
            .append(cycle.get(i) + " -> " + cycle.get(i + 1))
            .append(": ")
            .append(String.join(", ", uses.get(cycle.get(i) + " " + cycle.get(i + 1))));
      cycles.add(line.toString());
    }
    assertEquals("packages that import one another round in a circle", List.of(), cycles);
  }

  @Test
  public void theCycleCheckFindsACircle() {
    Map<String, TreeSet<String>> graph = new TreeMap<>();
    graph.put("a", new TreeSet<>(List.of("b")));
    graph.put("b", new TreeSet<>(List.of("c", "d")));
    graph.put("c", new TreeSet<>(List.of("a")));
    assertEquals(List.of(List.of("a", "b", "c", "a")), cycles(graph));
    graph.remove("c");
    assertEquals(List.of(), cycles(graph));
  }

  @Test
  public void theCheckSeesAnUpwardImport() {
    // the test's own reading: a domain class naming the wiring counts, a comment does not
    String code =
        "package io.periscope.watch;\nimport io.periscope.runtime.Entities;\n"
            + "// io.periscope.http.Routes\nclass X { io.periscope.cli.Cli c; String s ="
            + " \"io.periscope.web.Y\"; }";
    assertEquals(List.of("runtime", "cli"), referencedPackages(code));
  }

  /** Layer number per package, 0 the top. */
  static Map<String, Integer> documentedLayers() throws IOException {
    Map<String, Integer> layerOf = new HashMap<>();
    int layer = 0;
    for (String line : layerLines()) {
      for (String pkg : line.substring(line.indexOf(':') + 1).trim().split("\\s+"))
        assertEquals("package " + pkg + " in two layers", null, layerOf.put(pkg, layer));
      layer++;
    }
    return layerOf;
  }

  /** The names of the layers, top first. */
  private static List<String> layerNames() throws IOException {
    return layerLines().stream().map(l -> l.substring(0, l.indexOf(':')).trim()).toList();
  }

  /** The lines of the ```layers block, {@code name: package...}, top first. */
  private static List<String> layerLines() throws IOException {
    String doc = Files.readString(Path.of("docs/architecture.md"));
    Matcher block = Pattern.compile("```layers\\n([\\s\\S]*?)```").matcher(doc);
    assertTrue("docs/architecture.md has a ```layers block", block.find());
    return Stream.of(block.group(1).split("\\n")).filter(l -> !l.isBlank()).toList();
  }

  /**
   * One circle (its first package repeated at the end) per set of packages that reach one another,
   * found by a depth-first walk from each package in name order.
   */
  static List<List<String>> cycles(Map<String, TreeSet<String>> graph) {
    List<List<String>> found = new ArrayList<>();
    Set<String> inACycle = new HashSet<>();
    for (String start : graph.keySet()) {
      if (inACycle.contains(start)) continue;
      List<String> path = pathBack(graph, start, start, new ArrayList<>(List.of(start)));
      if (path != null) {
        inACycle.addAll(path);
        found.add(path);
      }
    }
    return found;
  }

  private static List<String> pathBack(
      Map<String, TreeSet<String>> graph, String start, String at, List<String> path) {
    for (String next : graph.getOrDefault(at, new TreeSet<>())) {
      if (next.equals(start)) {
        List<String> cycle = new ArrayList<>(path);
        cycle.add(start);
        return cycle;
      }
      if (path.contains(next)) continue;
      path.add(next);
      List<String> cycle = pathBack(graph, start, next, path);
      if (cycle != null) return cycle;
      path.remove(path.size() - 1);
    }
    return null;
  }

  /** "from to" -> the files of {@code from} that name {@code to}. */
  private static Map<String, TreeSet<String>> packageReferences() throws IOException {
    Map<String, TreeSet<String>> uses = new HashMap<>();
    try (Stream<Path> files = Files.walk(SOURCES)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        String from = packageOf(file);
        for (String to : referencedPackages(Files.readString(file))) {
          if (!to.equals(from))
            uses.computeIfAbsent(from + " " + to, k -> new TreeSet<>())
                .add(SOURCES.relativize(file).toString());
        }
      }
    }
    return uses;
  }

  private static List<String> referencedPackages(String source) {
    Matcher m = REFERENCE.matcher(NOT_CODE.matcher(source).replaceAll(" "));
    List<String> packages = new ArrayList<>();
    while (m.find()) {
      String pkg = m.group(1) == null ? ROOT : m.group(1);
      if (!packages.contains(pkg)) packages.add(pkg);
    }
    packages.remove(packageName(source));
    return packages;
  }

  private static String packageName(String source) {
    Matcher m =
        Pattern.compile("^package io\\.periscope(?:\\.([a-z0-9]+))?;", Pattern.MULTILINE)
            .matcher(source);
    return m.find() ? (m.group(1) == null ? ROOT : m.group(1)) : "";
  }

  private static String packageOf(Path file) {
    Path relative = SOURCES.relativize(file);
    return relative.getNameCount() == 1 ? ROOT : relative.getName(0).toString();
  }
}
