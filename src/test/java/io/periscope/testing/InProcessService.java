package io.periscope.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.periscope.Periscope;
import io.periscope.account.Accounts;
import io.periscope.auth.Tokens;
import io.periscope.cli.Serve;
import io.periscope.config.Settings;
import io.periscope.http.ClientAddresses;
import io.periscope.http.HttpApi;
import io.periscope.http.connection.BoundedServer;
import io.periscope.json.Json;
import io.periscope.runtime.Node;
import io.periscope.runtime.Serving;
import io.periscope.runtime.ShardedEntities;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.http.javadsl.ServerBinding;

/**
 * The whole service in this JVM: a single cluster node, its route tree bound on a free loopback
 * port.
 */
public final class InProcessService implements AutoCloseable {
  public static final String SECRET = "in-process-test-secret-of-32-bytes-or-more";

  /**
   * The ENCRYPTION_KEY of every service a test starts without one: fixed like {@link #SECRET}, so a
   * test that restarts a service on a new data directory still reads what the first one stored.
   */
  public static final String ENCRYPTION_KEY = "in-process-test-encryption-key-of-32-bytes";

  public final ActorSystem<Void> system;
  public final Periscope app;
  public final Tokens tokens;

  /** The route tree it serves, whose endpoints a test can list. */
  public final HttpApi api;

  private final ServerBinding binding;
  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  public InProcessService(Config config) throws Exception {
    this(config, Clock.systemUTC());
  }

  /**
   * {@code clock} drives the rate-limit windows and the schedules, so a test can hold it still or
   * move it.
   */
  public InProcessService(Config config, Clock clock) throws Exception {
    this(config, clock, SECRET);
  }

  /** {@code secret} is its AUTH_JWT_SECRET. */
  public InProcessService(Config given, Clock clock, String secret) throws Exception {
    Config config =
        given.getString("periscope.encryption.keys").isBlank()
            ? ConfigFactory.parseMap(Map.of("periscope.encryption.keys", ENCRYPTION_KEY))
                .withFallback(given)
            : given;
    system = Node.startClusterNode(config, Duration.ofSeconds(30));
    Settings settings = Settings.from(config);
    tokens = new Tokens(secret, settings.tokenTtl(), Clock.systemUTC());
    app = new Periscope(system, config, new ShardedEntities(system), tokens, clock);
    Serve.seedKeyPools(app); // as serve does, asking again while a joining node's shards move
    app.startSchedules(system, config);
    api = app.httpApi(clock);
    binding =
        BoundedServer.bind(
                system,
                "127.0.0.1",
                0,
                api.route().seal(),
                BoundedServer.Limits.from(config),
                ClientAddresses.trusting(settings.trustedProxies(), settings.trustedProxyHeader())
                    ::trusted)
            .toCompletableFuture()
            .get(30, TimeUnit.SECONDS);
    Serving.get(system).started(); // as serve does once bound
  }

  public URI uri(String path) {
    return URI.create("http://127.0.0.1:" + binding.localAddress().getPort() + path);
  }

  /** Creates an account through the same code path as the command line. */
  public void account(String id, String role, String password) throws Exception {
    app.accounts()
        .create(Accounts.validate(id, id + "@example.org", role, password))
        .toCompletableFuture()
        .get(30, TimeUnit.SECONDS);
  }

  /**
   * A new account {@code id} (address id@example.org, password id-passphrase), signed in: its
   * token.
   */
  public String signedIn(String id, String role) throws Exception {
    account(id, role, id + "-passphrase");
    return login(id, id + "-passphrase");
  }

  public String login(String id, String password) throws Exception {
    HttpResponse<String> r =
        send(
            "POST",
            "/auth/login",
            null,
            Json.text(Map.of("email", id + "@example.org", "password", password)),
            Map.of());
    if (r.statusCode() != 200) throw new AssertionError("login of " + id + " failed: " + r.body());
    return Json.MAPPER.readTree(r.body()).get("token").asText();
  }

  /** A request without headers of its own; a body is sent as JSON. */
  public HttpResponse<String> call(String method, String path, String token, String body)
      throws Exception {
    return send(method, path, token, body, Map.of());
  }

  /** The JSON body of a response that must have {@code status}. */
  public static JsonNode json(HttpResponse<String> response, int status) throws Exception {
    if (response.statusCode() != status) {
      throw new AssertionError(
          "expected " + status + ", got " + response.statusCode() + ": " + response.body());
    }
    return Json.MAPPER.readTree(response.body());
  }

  public HttpResponse<String> send(
      String method, String path, String token, String body, Map<String, String> headers)
      throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(30));
    if (token != null) b.header("Authorization", "Bearer " + token);
    headers.forEach(b::header);
    if (body != null && !headers.containsKey("Content-Type"))
      b.header("Content-Type", "application/json");
    b.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Override
  public void close() throws Exception {
    binding.unbind().toCompletableFuture().get(10, TimeUnit.SECONDS);
    system.terminate();
    // Longer than the shutdown's own bounded phases (a shard region alone may take 30 s to give up
    // on a hand-over, conf/periscope.conf): a slow stop on a loaded machine ends, a hang still
    // fails.
    system.getWhenTerminated().toCompletableFuture().get(90, TimeUnit.SECONDS);
  }
}
