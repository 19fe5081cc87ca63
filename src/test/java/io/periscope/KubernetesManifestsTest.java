package io.periscope;

import static io.periscope.testing.KubernetesManifests.readAll;
import static io.periscope.testing.KubernetesManifests.rendered;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;
import static org.junit.Assume.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.periscope.config.Profiles;
import io.periscope.config.SecretFiles;
import io.periscope.config.Settings;
import io.periscope.http.ClientAddresses;
import io.periscope.runtime.Node;
import io.periscope.testing.KubernetesManifests;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.pekko.remote.artery.tcp.ssl.RotatingKeysSSLEngineProvider;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/**
 * Each Kustomize overlay of k8s/ as {@code kubectl kustomize} renders it, with the examples of
 * k8s/example/ an operator applies beside it, against the configuration the pods run with (and the
 * Dockerfile): the profile of conf/ the overlay chooses, fed by the ConfigMap, the pod's own
 * variables and the files of the mounted Secret. Labels, ports, probes, permissions, references,
 * the variables a cluster node needs, and what keeps the cluster closed: the "restricted" Pod
 * Security profile, the NetworkPolicy, remoting over mutual TLS, secrets as files, the Ingress's
 * TLS.
 */
@RunWith(Parameterized.class)
public class KubernetesManifestsTest {
  private static final Path K8S = Path.of("k8s");
  private static final String CLUSTER = "cluster";
  private static final Path RULES = KubernetesManifests.RULES;
  private static final Path DASHBOARD = KubernetesManifests.DASHBOARD;
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  /** What the downward API's status.podIP stands for here. */
  private static final String POD_IP = "10.244.1.7";

  /** The kinds whose spec.template is a pod. */
  private static final Set<String> WORKLOADS =
      Set.of("Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job");

  /** The kind whose spec.jobTemplate.spec.template is a pod. */
  private static final String CRON_JOB = "CronJob";

  @Parameters(name = "{0}")
  public static List<String> overlays() {
    return List.of("single", CLUSTER);
  }

  private final String overlay;
  private final List<JsonNode> manifests;
  private final JsonNode deployment;
  private final JsonNode pod;
  private final JsonNode container;
  private final JsonNode secret;
  private final Map<String, String> operatorSecrets;
  private final Map<String, String> env;
  private final Config config;

  public KubernetesManifestsTest(String overlay) {
    this.overlay = overlay;
    manifests = new ArrayList<>(rendered(K8S.resolve("overlays").resolve(overlay)));
    manifests.addAll(readAll(K8S.resolve("example")));
    manifests.addAll(rendered(K8S.resolve("monitoring")));
    deployment = only("Deployment", "periscope");
    pod = deployment.at("/spec/template");
    container = pod.at("/spec/containers/0");
    // The Secret the pods read, as example/secret.yaml ships it: every value empty.
    secret = only("Secret", "periscope-secrets");
    // The same Secret as an operator fills it: each empty value made up, as openssl rand would.
    operatorSecrets = filledIn(strings(secret.path("stringData")));
    env = podEnvironment(operatorSecrets);
    config = load(env);
  }

  private boolean cluster() {
    return overlay.equals(CLUSTER);
  }

  private static Config load(Map<String, String> env) {
    return Profiles.load(
        Profiles.chosen(env), ConfigFactory.parseMap(env).withFallback(Profiles.environment(env)));
  }

  private static Map<String, String> filledIn(Map<String, String> shipped) {
    Map<String, String> filled = new HashMap<>();
    java.security.SecureRandom random = new java.security.SecureRandom();
    shipped.forEach(
        (key, value) -> {
          byte[] bytes = new byte[48];
          random.nextBytes(bytes);
          filled.put(key, value.isEmpty() ? Base64.getEncoder().encodeToString(bytes) : value);
        });
    return filled;
  }

  private List<JsonNode> all(String kind) {
    return manifests.stream().filter(m -> m.path("kind").asText().equals(kind)).toList();
  }

  private JsonNode only(String kind, String name) {
    List<JsonNode> found =
        all(kind).stream().filter(m -> m.at("/metadata/name").asText().equals(name)).toList();
    assertEquals("one " + kind + " " + name, 1, found.size());
    return found.get(0);
  }

  private static Map<String, String> strings(JsonNode object) {
    Map<String, String> values = new HashMap<>();
    object.fields().forEachRemaining(e -> values.put(e.getKey(), e.getValue().asText()));
    return values;
  }

