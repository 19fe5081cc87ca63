package io.periscope.testing;

import static org.junit.Assert.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The Kubernetes manifests of k8s/: as {@code kubectl kustomize} renders a Kustomization, as plain
 * files, and the monitoring they ship (Prometheus's alert rules and a Grafana dashboard).
 */
public final class KubernetesManifests {
  private KubernetesManifests() {}

  public static final Path RULES = Path.of("k8s/monitoring/prometheus-rules.yaml");
  public static final Path DASHBOARD = Path.of("k8s/monitoring/grafana-dashboard.json");

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private static final Map<Path, List<JsonNode>> RENDERED = new ConcurrentHashMap<>();

  /**
   * What {@code kubectl kustomize} makes of the Kustomization in {@code dir}: rendered once per
   * test JVM (the tests would otherwise render it again and again), so shared: copy before
   * changing.
   */
  public static List<JsonNode> rendered(Path dir) {
    return RENDERED.computeIfAbsent(dir, KubernetesManifests::render);
  }

  private static List<JsonNode> render(Path dir) {
    try {
      Process kubectl =
          new ProcessBuilder("kubectl", "kustomize", dir.toString())
              .redirectError(ProcessBuilder.Redirect.INHERIT)
              .start();
      byte[] out = kubectl.getInputStream().readAllBytes();
      assertEquals("kubectl kustomize " + dir + " builds", 0, kubectl.waitFor());
      List<JsonNode> all = new ArrayList<>();
      for (JsonNode doc : YAML.readValues(YAML.createParser(out), JsonNode.class).readAll())
        if (doc != null && !doc.isEmpty()) all.add(doc);
      return List.copyOf(all);
    } catch (IOException e) {
      throw new AssertionError("cannot run kubectl kustomize: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** Every object of the YAML files under {@code dir}, the files in the order of their paths. */
  public static List<JsonNode> readAll(Path dir) {
    List<JsonNode> all = new ArrayList<>();
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
        for (JsonNode doc :
            YAML.readValues(YAML.createParser(file.toFile()), JsonNode.class).readAll()) {
          if (doc != null && !doc.isEmpty()) all.add(doc);
        }
      }
    } catch (IOException e) {
      throw new AssertionError("cannot read the manifests: " + e.getMessage(), e);
    }
    return all;
  }

  /** The metric names the alert rules and the dashboard's panels read. */
  public static Set<String> metricsRead() throws IOException {
    StringBuilder expressions = new StringBuilder();
    for (JsonNode doc :
        YAML.readValues(YAML.createParser(RULES.toFile()), JsonNode.class).readAll()) {
      for (JsonNode group : doc.at("/spec/groups"))
        for (JsonNode rule : group.path("rules"))
          expressions.append(rule.path("expr").asText()).append('\n');
    }
    for (JsonNode panel : new ObjectMapper().readTree(DASHBOARD.toFile()).path("panels"))
      for (JsonNode target : panel.path("targets"))
        expressions.append(target.path("expr").asText()).append('\n');
    Set<String> names = new TreeSet<>();
    Matcher m =
        Pattern.compile("\\b((?:periscope|http_server|jvm|process)_[a-z0-9_]+)")
            .matcher(expressions);
    while (m.find()) names.add(m.group(1));
    return names;
  }
}
