package io.periscope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.Config;
import io.periscope.Periscope;
import io.periscope.auth.Principal;
import io.periscope.auth.Role;
import io.periscope.auth.Tokens;
import io.periscope.config.Settings;
import io.periscope.json.Json;
import io.periscope.runtime.DataDirLock;
import io.periscope.runtime.DatabaseWriterLock;
import io.periscope.runtime.LocalEntities;
import io.periscope.runtime.Node;
import io.periscope.runtime.ServiceFile;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * How a command that changes entities reaches them without a second writer: through the service
 * running on this data directory, or, when none runs, by holding the data-directory lock (and, on
 * PostgreSQL, the exclusive journal lock that no serving node may hold) while it writes the journal
 * itself.
 */
final class SingleWriter {
  private static final Duration PATIENCE = Duration.ofSeconds(60);
  private static final Duration ADMIN_TOKEN_LIFETIME = Duration.ofMinutes(1);
  private static final Duration CALL_TIMEOUT = Duration.ofMinutes(5);

  interface ThroughService<T> {
    T call(ServiceFile service) throws Exception;
  }

  interface Locally<T> {
    T call() throws Exception;
  }

  /** A refusal to write: another process owns the journal and cannot be reached. */
  static final class Busy extends RuntimeException {
    Busy(String message) {
      super(message);
    }
  }

  private SingleWriter() {}

  /**
   * The service's token issuer: the same secret (AUTH_JWT_SECRET or the data directory's) and the
   * data directory's operator key, which signs the command line's tokens.
   */
  static Tokens tokens(Settings settings) throws java.io.IOException {
    return Tokens.ofDataDir(
        settings.jwtSecret(), settings.dataDir(), settings.tokenTtl(), Clock.systemUTC());
  }

  /** A short-lived admin token for one command's calls to the running service. */
  static String adminToken(Tokens tokens) {
    return tokens.issueOperator(
        Principal.OPERATOR.accountId(), Role.ADMIN, Instant.now(), ADMIN_TOKEN_LIFETIME);
  }

  static <T> T act(
      Settings settings, HttpClient http, ThroughService<T> throughService, Locally<T> locally)
      throws Exception {
    Instant deadline = Instant.now().plus(PATIENCE);
    while (true) {
      Optional<ServiceFile> service = ServiceFile.running(settings.dataDir(), http);
      if (service.isPresent()) return throughService.call(service.get());
      Optional<DataDirLock> lock = DataDirLock.tryAcquire(settings.dataDir());
      if (lock.isPresent()) {
        try (DataDirLock held = lock.get()) {
          return settings.database().configured()
              ? withJournalLock(settings, locally)
              : locally.call();
        }
      }
      // A service is starting on this directory: wait until it answers, then go through it.
      if (Instant.now().isAfter(deadline)) {
        throw new Busy(
            "another Periscope process holds " + settings.dataDir() + " and does not answer");
      }
      Thread.sleep(250);
    }
  }

  /** Work on this process's own application, when no service runs on the journal. */
  interface OnJournal<T> {
    T call(Periscope app) throws Exception;
  }

  /**
   * Runs {@code work} on an application of this process (the caller holds the journal: {@link
   * #act}'s local branch), its actor system ended afterwards.
   */
  static <T> T onJournal(Config config, Settings settings, OnJournal<T> work) throws Exception {
    ActorSystem<Void> system = Node.startLocal(config);
    try {
      Periscope app = new Periscope(system, config, new LocalEntities(system), tokens(settings));
      try {
        return work.call(app);
      } finally {
        app.flush().toCompletableFuture().get(30, TimeUnit.SECONDS);
      }
    } finally {
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  /**
   * One call to the running service as the operator (a short-lived admin token): its JSON answer,
   * or a {@link ExitCodes.Failure} (exit 1) with the service's reason when it is no 2xx.
   *
   * @param body sent as JSON, or nothing when null
   */
  static JsonNode asOperator(
      ServiceFile service,
      Settings settings,
      HttpClient http,
      String method,
      String pathAndQuery,
      Object body)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(service.base().resolve(pathAndQuery))
            .timeout(CALL_TIMEOUT)
            .header("Authorization", "Bearer " + adminToken(tokens(settings)));
    if (body == null) request.method(method, HttpRequest.BodyPublishers.noBody());
    else
      request
          .header("Content-Type", "application/json")
          .method(method, HttpRequest.BodyPublishers.ofByteArray(Json.bytes(body)));
    HttpResponse<String> response =
        http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    JsonNode answer = Json.MAPPER.readTree(response.body().isBlank() ? "{}" : response.body());
    if (response.statusCode() / 100 != 2)
      throw new ExitCodes.Failure(
          ExitCodes.FAILED, answer.path("error").asText("HTTP " + response.statusCode()));
    return answer;
  }

  /** A path segment: an id as it goes into a URL. */
  static String segment(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static <T> T withJournalLock(Settings settings, Locally<T> locally) throws Exception {
    Settings.Database db = settings.database();
    Optional<DatabaseWriterLock> lock =
        DatabaseWriterLock.tryExclusive(db.url(), db.user(), db.password());
    if (lock.isEmpty()) {
      throw new Busy(
          "a Periscope node is running on this database: run the command on a node, where it finds "
              + "the node's service through DATA_DIR");
    }
    try (DatabaseWriterLock held = lock.get()) {
      return locally.call();
    }
  }
}
