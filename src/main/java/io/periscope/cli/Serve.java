package io.periscope.cli;

import com.typesafe.config.Config;
import io.periscope.Periscope;
import io.periscope.auth.Tokens;
import io.periscope.config.SecretStrength;
import io.periscope.config.Settings;
import io.periscope.entity.Failures;
import io.periscope.http.ClientAddresses;
import io.periscope.http.connection.BoundedServer;
import io.periscope.logging.StderrLogging;
import io.periscope.notify.AdminAlerts;
import io.periscope.runtime.DataDirLock;
import io.periscope.runtime.DatabaseWriterLock;
import io.periscope.runtime.Node;
import io.periscope.runtime.RemoteTls;
import io.periscope.runtime.ServiceFile;
import io.periscope.runtime.Serving;
import io.periscope.runtime.ShardedEntities;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.pekko.Done;
import org.apache.pekko.actor.CoordinatedShutdown;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.http.javadsl.ServerBinding;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code serve}: a cluster node with the HTTP interface. SIGTERM runs Pekko's coordinated shutdown:
 * the node reports not ready and keeps serving for {@code periscope.http.unbind-delay}, stops
 * accepting connections, lets in-flight requests finish (up to {@link #DRAIN}), hands its shards
 * over (runs in flight finish first), leaves the cluster and exits.
 */
public final class Serve {
  private static final Logger log = LoggerFactory.getLogger(Serve.class);
  static final Duration DRAIN = Duration.ofSeconds(20);

  /**
   * How long a node waits to join its cluster (the seed nodes or the bootstrap's contact points)
   * before it gives up.
   */
  static final Duration JOIN_PATIENCE = Duration.ofMinutes(5);

  static final Duration SEED_PATIENCE = Duration.ofMinutes(2);

  private Serve() {}

  /** Serves until the actor system terminates (SIGTERM, or the cluster downing this node). */
  public static void run(String profile, Config config) throws Exception {
    long started = System.nanoTime();
    Settings settings = Settings.from(config);
    AdminAlerts.channels(config); // a bad ADMIN_CHANNELS stops the start before anything starts
    SecretStrength.requireStrong(config);
    Node.requireSharedState(config, settings);
    RemoteTls.check(config);
    // Held for the life of the process: the command line goes through this service instead of
    // writing.
    DataDirLock lock = DataDirLock.acquire(settings.dataDir(), Duration.ofSeconds(60));
    Settings.Database db = settings.database();
    DatabaseWriterLock journalLock =
        db.configured() ? DatabaseWriterLock.holdShared(db.url(), db.user(), db.password()) : null;
    Tokens tokens =
        Tokens.ofDataDir(
            settings.jwtSecret(), settings.dataDir(), settings.tokenTtl(), Clock.systemUTC());
    ActorSystem<Void> system = Node.startClusterNode(joining(config, journalLock), JOIN_PATIENCE);
    if (journalLock != null) journalLock.holdAsMember();
    Periscope app = new Periscope(system, config, new ShardedEntities(system), tokens);
    seedKeyPools(app);
    app.startSchedules(system, config);

    ServerBinding binding =
        BoundedServer.bind(
                system,
                settings.httpHost(),
                settings.httpPort(),
                app.httpApi(Clock.systemUTC()).route().seal(),
                BoundedServer.Limits.from(config),
                ClientAddresses.trusting(settings.trustedProxies(), settings.trustedProxyHeader())
                    ::trusted)
            .toCompletableFuture()
            .get();
    Serving serving = Serving.get(system);
    serving.started();
    CoordinatedShutdown shutdown = CoordinatedShutdown.get(system);
    shutdown.addTask(
        CoordinatedShutdown.PhaseBeforeServiceUnbind(),
        "stop-serving",
        () -> {
          serving.stopping();
          ServiceFile.remove(settings.dataDir());
          return CompletableFuture.supplyAsync(
              Done::getInstance,
              CompletableFuture.delayedExecutor(
                  config.getDuration("periscope.http.unbind-delay").toMillis(),
                  TimeUnit.MILLISECONDS));
        });
    binding.addToCoordinatedShutdown(DRAIN, system);
    String host = settings.httpHost().equals("0.0.0.0") ? "127.0.0.1" : settings.httpHost();
    new ServiceFile(host, binding.localAddress().getPort(), ProcessHandle.current().pid())
        .write(settings.dataDir());
    shutdown.addTask(
        CoordinatedShutdown.PhaseActorSystemTerminate(),
        "release-data-dir",
        () -> {
          try {
            lock.close();
            if (journalLock != null) journalLock.close();
          } catch (Exception ignored) {
            // the process is exiting; the operating system and the database release the locks
            // anyway
          }
          return CompletableFuture.completedFuture(Done.getInstance());
        });
    log.info(
        "event=ready profile={} http={}:{} data-dir={} journal={} ms={}",
        profile,
        settings.httpHost(),
        binding.localAddress().getPort(),
        settings.dataDir(),
        settings.database().configured() ? "postgresql" : "h2",
        (System.nanoTime() - started) / 1_000_000);
    try {
      printSummary(
          app, profile, settings, settings.httpHost() + ":" + binding.localAddress().getPort());
    } catch (Exception e) { // the summary is for a person: a slow answer never stops the service
      log.warn(
          "event=start-summary-failed reason=\"{}\"",
          Failures.unwrap(e).getClass().getSimpleName());
    }
    system.getWhenTerminated().toCompletableFuture().join();
  }

  /**
   * How this node joins. Pekko's first seed node forms a new cluster when no other seed node
   * answers it within seed-node-timeout, which a slow or paused peer can make it do while a cluster
   * runs (and bootstrap's lowest address can, when its contact points do not report theirs). A
   * second cluster on the same journal hosts a second copy of every entity: two writers per
   * persistence id, each reading its own state. So while other members hold the journal's member
   * lock, this node joins them, waiting however long they take, and forms no cluster of its own.
   */
  private static Config joining(Config config, DatabaseWriterLock journalLock) throws Exception {
    if (journalLock == null || !Node.mayFormCluster(config) || !journalLock.otherMembersAlive())
      return config;
    log.info("event=joining-running-cluster reason=\"other members hold the journal\"");
    return Node.joiningOthersOnly(config);
  }

  /**
   * The few lines a person reads on standard output; the setup link is also logged, since a
   * service's output is often read only from its log.
   */
  private static void printSummary(Periscope app, String profile, Settings settings, String bound)
      throws Exception {
    boolean model = app.modelReady().toCompletableFuture().get(10, TimeUnit.SECONDS);
    boolean search = app.searchReady().toCompletableFuture().get(10, TimeUnit.SECONDS);
    boolean noAccount = app.firstRun().open().toCompletableFuture().get(10, TimeUnit.SECONDS);
    Optional<String> link =
        noAccount ? Optional.of(app.firstRun().link(settings.publicUrl())) : Optional.empty();
    link.ifPresent(l -> log.info("event=setup-link url={}", l));
    StartSummary summary =
        new StartSummary(
            Version.of(),
            profile,
            settings.publicUrl() + " (" + bound + ")",
            settings,
            model,
            search,
            link);
    if (StderrLogging.jsonLines()) {
      // a log collector reads every line of a JSON-logging service as JSON: the summary is events
      summary.lines().forEach(l -> log.info("event=start-summary text=\"{}\"", l.strip()));
    } else {
      summary.lines().forEach(System.out::println);
      System.out.flush();
    }
  }

  /**
   * Seeds the key pools, asking again when a pool entity does not answer in time: a node that just
   * joined may wait for the shard coordinator while the cluster settles (a message to a shard being
   * handed over is dropped). Seeding is idempotent.
   */
  public static void seedKeyPools(Periscope app) throws Exception {
    Instant deadline = Instant.now().plus(SEED_PATIENCE);
    while (true) {
      try {
        app.seedKeyPools().toCompletableFuture().get(SEED_PATIENCE.toSeconds(), TimeUnit.SECONDS);
        return;
      } catch (ExecutionException e) {
        if (!(Failures.unwrap(e) instanceof TimeoutException) || Instant.now().isAfter(deadline))
          throw e;
        log.warn(
            "event=key-pool-seed-retry reason=\"{}\"",
            Failures.unwrap(e).getClass().getSimpleName());
      }
    }
  }
}
