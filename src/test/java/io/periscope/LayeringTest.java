package io.periscope;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.Test;

/**
 * No package of src/main/java imports one that sits above it in the layering written in
 * docs/architecture.md, and every package sits in a layer.
 */
public class LayeringTest {
  private static final Path SOURCES = Path.of("src/main/java/io/periscope");
  private static final String ROOT = "(root)";

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
    String doc = Files.readString(Path.of("docs/architecture.md"));
    Matcher block = Pattern.compile("```layers\\n([\\s\\S]*?)```").matcher(doc);
    assertTrue("docs/architecture.md has a ```layers block", block.find());
    Map<String, Integer> layerOf = new HashMap<>();
    int layer = 0;
    for (String line : block.group(1).split("\\n")) {
      if (line.isBlank()) continue;
      for (String pkg : line.substring(line.indexOf(':') + 1).trim().split("\\s+"))
        assertEquals("package " + pkg + " in two layers", null, layerOf.put(pkg, layer));
      layer++;
    }
    return layerOf;
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
