package io.periscope.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The monitoring the Kubernetes manifests ship: Prometheus's alert rules and a Grafana dashboard.
 */
public final class MonitoringManifests {
  private MonitoringManifests() {}

  public static final Path RULES = Path.of("k8s/monitoring/prometheus-rules.yaml");
  public static final Path DASHBOARD = Path.of("k8s/monitoring/grafana-dashboard.json");

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

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