  /**
   * What the container's environment holds once {@code serve} has read its {@code *_FILE} secrets:
   * its ConfigMaps, then its own variables, each {@code X_FILE} becoming {@code X} with the value
   * the mounted Secret's file holds ({@code secrets}, by key), status.podIP becoming {@link
   * #POD_IP}.
   */
  private Map<String, String> podEnvironment(Map<String, String> secrets) {
    Map<String, String> values = new HashMap<>();
    for (JsonNode from : container.path("envFrom")) {
      values.putAll(
          strings(only("ConfigMap", from.at("/configMapRef/name").asText()).path("data")));
    }
    for (JsonNode e : container.path("env")) {
      String name = e.path("name").asText();
      if (e.at("/valueFrom/fieldRef/fieldPath").asText().equals("status.podIP")) {
        values.put(name, POD_IP);
      } else if (name.endsWith("_FILE")) {
        SecretKey file = mountedSecretKey(pod, container, e.path("value").asText());
        assertEquals(name, secret.at("/metadata/name").asText(), file.secret());
        values.put(name.substring(0, name.length() - "_FILE".length()), secrets.get(file.key()));
      } else {
        values.put(name, e.path("value").asText());
      }
    }
    return values;
  }

  /** A key of a Secret, as a file of a secret volume. */
  private record SecretKey(String secret, String key) {}

  /** The Secret and key whose file {@code path} is in {@code container} of the pod {@code pod}. */
  private static SecretKey mountedSecretKey(JsonNode pod, JsonNode container, String path) {
    for (JsonNode mount : container.path("volumeMounts")) {
      String dir = mount.path("mountPath").asText() + "/";
      if (!path.startsWith(dir)) continue;
      JsonNode volume = volume(pod, mount.path("name").asText());
      assertTrue(path + " is in a secret volume", volume.has("secret"));
      assertTrue(path + " is mounted read-only", mount.path("readOnly").asBoolean());
      String file = path.substring(dir.length());
      String key = file;
      for (JsonNode item : volume.at("/secret/items")) {
        if (item.path("path").asText().equals(file)) key = item.path("key").asText();
      }
      return new SecretKey(volume.at("/secret/secretName").asText(), key);
    }
    throw new AssertionError(path + " is in no volume of " + container.path("name").asText());
  }

  private static JsonNode volume(JsonNode pod, String name) {
    for (JsonNode volume : pod.at("/spec/volumes")) {
      if (volume.path("name").asText().equals(name)) return volume;
    }
    throw new AssertionError("no volume " + name);
  }

  /** The mount of {@code container} at exactly {@code path}. */
  private static JsonNode mountAt(JsonNode container, String path) {
    for (JsonNode mount : container.path("volumeMounts")) {
      if (mount.path("mountPath").asText().equals(path)) return mount;
    }
    throw new AssertionError("nothing is mounted at " + path);
  }

  /** Every pod template of the workloads, with where it comes from. */
  private Map<String, JsonNode> podTemplates() {
    Map<String, JsonNode> pods = new TreeMap<>();
    for (JsonNode m : manifests) {
      String kind = m.path("kind").asText();
      if (WORKLOADS.contains(kind) || kind.equals(CRON_JOB)) {
        pods.put(
            kind + " " + m.at("/metadata/name").asText(),
            m.at(kind.equals(CRON_JOB) ? "/spec/jobTemplate/spec/template" : "/spec/template"));
      }
    }
    return pods;
  }

