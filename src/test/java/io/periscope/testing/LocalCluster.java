package io.periscope.testing;

import io.periscope.json.Json;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.pekko.cluster.sharding.typed.HashCodeMessageExtractor;

/**
 * Nodes of target/periscope.jar on 127.0.0.1 (three unless told), started as an operator starts
 * {@code conf/local1..3} (PERISCOPE_PROFILE=localN) on one scratch PostgreSQL database; the ports
 * are free ones, passed through PORT, REMOTE_PORT, MANAGEMENT_PORT and SEED_NODES, so two runs on
 * one machine do not collide.
 */
public final class LocalCluster implements AutoCloseable {
  public static final String SECRET = "local-cluster-test-secret-of-32-bytes-at-least";
  public static final String ENCRYPTION_KEY = "local-cluster-test-encryption-key-of-32-bytes";

  /**
   * How long a node may take to start: a node starts in seconds, but a JVM among several busy ones
   * on a shared machine (the cluster tests start three) can take minutes to load its classes.
   */
  public static final Duration START_PATIENCE = Duration.ofSeconds(240);

  /** Sharding's default number of shards, which the service keeps. */
  private static final int NUMBER_OF_SHARDS = 1000;

  private final ScratchDatabase database;
  private final List<ServiceProcess> nodes = new ArrayList<>();
  private final List<Integer> managementPorts = new ArrayList<>();
  private final List<Path> dataDirs = new ArrayList<>();
  private final HttpClient http = HttpClient.newHttpClient();

  /**
   * @param env what every node gets besides its cluster settings (upstreams, for instance)
   */
  public LocalCluster(String name, Map<String, String> env) throws Exception {
    this(name, 3, env);
  }

  public LocalCluster(String name, int size, Map<String, String> env) throws Exception {
    database = ScratchDatabase.create("periscope_" + name);
    List<Integer> ports = freePorts(3 * size);
    String seeds =
        "127.0.0.1:" + ports.get(size) + (size > 1 ? ",127.0.0.1:" + ports.get(size + 1) : "");
    for (int i = 0; i < size; i++) {
      Path dataDir = Files.createTempDirectory("periscope-" + name + "-node" + (i + 1));
      Map<String, String> e = new HashMap<>(env);
      e.putAll(
          Map.of(
              "PERISCOPE_PROFILE",
              "local" + Math.min(i + 1, 3),
              "DATABASE_URL",
              database.url(),
              "DATABASE_USER",
              database.user(),
              "AUTH_JWT_SECRET",
              SECRET,
              "DATA_DIR",
              dataDir.toString(),
              "PORT",
              String.valueOf(ports.get(i)),
              "REMOTE_PORT",
              String.valueOf(ports.get(size + i)),
              "MANAGEMENT_PORT",
              String.valueOf(ports.get(2 * size + i)),
              "SEED_NODES",
              seeds));
      e.put("ENCRYPTION_KEY", ENCRYPTION_KEY);
      // A node waiting for the first seed gives up after a minute in production; on a loaded test
      // machine
      // node 1 can take longer than that to start, so the waiting nodes keep trying.
      e.putIfAbsent(
          "JAVA_TOOL_OPTIONS", "-Dpekko.cluster.shutdown-after-unsuccessful-join-seed-nodes=off");
      Path log = ServiceProcess.logFile(name + "-node" + (i + 1));
      Files.deleteIfExists(log);
      nodes.add(new ServiceProcess(e, log));
      managementPorts.add(ports.get(2 * size + i));
      dataDirs.add(dataDir);
    }
  }

  public int size() {
    return nodes.size();
  }

  /**
   * Starts the other nodes first: until node 1, the first seed node, forms the cluster they are
   * alive and not ready. Then node 1; returns when every node is ready.
   */
  public LocalCluster start() throws Exception {
    for (int n = 2; n <= size(); n++) node(n).launch();
    for (int n = 2; n <= size(); n++) {
      node(n).awaitOk(management(n, "/alive"), START_PATIENCE);
      if (status(management(n, "/ready")) == 200) {
        throw new AssertionError("node " + n + " is ready before the cluster formed");
      }
    }
    node(1).launch();
    for (int n = 1; n <= size(); n++) awaitReady(n);
    return this;
  }

  /** Node {@code n}, 1 to 3. */
  public ServiceProcess node(int n) {
    return nodes.get(n - 1);
  }

  /**
   * Creates the account {@code id} (address id@example.org) with the command line on node 1, as an
   * operator does; fails unless it exits 0.
   */
  public void createUser(String id, String role, String password) throws Exception {
    int exit =
        node(1)
            .command(
                List.of(
                    "users", "create", "--id", id, "--email", id + "@example.org", "--role", role),
                password + "\n");
    if (exit != 0) throw new AssertionError("users create " + id + " exited " + exit);
  }

  public URI management(int n, String path) {
    return URI.create("http://127.0.0.1:" + managementPorts.get(n - 1) + path);
  }

  public void awaitReady(int n) throws Exception {
    node(n).awaitOk(management(n, "/ready"), START_PATIENCE);
  }

  public int status(URI url) throws InterruptedException {
    return ServiceProcess.status(http, url);
  }

  /** The shard sharding puts entity {@code entityId} in (of any entity type). */
  public static String shardOf(String entityId) {
    return new HashCodeMessageExtractor<>(NUMBER_OF_SHARDS).shardId(entityId);
  }

  /**
   * The shards of entity type {@code typeName} (a type key's name: Watch, RunAll) that node {@code
   * n} reports hosting.
   */
  public Set<String> shardsHostedBy(int n, String typeName) throws Exception {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(management(n, "/cluster/shards/" + typeName))
                .timeout(Duration.ofSeconds(10))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200)
      throw new AssertionError("node " + n + " shards: " + r.statusCode() + " " + r.body());
    return new HashSet<>(Json.MAPPER.readTree(r.body()).get("regions").findValuesAsText("shardId"));
  }

  /** The node hosting entity {@code entityId} of type {@code typeName}; 0 when none reports it. */
  public int hostOf(String typeName, String entityId) throws Exception {
    for (int n = 1; n <= size(); n++)
      if (shardsHostedBy(n, typeName).contains(shardOf(entityId))) return n;
    return 0;
  }

  /**
   * SIGTERM, wait for the exit, start again on the same ports and data directory, wait until ready.
   */
  public void restart(int n) throws Exception {
    node(n).stop();
    node(n).launch();
    awaitReady(n);
  }

  private static List<Integer> freePorts(int count) throws IOException {
    List<ServerSocket> open = new ArrayList<>();
    try {
      for (int i = 0; i < count; i++) open.add(new ServerSocket(0));
      return open.stream().map(ServerSocket::getLocalPort).toList();
    } finally {
      for (ServerSocket s : open) s.close();
    }
  }

  @Override
  public void close() throws Exception {
    try {
      for (ServiceProcess node : nodes) node.close();
    } finally {
      database.close();
      for (Path dir : dataDirs) {
        try (var files = Files.walk(dir)) {
          files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
      }
    }
  }
}
