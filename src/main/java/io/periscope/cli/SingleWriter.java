package io.periscope.cli;

import io.periscope.auth.Tokens;
import io.periscope.config.Settings;
import io.periscope.owner.Role;
import io.periscope.runtime.DataDirLock;
import io.periscope.runtime.DatabaseWriterLock;
import io.periscope.runtime.ServiceFile;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * How a command that changes entities reaches them without a second writer: through the service
 * running on this data directory, or, when none runs, by holding the data-directory lock (and, on
 * PostgreSQL, the exclusive journal lock that no serving node may hold) while it writes the journal
 * itself.
 */
final class SingleWriter {
  private static final Duration PATIENCE = Duration.ofSeconds(60);
  private static final Duration ADMIN_TOKEN_LIFETIME = Duration.ofMinutes(1);

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

  /** The service's token issuer: the same secret, from AUTH_JWT_SECRET or the data directory. */
  static Tokens tokens(Settings settings) throws java.io.IOException {
    return new Tokens(
        Tokens.secret(settings.jwtSecret(), settings.dataDir()),
        settings.tokenTtl(),
        Clock.systemUTC());
  }

  /** A short-lived admin token for one command's calls to the running service. */
  static String adminToken(Tokens tokens) {
    return tokens.issue("periscope-cli", Role.ADMIN, Instant.now(), ADMIN_TOKEN_LIFETIME);
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