  private static List<JsonNode> containers(JsonNode podSpec) {
    List<JsonNode> all = new ArrayList<>();
    for (String kind : List.of("initContainers", "containers", "ephemeralContainers"))
      podSpec.path(kind).forEach(all::add);
    return all;
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

  /** A port of a NetworkPolicy rule by the name of a port of {@code container}. */
  private static String portName(JsonNode port, JsonNode container) {
    JsonNode value = port.path("port");
    if (!value.isNumber()) return value.asText();
    for (JsonNode p : container.path("ports")) {
      if (p.path("containerPort").asInt() == value.asInt()) return p.path("name").asText();
    }
    throw new AssertionError("port " + value + " is no port of the container");
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
    assertEquals(cluster() ? "kubernetes" : "kubernetes-single", Profiles.chosen(env));
    assertEquals(
        "the pods find each other by cluster bootstrap",
        cluster(),
        config.getBoolean("periscope.cluster.bootstrap"));
    Settings settings = Settings.from(config); // PUBLIC_URL and METRICS_TOKEN are there
    Node.requireSharedState(config, settings); // DATABASE_URL, AUTH_JWT_SECRET, ENCRYPTION_KEY too
    assertEquals(operatorSecrets.get("AUTH_JWT_SECRET"), settings.jwtSecret());
    assertEquals(operatorSecrets.get("METRICS_TOKEN"), config.getString("periscope.metrics.token"));
    assertEquals("LOG_FORMAT", "json", config.getString("periscope.log-format"));
    String heap = env.get("JAVA_TOOL_OPTIONS");
    assertTrue(
        "the heap follows the container's memory limit", heap.contains("-XX:MaxRAMPercentage="));
    assertFalse("no fixed heap that would ignore the limit", heap.contains("-Xmx"));
    assertFalse(container.at("/resources/limits/memory").asText().isEmpty());
    int replicas = deployment.at("/spec/replicas").asInt();
    if (!cluster()) {
      assertEquals("one node on the embedded journal", 1, replicas);
      assertFalse(settings.database().configured());
      return;
    }
    assertEquals(operatorSecrets.get("DATABASE_PASSWORD"), settings.database().password());
    int contactPoints =
        config.getInt(
            "pekko.management.cluster.bootstrap.contact-point-discovery.required-contact-point-nr");
    assertEquals("REQUIRED_CONTACT_POINT_NR is the replicas", replicas, contactPoints);
  }

  /**
   * On a read-only root file system the service writes DATA_DIR and the JVM /tmp, each on a volume:
   * an emptyDir for the cluster's nodes (their journal is PostgreSQL), a claimed persistent one for
   * the single node (its journal is a file in DATA_DIR). DATA_DIR is a folder inside its volume,
   * which the service creates and so owns: it keeps it 0700, which it could not do to the volume's
   * root, owned by root.
   */
  @Test
  public void theServiceWritesOnlyToItsVolumes() {
    Path dataDir = Settings.from(config).dataDir();
    JsonNode data = null;
    for (JsonNode mount : container.path("volumeMounts")) {
      Path mounted = Path.of(mount.path("mountPath").asText());
      if (dataDir.startsWith(mounted)) data = mount;
    }
    assertTrue("DATA_DIR is on a volume", data != null);
    assertTrue(
        "DATA_DIR is a folder inside the volume",
        dataDir.getNameCount() > Path.of(data.path("mountPath").asText()).getNameCount());
    JsonNode dataVolume = volume(pod, data.path("name").asText());
    if (cluster()) {
      assertTrue(dataVolume.has("emptyDir"));
    } else {
      only("PersistentVolumeClaim", dataVolume.at("/persistentVolumeClaim/claimName").asText());
      assertFalse(dataVolume.has("emptyDir"));
      assertTrue(
          "the journal is in DATA_DIR",
          config
              .getString("pekko-persistence-jdbc.shared-databases.periscope.db.url")
              .contains(dataDir.toAbsolutePath() + "/journal"));
      assertEquals(
          "one process holds the journal: no second pod during an update",
          "Recreate",
          deployment.at("/spec/strategy/type").asText());
    }
    JsonNode tmp = mountAt(container, "/tmp");
    assertTrue(volume(pod, tmp.path("name").asText()).has("emptyDir"));
    assertTrue(container.at("/securityContext/readOnlyRootFilesystem").asBoolean());
  }

  /**
   * example/secret.yaml holds no value the service would start with: applied as it is, a node
   * refuses to start, whichever of the secrets it needs is missing.
   */
  @Test
  public void theExampleSecretHoldsNothingAServiceStartsWith() {
    strings(secret.path("stringData"))
        .forEach((key, value) -> assertEquals(key + " ships empty", "", value));
    // the single node makes its own AUTH_JWT_SECRET and ENCRYPTION_KEY in DATA_DIR when they are
    // empty
    List<String> required =
        cluster()
            ? List.of("METRICS_TOKEN", "AUTH_JWT_SECRET", "ENCRYPTION_KEY")
            : List.of("METRICS_TOKEN");
    for (String needed : required) {
      Map<String, String> secrets = new HashMap<>(operatorSecrets);
      secrets.put(needed, "");
      Config shipped = load(podEnvironment(secrets));
      RuntimeException refused =
          assertThrows(
              needed + " missing stops the start",
              RuntimeException.class,
              () -> Node.requireSharedState(shipped, Settings.from(shipped)));
      assertTrue(refused.getMessage(), refused.getMessage().contains(needed));
    }
    assertThrows(
        "the Secret as shipped",
        RuntimeException.class,
        () -> {
          Config shipped = load(podEnvironment(strings(secret.path("stringData"))));
          Node.requireSharedState(shipped, Settings.from(shipped));
        });
  }

  /**
   * No secret reaches a container as an environment variable (a variable shows in {@code kubectl
   * describe}, in crash reports and to every process the container starts): each is a file of a
   * Secret mounted read-only, named by a {@code *_FILE} variable, and that file is there because
   * its key is in the Secret.
   */
  @Test
  public void secretsAreMountedFilesNeverEnvironmentVariables() {
    Pattern secretName = Pattern.compile(".*(PASSWORD|SECRET|TOKEN|_KEY|_KEYS)$");
    podTemplates()
        .forEach(
            (name, template) -> {
              for (JsonNode c : containers(template.path("spec"))) {
                String where = name + "/" + c.path("name").asText();
                for (JsonNode from : c.path("envFrom"))
                  assertFalse(where + " takes no Secret as variables", from.has("secretRef"));
                for (JsonNode e : c.path("env")) {
                  String variable = e.path("name").asText();
                  assertFalse(
                      where + " " + variable + " is no Secret's key",
                      e.at("/valueFrom/secretKeyRef").isObject());
                  assertFalse(
                      where + " " + variable + " is a file, not a value",
                      SecretFiles.isSecret(variable) || secretName.matcher(variable).matches());
                  if (!variable.endsWith("_FILE")) continue;
                  SecretKey file = mountedSecretKey(template, c, e.path("value").asText());
                  assertTrue(
                      where + " " + variable + ": the Secret has the key " + file.key(),
                      strings(only("Secret", file.secret()).path("stringData"))
                          .containsKey(file.key()));
                }
              }
            });
    for (JsonNode e : container.path("env")) {
      String variable = e.path("name").asText();
      if (variable.endsWith("_FILE"))
        assertTrue(
            variable + " is one the service reads from a file",
            SecretFiles.isSecret(variable.substring(0, variable.length() - "_FILE".length())));
    }
  }

  /**
   * Every pod passes the "restricted" Pod Security Standard (which namespace.yaml enforces), rule
   * by rule, and runs on a read-only root file system; the Deployment's user is the image's.
   */
  @Test
  public void everyPodMeetsTheRestrictedPodSecurityProfile() throws IOException {
    JsonNode namespace = only("Namespace", "periscope");
    assertEquals(
        "restricted",
        namespace.at("/metadata/labels").path("pod-security.kubernetes.io/enforce").asText());
    Set<String> volumeTypes =
        Set.of(
            "configMap",
            "csi",
            "downwardAPI",
            "emptyDir",
            "ephemeral",
            "persistentVolumeClaim",
            "projected",
            "secret");
    Map<String, JsonNode> pods = podTemplates();
    assertEquals(
        cluster()
            ? Set.of(
                "Deployment periscope",
                "StatefulSet periscope-postgres",
                "CronJob periscope-backup")
            : Set.of("Deployment periscope"),
        pods.keySet());
    pods.forEach(
        (name, template) -> {
          JsonNode spec = template.path("spec");
          for (String host : List.of("hostNetwork", "hostPID", "hostIPC"))
            assertFalse(name + " " + host, spec.path(host).asBoolean(false));
          for (JsonNode volume : spec.path("volumes")) {
            Set<String> types = new HashSet<>();
            volume.fieldNames().forEachRemaining(types::add);
            types.remove("name");
            assertTrue(name + " volume types " + types, volumeTypes.containsAll(types));
          }
          JsonNode podContext = spec.path("securityContext");
          assertTrue(name + " sets no sysctls", podContext.path("sysctls").isEmpty());
          for (JsonNode c : containers(spec)) {
            String where = name + "/" + c.path("name").asText();
            JsonNode context = c.path("securityContext");
            assertFalse(where + " privileged", context.path("privileged").asBoolean(false));
            assertTrue(
                where + " allowPrivilegeEscalation: false",
                context.path("allowPrivilegeEscalation").isBoolean()
                    && !context.path("allowPrivilegeEscalation").asBoolean());
            assertTrue(
                where + " drops ALL capabilities",
                texts(context.at("/capabilities/drop")).contains("ALL"));
            assertTrue(
                where + " adds no capability but NET_BIND_SERVICE",
                Set.of("NET_BIND_SERVICE").containsAll(texts(context.at("/capabilities/add"))));
            assertTrue(
                where + " runAsNonRoot",
                context
                    .path("runAsNonRoot")
                    .asBoolean(podContext.path("runAsNonRoot").asBoolean(false)));
            for (JsonNode user : List.of(context.path("runAsUser"), podContext.path("runAsUser")))
              assertTrue(where + " runAsUser is not 0", user.isMissingNode() || user.asLong() != 0);
            assertTrue(
                where + " seccomp RuntimeDefault or Localhost",
                Set.of("RuntimeDefault", "Localhost")
                    .contains(
                        context
                            .at("/seccompProfile/type")
                            .asText(podContext.at("/seccompProfile/type").asText())));
            for (JsonNode appArmor :
                List.of(
                    context.at("/appArmorProfile/type"), podContext.at("/appArmorProfile/type")))
              assertTrue(
                  where + " AppArmor",
                  appArmor.isMissingNode()
                      || Set.of("RuntimeDefault", "Localhost").contains(appArmor.asText()));
            for (JsonNode seLinux :
                List.of(context.path("seLinuxOptions"), podContext.path("seLinuxOptions"))) {
              assertTrue(
                  where + " SELinux user and role unset",
                  seLinux.path("user").isMissingNode() && seLinux.path("role").isMissingNode());
              assertTrue(
                  where + " SELinux type",
                  Set.of(
                          "",
                          "container_t",
                          "container_init_t",
                          "container_kvm_t",
                          "container_engine_t")
                      .contains(seLinux.path("type").asText()));
            }
            assertTrue(
                where + " procMount Default",
                Set.of("", "Default").contains(context.path("procMount").asText()));
            for (JsonNode port : c.path("ports"))
              assertTrue(where + " no hostPort", port.path("hostPort").asInt(0) == 0);
            assertTrue(
                where + " readOnlyRootFilesystem",
                context.path("readOnlyRootFilesystem").asBoolean(false));
          }
        });

    String user = null;
    for (String line : Files.readAllLines(Path.of("Dockerfile")))
      if (line.startsWith("USER ")) user = line.substring(5).trim();
    JsonNode podContext = pod.at("/spec/securityContext");
    assertEquals(
        "the Deployment runs the image's user and group",
        user,
        podContext.path("runAsUser").asText() + ":" + podContext.path("runAsGroup").asText());
  }

  @Test
  public void thePodLabelsAreWhatClusterBootstrapAndTheServiceSelect() {
    Map<String, String> labels = strings(pod.at("/metadata/labels"));
    JsonNode service = only("Service", "periscope");
    assertTrue(
        "the Service selects the pods",
        labels.entrySet().containsAll(strings(service.at("/spec/selector")).entrySet()));
    assumeTrue("the single node finds no one", cluster());
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
  }

  @Test
  public void portsAndProbesMatchTheConfiguration() throws IOException {
    int http = config.getInt("periscope.http.port");
    int management = config.getInt("pekko.management.http.port");
    int remoting = config.getInt("pekko.remote.artery.canonical.port");
    assertEquals(http, containerPort("http"));
    assertEquals(management, containerPort("management"));
    assertEquals(remoting, containerPort("remoting"));
    if (cluster())
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
    assumeTrue("the single node is stopped before its replacement starts", cluster());
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
    if (!cluster()) {
      assertFalse(
          "the single node never talks to the Kubernetes API",
          pod.at("/spec/automountServiceAccountToken").asBoolean(true));
      assertTrue(all("Role").isEmpty());
      return;
    }
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
    assumeTrue("the single node's journal is a file", cluster());
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
    JsonNode postgresPod = postgres.at("/spec/template");
    assertEquals(
        new SecretKey("periscope-secrets", "DATABASE_PASSWORD"),
        mountedSecretKey(
            postgresPod,
            postgresPod.at("/spec/containers/0"),
            postgresEnv.get("POSTGRES_PASSWORD_FILE").path("value").asText()));
    assertTrue(
        strings(service.at("/spec/selector"))
            .entrySet()
            .containsAll(strings(postgres.at("/spec/selector/matchLabels")).entrySet()));
  }

  /**
   * The nightly backup dumps the database the nodes use, as the user they use, with the password of
   * their Secret, onto a volume of its own, one dump at a time, with a pg_dump no older than the
   * try-out server. BackupRestoreTest runs its command and restores what it writes.
   */
  @Test
  public void theNightlyBackupDumpsTheNodesDatabaseToItsOwnVolume() {
    assumeTrue("the single node's journal is a file", cluster());
    JsonNode cronJob = only(CRON_JOB, "periscope-backup");
    assertEquals(5, cronJob.at("/spec/schedule").asText().split(" ").length);
    assertEquals("Forbid", cronJob.at("/spec/concurrencyPolicy").asText());
    JsonNode backupPod = cronJob.at("/spec/jobTemplate/spec/template");
    assertEquals("Never", backupPod.at("/spec/restartPolicy").asText());
    JsonNode dump = backupPod.at("/spec/containers/0");
    String script = texts(dump.path("command")).get(2);
    assertTrue(script, script.contains("pg_dump --format=custom"));

    Map<String, JsonNode> dumpEnv = new HashMap<>();
    dump.path("env").forEach(e -> dumpEnv.put(e.path("name").asText(), e));
    for (String[] same :
        List.of(
            new String[] {"JOURNAL_DATABASE", "DATABASE_URL"},
            new String[] {"PGUSER", "DATABASE_USER"})) {
      assertEquals(
          same[0] + " is the nodes' " + same[1],
          same[1],
          dumpEnv.get(same[0]).at("/valueFrom/configMapKeyRef/key").asText());
    }
    assertEquals(
        "the ConfigMap the nodes read their settings from",
        container.at("/envFrom/0/configMapRef/name").asText(),
        dumpEnv.get("JOURNAL_DATABASE").at("/valueFrom/configMapKeyRef/name").asText());
    assertEquals(
        new SecretKey("periscope-secrets", "DATABASE_PASSWORD"),
        mountedSecretKey(backupPod, dump, dumpEnv.get("PASSWORD_FILE").path("value").asText()));
    JsonNode volume =
        volume(
            backupPod,
            mountAt(dump, dumpEnv.get("BACKUP_DIR").path("value").asText()).path("name").asText());
    only("PersistentVolumeClaim", volume.at("/persistentVolumeClaim/claimName").asText());
    assertTrue(dumpEnv.get("BACKUP_KEEP").path("value").asInt() > 0);
    assertEquals(
        "pg_dump of the try-out server's version",
        only("StatefulSet", "periscope-postgres").at("/spec/template/spec/containers/0/image"),
        dump.path("image"));
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

  /**
   * Browsers reach the service over TLS at the address it calls its own, so the sign-in cookie is
   * Secure and mails link to https; the ingress controller is trusted for the client's address.
   */
  @Test
  public void theIngressServesTlsAtPublicUrlAndIsTheTrustedProxy() {
    JsonNode ingress = only("Ingress", "periscope");
    String host = ingress.at("/spec/rules/0/host").asText();
    assertFalse(ingress.at("/spec/tls/0/secretName").asText().isBlank());
    assertEquals(List.of(host), texts(ingress.at("/spec/tls/0/hosts")));
    Settings settings = Settings.from(config);
    assertEquals("https://" + host, settings.publicUrl());
    assertFalse("TRUSTED_PROXIES is set", settings.trustedProxies().isEmpty());
    ClientAddresses.trusting(
        settings.trustedProxies(),
        settings.trustedProxyHeader()); // each one an address or CIDR block
  }

  /**
   * Only the Periscope pods reach remoting and management, only the ingress controller reaches
   * HTTP, only Prometheus reaches the metrics (on the management port): each port of the pods, the
   * peers a NetworkPolicy lets in. A peer is always a namespace's and labels' pods, never "any".
   */
  @Test
  public void onlyPeriscopePodsReachTheClusterPortsTheIngressHttpAndPrometheusMetrics() {
    Map<String, String> podLabels = strings(pod.at("/metadata/labels"));
    List<JsonNode> policies =
        all("NetworkPolicy").stream()
            .filter(
                p ->
                    podLabels
                        .entrySet()
                        .containsAll(strings(p.at("/spec/podSelector/matchLabels")).entrySet()))
            .toList();
    assertEquals("one NetworkPolicy selects the pods", 1, policies.size());
    Map<String, Set<String>> peers = peersByPort(policies.get(0), container);
    String periscope = "this namespace, pods " + podLabels;
    assertEquals(Set.of("remoting", "management", "http"), peers.keySet());
    assertEquals(Set.of(periscope), peers.get("remoting"));
    assertEquals(1, peers.get("http").size());
    String ingressController = peers.get("http").iterator().next();
    assertTrue(ingressController, ingressController.contains("ingress-nginx"));
    Set<String> management = new HashSet<>(peers.get("management"));
    assertTrue(management.remove(periscope));
    assertEquals(1, management.size());
    assertTrue(management.toString(), management.iterator().next().contains("prometheus"));

    assertFalse("the metrics are not on the HTTP port", Settings.from(config).metricsOnApiPort());
    assertTrue(
        "the metrics are on the management port",
        config.hasPath("pekko.management.http.routes.periscope-metrics"));
    assertEquals(
        containerPort("management"),
        pod.at("/metadata/annotations").path("prometheus.io/port").asInt());

    if (!cluster()) return;
    JsonNode database = only("NetworkPolicy", "periscope-postgres");
    assertEquals(
        "only the Periscope pods and the nightly backup reach the try-out database",
        Map.of(
            "postgres",
            Set.of(
                periscope,
                "this namespace, pods "
                    + strings(
                        only(CRON_JOB, "periscope-backup")
                            .at("/spec/jobTemplate/spec/template/metadata/labels")))),
        peersByPort(
            database,
            only("StatefulSet", "periscope-postgres").at("/spec/template/spec/containers/0")));
  }

  /** Each port of {@code container} a policy opens, with the peers it lets in, described. */
  private static Map<String, Set<String>> peersByPort(JsonNode policy, JsonNode container) {
    assertTrue(texts(policy.at("/spec/policyTypes")).contains("Ingress"));
    Map<String, Set<String>> peers = new HashMap<>();
    for (JsonNode rule : policy.at("/spec/ingress")) {
      assertFalse("a rule names who it lets in", rule.path("from").isEmpty());
      assertFalse("a rule names its ports", rule.path("ports").isEmpty());
      for (JsonNode port : rule.path("ports")) {
        String name = portName(port, container);
        for (JsonNode peer : rule.path("from")) {
          assertFalse("no address blocks", peer.has("ipBlock"));
          Map<String, String> pods = strings(peer.at("/podSelector/matchLabels"));
          assertFalse("a peer is some pods, not any", pods.isEmpty());
          String namespace =
              peer.has("namespaceSelector")
                  ? "namespace " + strings(peer.at("/namespaceSelector/matchLabels"))
                  : "this namespace";
          assertFalse(
              "a peer's namespace is a named one, not any",
              peer.has("namespaceSelector") && peer.at("/namespaceSelector/matchLabels").isEmpty());
          peers.computeIfAbsent(name, n -> new HashSet<>()).add(namespace + ", pods " + pods);
        }
      }
    }
    return peers;
  }

  /**
   * Remoting is TLS with mutual authentication on the certificates of the mounted Secret, which the
   * example's cert-manager resources make: what Pekko's RotatingKeysSSLEngineProvider reads (RSA,
   * issued by a root CA), mounted whole so that a renewal reaches the pods.
   */
  @Test
  public void theNodesTalkOverMutualTlsWithTheMountedCertificates() {
    assertEquals("tls-tcp", config.getString("pekko.remote.artery.transport"));
    assertEquals(
        RotatingKeysSSLEngineProvider.class.getName(),
        config.getString("pekko.remote.artery.ssl.ssl-engine-provider"));
    String dir = config.getString("periscope.remote.tls.dir");
    for (String file : List.of("key-file", "cert-file", "ca-cert-file")) {
      assertEquals(
          Path.of(dir),
          Path.of(config.getString("pekko.remote.artery.ssl.rotating-keys-engine." + file))
              .getParent());
    }
    JsonNode mount = mountAt(container, dir);
    assertFalse("a subPath mount never sees a renewal", mount.has("subPath"));
    assertTrue(mount.path("readOnly").asBoolean());
    String secretName = volume(pod, mount.path("name").asText()).at("/secret/secretName").asText();

    JsonNode node = certificateOf(secretName);
    assertEquals("RSA", node.at("/spec/privateKey/algorithm").asText());
    assertTrue(texts(node.at("/spec/usages")).containsAll(List.of("server auth", "client auth")));
    JsonNode issuer = only("Issuer", node.at("/spec/issuerRef/name").asText());
    JsonNode ca = certificateOf(issuer.at("/spec/ca/secretName").asText());
    assertTrue(ca.at("/spec/isCA").asBoolean());
    assertTrue(
        "the CA is a root, not an intermediate",
        only("Issuer", ca.at("/spec/issuerRef/name").asText()).at("/spec").has("selfSigned"));
  }

  private JsonNode certificateOf(String secretName) {
    List<JsonNode> found =
        all("Certificate").stream()
            .filter(c -> c.at("/spec/secretName").asText().equals(secretName))
            .toList();
    assertEquals("one Certificate makes " + secretName, 1, found.size());
    return found.get(0);
  }

  /** Management and remoting listen on the pod's address only, not on every interface. */
  @Test
  public void managementAndRemotingBindThePodAddress() {
    assertEquals(POD_IP, config.getString("pekko.management.http.hostname"));
    assertEquals(
        "bound where it is reached", "", config.getString("pekko.management.http.bind-hostname"));
    assertEquals(POD_IP, config.getString("pekko.remote.artery.canonical.hostname"));
    assertEquals("", config.getString("pekko.remote.artery.bind.hostname"));
  }

  /**
   * Keep-majority downs a minority: with two of three pods on one Kubernetes node, losing that node
   * would down the third too. So no two pods share a node while another node has none (a hard
   * rule), and zones are spread where there are any (a soft rule, so that fewer zones still run).
   */
  @Test
  public void thePodsSpreadOverNodesHardAndOverZonesSoftly() {
    assumeTrue("one pod has nothing to spread", cluster());
    assertEquals(
        "keep-majority", config.getString("pekko.cluster.split-brain-resolver.active-strategy"));
    Map<String, String> labels = strings(pod.at("/metadata/labels"));
    Map<String, JsonNode> byKey = new HashMap<>();
    for (JsonNode constraint : pod.at("/spec/topologySpreadConstraints")) {
      byKey.put(constraint.path("topologyKey").asText(), constraint);
      assertEquals(1, constraint.path("maxSkew").asInt());
      assertEquals(
          "it counts the Periscope pods",
          labels,
          strings(constraint.at("/labelSelector/matchLabels")));
    }
    assertEquals(
        "DoNotSchedule", byKey.get("kubernetes.io/hostname").path("whenUnsatisfiable").asText());
    assertEquals(
        "ScheduleAnyway",
        byKey.get("topology.kubernetes.io/zone").path("whenUnsatisfiable").asText());
  }

  @Test
  public void disruptionsTakeOnePodAtATimeAndLeaveAMajorityUp() {
    assumeTrue("one pod has no disruption to budget", cluster());
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
        assertTrue(
            name + " has its runbook section in docs/operations.md",
            operations.contains("\n### " + name + "\n"));
        assertTrue(
            name + " links to its runbook",
            rule.at("/annotations/runbook_url")
                .asText()
                .endsWith("/docs/operations.md#" + name.toLowerCase(java.util.Locale.ROOT)));
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
                "PeriscopeHttpErrors",
                "PeriscopeTargetDown",
                "PeriscopeClusterBelowSize",
                "PeriscopeSchedulerStalled",
                "PeriscopeDeliveriesFailing",
                "PeriscopeModelBudgetExhausted")));
  }

  /** Prometheus's own checker accepts the rules (the PrometheusRule's spec, a rules file). */
  @Test
  public void promtoolAcceptsTheRules() throws Exception {
    String out = promtool(null, "check", "rules", "rules.yml");
    assertTrue(out, out.contains("SUCCESS"));
  }

  /**
   * The budget rule in promtool's unit test, on a made-up counter: silent before an account spends
   * a budget, firing with that budget's label for the hour after, silent again past it (an account
   * is counted once a month, so the counter does not move again).
   */
  @Test
  public void theBudgetRuleFiresForTheHourAfterABudgetIsSpent() throws Exception {
    assumeTrue("the rules are the same in both overlays", cluster());
    String alert = "PeriscopeModelBudgetExhausted";
    JsonNode rule = null;
    for (JsonNode group : only("PrometheusRule", "periscope").at("/spec/groups"))
      for (JsonNode r : group.path("rules")) if (r.path("alert").asText().equals(alert)) rule = r;
    Map<String, String> annotations = new TreeMap<>();
    strings(rule.path("annotations"))
        .forEach((k, v) -> annotations.put(k, v.replace("{{ $labels.budget }}", "tokens")));
    String series = "periscope_model_budgets_spent_total{job=\"periscope-metrics\",budget=";
    Map<String, Object> firing =
        Map.of(
            "exp_labels",
            Map.of("severity", "warning", "budget", "tokens"),
            "exp_annotations",
            annotations);
    Map<String, Object> test =
        Map.of(
            "rule_files",
            List.of("rules.yml"),
            "evaluation_interval",
            "1m",
            "tests",
            List.of(
                Map.of(
                    "interval",
                    "1m",
                    // an account spends its token budget 30 minutes in; no cost budget is spent
                    "input_series",
                    List.of(
                        Map.of("series", series + "\"tokens\"}", "values", "0x30 1x150"),
                        Map.of("series", series + "\"cost\"}", "values", "0x180")),
                    "alert_rule_test",
                    List.of(
                        Map.of("eval_time", "20m", "alertname", alert, "exp_alerts", List.of()),
                        Map.of(
                            "eval_time", "45m", "alertname", alert, "exp_alerts", List.of(firing)),
                        Map.of(
                            "eval_time", "80m", "alertname", alert, "exp_alerts", List.of(firing)),
                        Map.of(
                            "eval_time", "100m", "alertname", alert, "exp_alerts", List.of())))));
    String out = promtool(test, "test", "rules", "test.yml");
    assertTrue(out, out.contains("SUCCESS"));
  }

  /**
   * What promtool's {@code args} print, run in a folder where rules.yml is the PrometheusRule's
   * spec (a rules file) and test.yml is {@code test} (when not null), once they exited 0.
   */
  private String promtool(Map<String, Object> test, String... args) throws Exception {
    Path dir = Files.createTempDirectory("periscope-rules");
    try {
      YAML.writeValue(
          dir.resolve("rules.yml").toFile(), only("PrometheusRule", "periscope").path("spec"));
      if (test != null) YAML.writeValue(dir.resolve("test.yml").toFile(), test);
      List<String> command = new ArrayList<>(List.of("promtool"));
      command.addAll(List.of(args));
      Process promtool =
          new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
      String out = new String(promtool.getInputStream().readAllBytes());
      assertEquals(out, 0, promtool.waitFor());
      return out;
    } finally {
      try (Stream<Path> files = Files.walk(dir)) {
        for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(f);
      }
    }
  }

  /**
   * The Prometheus Operator scrapes the management port of every pod, with the token of the Secret
   * the pods read, through a Service no client uses; the rules' job is that Service's name.
   */
  @Test
  public void theServiceMonitorScrapesTheManagementPortWithTheToken() throws IOException {
    JsonNode monitor = only("ServiceMonitor", "periscope");
    List<JsonNode> services =
        all("Service").stream()
            .filter(
                s ->
                    strings(s.at("/metadata/labels"))
                        .entrySet()
                        .containsAll(strings(monitor.at("/spec/selector/matchLabels")).entrySet()))
            .toList();
    assertEquals("the ServiceMonitor selects one Service", 1, services.size());
    JsonNode service = services.get(0);
    assertEquals("None", service.at("/spec/clusterIP").asText());
    assertTrue(
        strings(pod.at("/metadata/labels"))
            .entrySet()
            .containsAll(strings(service.at("/spec/selector")).entrySet()));
    JsonNode endpoint = monitor.at("/spec/endpoints/0");
    JsonNode port = service.at("/spec/ports/0");
    assertEquals(port.path("name").asText(), endpoint.path("port").asText());
    assertEquals("management", port.path("targetPort").asText());
    assertEquals("/metrics", endpoint.path("path").asText());
    assertEquals(
        secret.at("/metadata/name").asText(),
        endpoint.at("/authorization/credentials/name").asText());
    assertEquals("METRICS_TOKEN", endpoint.at("/authorization/credentials/key").asText());
    assertTrue(
        "the rules read the ServiceMonitor's job",
        Files.readString(RULES).contains("job=\"" + service.at("/metadata/name").asText() + "\""));
  }

  /** Every query of the dashboard is narrowed by its namespace and pod selectors. */
  @Test
  public void theDashboardSelectsANamespaceAndPods() throws IOException {
    JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
    Set<String> variables = new HashSet<>();
    dashboard.at("/templating/list").forEach(v -> variables.add(v.path("name").asText()));
    assertTrue(variables.containsAll(Set.of("datasource", "namespace", "pod")));
    java.util.regex.Matcher selector =
        Pattern.compile("\\b(?:periscope|http_server|jvm|process)_[a-z0-9_]+(\\{[^}]*\\})?")
            .matcher("");
    for (JsonNode panel : dashboard.path("panels")) {
      for (JsonNode target : panel.path("targets")) {
        selector.reset(target.path("expr").asText());
        while (selector.find()) {
          String labels = String.valueOf(selector.group(1));
          assertTrue(
              selector.group(),
              labels.contains("namespace=~\"$namespace\"") && labels.contains("pod=~\"$pod\""));
        }
      }
    }
    assertTrue(
        "the dashboard shows the versions running",
        KubernetesManifests.metricsRead().contains("periscope_build_info"));
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
}
