package io.periscope;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.testing.KubernetesManifests;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.junit.Test;

/**
 * Every object of k8s/ as an operator applies it, against the Kubernetes schemas: each overlay and
 * the monitoring kit as {@code kubectl kustomize} renders them, and the examples. The schemas are
 * the kubernetes-models packages that src/test/k8s-schemas/package-lock.json pins (the API's kinds,
 * the Prometheus Operator's and cert-manager's), which scripts/test.sh installs beside it; the
 * script there checks types, enums, required fields, and fields the schema does not have, which
 * {@code kubectl apply} refuses.
 */
public class KubernetesSchemasTest {
  private static final Path K8S = Path.of("k8s");
  private static final Path SCHEMAS = Path.of("src", "test", "k8s-schemas");
  private static final ObjectMapper JSON = new ObjectMapper();

  /** What the schemas found wrong: {@code object} is "Kind name", {@code path} a JSON pointer. */
  record Problem(String object, String path, String problem) {
    @Override
    public String toString() {
      return object + " " + path + ": " + problem;
    }
  }

  /** The problems of {@code objects}, as src/test/k8s-schemas/validate.mjs finds them. */
  static List<Problem> problems(List<JsonNode> objects) throws IOException, InterruptedException {
    assertTrue(
        "the schemas are not installed: scripts/test.sh --check installs them (or npm ci --prefix "
            + SCHEMAS
            + ")",
        Files.isDirectory(SCHEMAS.resolve("node_modules/kubernetes-models")));
    Process node =
        new ProcessBuilder("node", SCHEMAS.resolve("validate.mjs").toString())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    try (OutputStream in = node.getOutputStream()) {
      JSON.writeValue(in, objects);
    }
    byte[] out = node.getInputStream().readAllBytes();
    assertEquals("validate.mjs ends", 0, node.waitFor());
    List<Problem> problems = new ArrayList<>();
    for (JsonNode p : JSON.readTree(out))
      problems.add(
          new Problem(
              p.path("object").asText(), p.path("path").asText(), p.path("problem").asText()));
    return problems;
  }

  @Test
  public void everyObjectOfTheManifestsMatchesItsSchema() throws Exception {
    List<JsonNode> objects = new ArrayList<>();
    for (String dir : List.of("overlays/single", "overlays/cluster", "monitoring"))
      objects.addAll(KubernetesManifests.rendered(K8S.resolve(dir)));
    objects.addAll(KubernetesManifests.readAll(K8S.resolve("example")));
    Set<String> kinds = new TreeSet<>();
    objects.forEach(o -> kinds.add(o.path("kind").asText()));
    assertTrue(
        "the workloads, the Prometheus Operator's and cert-manager's kinds are there: " + kinds,
        kinds.containsAll(
            Set.of(
                "Deployment",
                "StatefulSet",
                "CronJob",
                "NetworkPolicy",
                "PodDisruptionBudget",
                "ServiceMonitor",
                "PrometheusRule",
                "Certificate",
                "Issuer")));
    List<Problem> problems = problems(objects);
    assertEquals(
        problems.stream().map(Problem::toString).collect(Collectors.joining("\n")),
        0,
        problems.size());
  }

  /**
   * Copies of rendered objects, each broken in one way and named after it, against an intact copy:
   * each breakage is found where it is, and nothing else is.
   */
  @Test
  public void objectsBrokenInOneWayFailTheirSchemaThere() throws Exception {
    List<JsonNode> cluster = KubernetesManifests.rendered(K8S.resolve("overlays/cluster"));
    List<JsonNode> monitoring = KubernetesManifests.rendered(K8S.resolve("monitoring"));
    JsonNode deployment = only(cluster, "Deployment");
    String container = "/spec/template/spec/containers/0";
    List<JsonNode> broken =
        List.of(
            copy(deployment, "intact", o -> {}),
            copy(
                deployment,
                "unknown-field",
                o -> ((ObjectNode) o.at(container)).put("imagePullPolcy", "Always")),
            copy(deployment, "wrong-type", o -> ((ObjectNode) o.at("/spec")).put("replicas", "3")),
            copy(deployment, "missing-field", o -> ((ObjectNode) o.at("/spec")).remove("selector")),
            copy(
                deployment,
                "not-in-enum",
                o ->
                    ((ObjectNode) o.at("/spec/template/spec/topologySpreadConstraints/0"))
                        .put("whenUnsatisfiable", "Sometimes")),
            copy(deployment, "unknown-kind", o -> ((ObjectNode) o).put("kind", "Deploymant")),
            copy(
                only(monitoring, "ServiceMonitor"),
                "monitor-unknown-field",
                o -> ((ObjectNode) o.at("/spec/endpoints/0")).put("intervall", "30s")),
            copy(
                only(monitoring, "PrometheusRule"),
                "rule-wrong-type",
                o -> ((ObjectNode) o.at("/spec/groups/0/rules/0")).put("for", 5)));
    assertEquals(
        Set.of(
            new Problem(
                "Deployment unknown-field",
                container + "/imagePullPolcy",
                "is not a field of the schema"),
            new Problem("Deployment wrong-type", "/spec/replicas", "must be integer"),
            new Problem(
                "Deployment missing-field", "/spec", "must have required property selector"),
            new Problem(
                "Deployment not-in-enum",
                "/spec/template/spec/topologySpreadConstraints/0/whenUnsatisfiable",
                "must be equal to one of the allowed values: DoNotSchedule, ScheduleAnyway"),
            new Problem(
                "Deploymant unknown-kind", "", "no schema for apiVersion apps/v1, kind Deploymant"),
            new Problem(
                "ServiceMonitor monitor-unknown-field",
                "/spec/endpoints/0/intervall",
                "is not a field of the schema"),
            new Problem(
                "PrometheusRule rule-wrong-type", "/spec/groups/0/rules/0/for", "must be string")),
        Set.copyOf(problems(broken)));
  }

  private static JsonNode only(List<JsonNode> objects, String kind) {
    List<JsonNode> found =
        objects.stream().filter(o -> o.path("kind").asText().equals(kind)).toList();
    assertEquals("one " + kind, 1, found.size());
    return found.get(0);
  }

  /** A copy of {@code object} named {@code name}, changed by {@code change}. */
  private static JsonNode copy(JsonNode object, String name, Consumer<JsonNode> change) {
    JsonNode copy = object.deepCopy();
    ((ObjectNode) copy.path("metadata")).put("name", name);
    change.accept(copy);
    return copy;
  }
}
