package io.periscope;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.periscope.config.Profiles;
import io.periscope.config.Settings;
import io.periscope.runtime.Node;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.Test;

/**
 * Every manifest under k8s/ (and the Dockerfile) against the configuration the pods run with: the
 * kubernetes profile of conf/, fed by the ConfigMap and the example Secret as its environment.
 * Labels, ports, probes, permissions, references and the variables a cluster node needs.
 */
public class KubernetesManifestsTest {
  private static final Path K8S = Path.of("k8s");
  private static final Path RULES = K8S.resolve("monitoring/prometheus-rules.yaml");
  private static final Path DASHBOARD = K8S.resolve("monitoring/grafana-dashboard.json");
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private final List<JsonNode> manifests = readAll();
  private final JsonNode deployment = only("Deployment", "periscope");
  private final JsonNode pod = deployment.at("/spec/template");
  private final JsonNode container = pod.at("/spec/containers/0");
  private final Map<String, String> env = podEnvironment();
  private final Config config =
      Profiles.load(
          Profiles.chosen(env),
          ConfigFactory.parseMap(env).withFallback(Profiles.environment(env)));

  private static List<JsonNode> readAll() {
    List<JsonNode> all = new ArrayList<>();
    try (Stream<Path> files = Files.walk(K8S)) {
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

  private JsonNode only(String kind, String name) {
    List<JsonNode> found =
        manifests.stream()
            .filter(
                m ->
                    m.path("kind").asText().equals(kind)
                        && m.at("/metadata/name").asText().equals(name))
            .toList();
    assertEquals("one " + kind + " " + name, 1, found.size());
    return found.get(0);
  }

  private static Map<String, String> strings(JsonNode object) {
    Map<String, String> values = new HashMap<>();
    object.fields().forEachRemaining(e -> values.put(e.getKey(), e.getValue().asText()));
    return values;
  }

  /**
   * What the container's environment holds: its ConfigMaps and Secrets (envFrom), then its own env
   * values.
   */
  private Map<String, String> podEnvironment() {
    Map<String, String> values = new HashMap<>();
    for (JsonNode from : container.path("envFrom")) {
      if (from.has("configMapRef")) {
        values.putAll(
            strings(only("ConfigMap", from.at("/configMapRef/name").asText()).path("data")));
      } else {
        values.putAll(
            strings(only("Secret", from.at("/secretRef/name").asText()).path("stringData")));
      }
    }
    for (JsonNode e : container.path("env"))
      values.put(e.path("name").asText(), e.path("value").asText());
    return values;
  }

  private static List<String> texts(JsonNode array) {
    List<String> texts = new ArrayList<>();
    array.forEach(v -> texts.add(v.asText()));
    return texts;
  }

  private int containerPort(String name) {
    for (JsonNode port : container.path("ports")) {
      if (port.path("name").asText().equals(name)) return port.path("containerPort").asInt();
    }
    throw new AssertionError("the container has no port named " + name);
  }

  @Test
  public void everyNamespacedObjectIsInTheNamespaceTheManifestsCreate() {
    String namespace = only("Namespace", "periscope").at("/metadata/name").asText();
    for (JsonNode m : manifests) {
      if (m.path("kind").asText().equals("Namespace")) continue;
      assertEquals(
          m.path("kind").asText() + " " + m.at("/metadata/name").asText(),
          namespace,
          m.at("/metadata/namespace").asText());
    }
  }

  @Test
  public void thePodsRunTheKubernetesProfileAndHaveEveryVariableAClusterNodeNeeds() {
    assertEquals("kubernetes", Profiles.chosen(env));
    assertTrue(
        "the pods find each other by cluster bootstrap",
        config.getBoolean("periscope.cluster.bootstrap"));
    Settings settings = Settings.from(config);
    Node.requireSharedState(config, settings); // DATABASE_URL and AUTH_JWT_SECRET are there
    assertTrue(settings.jwtSecret().length() >= 32);
    assertFalse(
        "DATABASE_PASSWORD comes from the Secret", settings.database().password().isBlank());
    assertEquals(
        "the data directory is the mounted volume",
        container.at("/volumeMounts/0/mountPath").asText(),
        settings.dataDir().toString());
    int replicas = deployment.at("/spec/replicas").asInt();
    int contactPoints =
        config.getInt(
            "pekko.management.cluster.bootstrap.contact-point-discovery.required-contact-point-nr");
    assertEquals("REQUIRED_CONTACT_POINT_NR is the replicas", replicas, contactPoints);
    String heap = env.get("JAVA_TOOL_OPTIONS");
    assertTrue(
        "the heap follows the container's memory limit", heap.contains("-XX:MaxRAMPercentage="));
    assertFalse("no fixed heap that would ignore the limit", heap.contains("-Xmx"));
    assertFalse(container.at("/resources/limits/memory").asText().isEmpty());
  }

  @Test
  public void thePodLabelsAreWhatClusterBootstrapAndTheServiceSelect() {
    Map<String, String> labels = strings(pod.at("/metadata/labels"));
    String serviceName =
        config.getString("pekko.management.cluster.bootstrap.contact-point-discovery.service-name");
    String selector =
        config
            .getString("pekko.discovery.kubernetes-api.pod-label-selector")
            .replace("%s", serviceName);
    for (String term : selector.split(",")) {
      String[] kv = term.trim().split("=", 2);
      assertEquals("the pods carry the bootstrap's label " + term, kv[1], labels.get(kv[0]));
    }
    assertTrue(
        labels
            .entrySet()
            .containsAll(strings(deployment.at("/spec/selector/matchLabels")).entrySet()));
    JsonNode service = only("Service", "periscope");
    assertTrue(
        "the Service selects the pods",
        labels.entrySet().containsAll(strings(service.at("/spec/selector")).entrySet()));
  }

  @Test
  public void portsAndProbesMatchTheConfiguration() throws IOException {
    int http = config.getInt("periscope.http.port");
    int management = config.getInt("pekko.management.http.port");
    int remoting = config.getInt("pekko.remote.artery.canonical.port");
    assertEquals(http, containerPort("http"));
    assertEquals(management, containerPort("management"));
    assertEquals(remoting, containerPort("remoting"));
    assertEquals(
        "bootstrap probes the contact points' port of this name",
        "management",
        config.getString("pekko.management.cluster.bootstrap.contact-point-discovery.port-name"));
    assertEquals("http", only("Service", "periscope").at("/spec/ports/0/targetPort").asText());

    String ready = "/" + config.getString("pekko.management.health-checks.readiness-path");
    String alive = "/" + config.getString("pekko.management.health-checks.liveness-path");
    assertEquals(ready, container.at("/readinessProbe/httpGet/path").asText());
    for (String probe : List.of("livenessProbe", "startupProbe")) {
      assertEquals(alive, container.at("/" + probe + "/httpGet/path").asText());
    }
    for (String probe : List.of("readinessProbe", "livenessProbe", "startupProbe")) {
      assertEquals(
          probe + " on the named management port",
          "management",
          container.at("/" + probe + "/httpGet/port").asText());
    }

    Set<Integer> exposed = new HashSet<>();
    for (String line : Files.readAllLines(Path.of("Dockerfile"))) {
      if (line.startsWith("EXPOSE "))
        for (String p : line.substring(7).trim().split("\\s+")) exposed.add(Integer.valueOf(p));
    }
    assertEquals("the image exposes the same ports", Set.of(http, management, remoting), exposed);
  }

  @Test
  public void updatesKeepEveryPodUntilItsReplacementIsUpAndLeaveTimeToHandOver() {
    assertEquals(0, deployment.at("/spec/strategy/rollingUpdate/maxUnavailable").asInt());
    assertEquals("RollingUpdate", deployment.at("/spec/strategy/type").asText());
    // unbind delay + 20 s of requests in flight + the hand-over of shards, with room to leave the
    // cluster
    long needed =
        config.getDuration("periscope.http.unbind-delay").toSeconds()
            + 20
            + config
                .getDuration(
                    "pekko.coordinated-shutdown.phases.cluster-sharding-shutdown-region.timeout")
                .toSeconds();
    assertTrue(pod.at("/spec/terminationGracePeriodSeconds").asLong() > needed);
  }

  @Test
  public void aDedicatedServiceAccountMayReadPodsAndNothingElse() {
    String account = pod.at("/spec/serviceAccountName").asText();
    only("ServiceAccount", account);
    JsonNode binding =
        manifests.stream()
            .filter(
                m ->
                    m.path("kind").asText().equals("RoleBinding")
                        && m.at("/subjects/0/name").asText().equals(account))
            .findFirst()
            .orElseThrow();
    assertEquals("ServiceAccount", binding.at("/subjects/0/kind").asText());
    JsonNode role = only("Role", binding.at("/roleRef/name").asText());
    assertEquals(1, role.path("rules").size());
    JsonNode rule = role.at("/rules/0");
    assertEquals(List.of(""), texts(rule.path("apiGroups")));
    assertEquals(List.of("pods"), texts(rule.path("resources")));
    assertEquals(Set.of("get", "watch", "list"), Set.copyOf(texts(rule.path("verbs"))));
  }

  @Test
  public void theTryOutDatabaseIsWhereDatabaseUrlPoints() {
    URI url = URI.create(env.get("DATABASE_URL").substring("jdbc:".length()));
    JsonNode service = only("Service", url.getHost());
    assertEquals(url.getPort(), service.at("/spec/ports/0/port").asInt());
    JsonNode postgres = only("StatefulSet", url.getHost());
    Map<String, JsonNode> postgresEnv = new HashMap<>();
    postgres
        .at("/spec/template/spec/containers/0/env")
        .forEach(e -> postgresEnv.put(e.path("name").asText(), e));
    assertEquals(url.getPath().substring(1), postgresEnv.get("POSTGRES_DB").path("value").asText());
    assertEquals(
        "DATABASE_USER",
        postgresEnv.get("POSTGRES_USER").at("/valueFrom/configMapKeyRef/key").asText());
    assertEquals(
        "DATABASE_PASSWORD",
        postgresEnv.get("POSTGRES_PASSWORD").at("/valueFrom/secretKeyRef/key").asText());
    assertTrue(
        strings(service.at("/spec/selector"))
            .entrySet()
            .containsAll(strings(postgres.at("/spec/selector/matchLabels")).entrySet()));
  }

  @Test
  public void theSecretIsAnExampleWithPlaceholdersOnly() {
    JsonNode secret = only("Secret", container.at("/envFrom/1/secretRef/name").asText());
    Map<String, String> values = strings(secret.path("stringData"));
    assertTrue(values.containsKey("AUTH_JWT_SECRET"));
    values.forEach(
        (key, value) ->
            assertTrue(
                key + " is a placeholder or empty",
                value.isEmpty() || value.startsWith("REPLACE-ME")));
  }

  @Test
  public void theIngressWaitsForTheLongestAnswerAndDoesNotBufferEventStreams() {
    JsonNode ingress = only("Ingress", "periscope");
    JsonNode annotations = ingress.at("/metadata/annotations");
    long idleSeconds = config.getDuration("pekko.http.server.idle-timeout").toSeconds();
    assertTrue(
        "the ingress read timeout covers the service's idle timeout",
        annotations.path("nginx.ingress.kubernetes.io/proxy-read-timeout").asLong() >= idleSeconds);
    assertEquals("off", annotations.path("nginx.ingress.kubernetes.io/proxy-buffering").asText());
    assertEquals(
        "periscope", ingress.at("/spec/rules/0/http/paths/0/backend/service/name").asText());
    assertEquals(
        only("Service", "periscope").at("/spec/ports/0/name").asText(),
        ingress.at("/spec/rules/0/http/paths/0/backend/service/port/name").asText());
  }

  @Test
  public void disruptionsTakeOnePodAtATimeAndLeaveAMajorityUp() {
    JsonNode budget = only("PodDisruptionBudget", "periscope");
    assertEquals(
        "the budget covers the pods",
        strings(pod.at("/metadata/labels")),
        strings(budget.at("/spec/selector/matchLabels")));
    int replicas = deployment.at("/spec/replicas").asInt();
    int unavailable = budget.at("/spec/maxUnavailable").asInt();
    assertEquals(1, unavailable);
    assertTrue("a majority stays Up", replicas - unavailable > replicas / 2);
  }

  @Test
  public void everyAlertRuleIsComplete() throws IOException {
    JsonNode rules = only("PrometheusRule", "periscope");
    String operations = Files.readString(Path.of("docs/operations.md"));
    Set<String> names = new HashSet<>();
    for (JsonNode group : rules.at("/spec/groups")) {
      for (JsonNode rule : group.path("rules")) {
        String name = rule.path("alert").asText();
        assertTrue("a named alert", name.startsWith("Periscope"));
        assertTrue(name + " once", names.add(name));
        assertFalse(name + " has an expression", rule.path("expr").asText().isBlank());
        assertTrue(
            name + " has a severity",
            Set.of("warning", "critical").contains(rule.at("/labels/severity").asText()));
        assertFalse(name, rule.at("/annotations/summary").asText().isBlank());
        assertFalse(name, rule.at("/annotations/description").asText().isBlank());
        assertTrue(name + " is explained in docs/operations.md", operations.contains(name));
      }
    }
    assertTrue(
        "the rules the issue asks for",
        names.containsAll(
            Set.of(
                "PeriscopeWatchOverdue",
                "PeriscopeRunsFailing",
                "PeriscopeKeyPoolExhausted",
                "PeriscopeJournalWriteFailures",
                "PeriscopeNodeUnreachable",
                "PeriscopeHttpErrors")));
  }

  @Test
  public void theDashboardAsksItsPrometheusForEveryPanel() throws IOException {
    JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
    assertEquals("periscope", dashboard.path("uid").asText());
    int queries = 0;
    for (JsonNode panel : dashboard.path("panels")) {
      if (panel.path("type").asText().equals("row")) continue;
      assertEquals(
          panel.path("title").asText(), "${datasource}", panel.at("/datasource/uid").asText());
      for (JsonNode target : panel.path("targets")) {
        assertFalse(panel.path("title").asText(), target.path("expr").asText().isBlank());
        queries++;
      }
    }
    assertTrue(queries > 20);
  }

  /**
   * The metric names the alert rules and the dashboard read: {@code DomainMetricsTest} checks that
   * each one is in a real scrape after runs.
   */
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
    Set<String> names = new java.util.TreeSet<>();
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("\\b((?:periscope|http_server|jvm|process)_[a-z0-9_]+)")
            .matcher(expressions);
    while (m.find()) names.add(m.group(1));
    return names;
  }
}
