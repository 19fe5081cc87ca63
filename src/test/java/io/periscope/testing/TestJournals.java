package io.periscope.testing;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.periscope.config.Profiles;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.Map;
import java.util.UUID;

/**
 * Configurations for tests on the two real journals: H2 (a private in-memory database per call) and
 * PostgreSQL (the server {@link TestPostgres} finds or starts). PostgreSQL tests never skip: when
 * no server can be had, they fail.
 *
 * <p>PostgreSQL journals live in a scratch database of this test JVM, created on first use and
 * dropped when the JVM exits: the server's database is only where scratch databases are made.
 * Cluster-wide entities (the key pools, the VAPID keys) have fixed ids, so a journal shared with
 * earlier runs, or with other code's events, would leak into every test.
 */
public final class TestJournals {
  private TestJournals() {}

  /** A single local node on a fresh in-memory H2 journal, remoting on a free port. */
  public static Config h2() {
    return h2(Map.of());
  }

  /**
   * The same with {@code settings} over it, given to the profile as the environment is: a
   * variable's value (such as REMOTE_TLS) is read as the profile reads it.
   */
  public static Config h2(Map<String, ?> settings) {
    String db = "periscope-test-" + UUID.randomUUID();
    return Profiles.load(
        "embedded",
        ConfigFactory.parseMap(settings)
            .withFallback(
                ConfigFactory.parseMap(
                    Map.of(
                        "pekko-persistence-jdbc.shared-databases.periscope.db.url",
                        "jdbc:h2:mem:" + db + ";DB_CLOSE_DELAY=-1",
                        "periscope.data-dir",
                        System.getProperty("java.io.tmpdir") + "/" + db,
                        "pekko.remote.artery.canonical.port",
                        0,
                        "pekko.coordinated-shutdown.exit-jvm",
                        "off",
                        "pekko.loglevel",
                        "WARNING"))));
  }

  /**
   * A single local node on an H2 file journal under {@code dataDir}, as the service runs by
   * default.
   */
  public static Config embedded(java.nio.file.Path dataDir) {
    return Profiles.load(
        "embedded",
        ConfigFactory.parseMap(
            Map.of(
                "periscope.data-dir",
                dataDir.toString(),
                "pekko.remote.artery.canonical.port",
                0,
                "pekko.coordinated-shutdown.exit-jvm",
                "off",
                "pekko.loglevel",
                "WARNING")));
  }

  private static ScratchDatabase jvmDatabase;

  /**
   * The scratch database of this JVM's PostgreSQL tests: the same one for every call, so a test can
   * restart a service on it; tests use unique ids to stay apart.
   */
  public static synchronized ScratchDatabase postgresDatabase() {
    if (jvmDatabase == null) {
      try {
        ScratchDatabase database = ScratchDatabase.create("periscope_test");
        Runtime.getRuntime()
            .addShutdownHook(
                new Thread(
                    () -> {
                      try {
                        database.close();
                      } catch (Exception ignored) {
                        // the JVM is exiting; a database left behind is only disk space
                      }
                    }));
        jvmDatabase = database;
      } catch (java.sql.SQLException e) {
        throw new AssertionError(
            "could not create a scratch database on " + TestPostgres.server().url() + ": " + e, e);
      }
    }
    return jvmDatabase;
  }

  /** A single local node on this JVM's PostgreSQL scratch database. */
  public static Config postgres() {
    return postgres(postgresDatabase());
  }

  /**
   * A single local node on {@code database}: a test's own, for what is one per cluster (such as the
   * model configuration), which other tests of the JVM must not see.
   */
  public static Config postgres(ScratchDatabase database) {
    String dir = System.getProperty("java.io.tmpdir") + "/periscope-test-" + UUID.randomUUID();
    return Profiles.load(
        "postgres",
        ConfigFactory.parseMap(
            Map.of(
                "periscope.database.url",
                database.url(),
                "periscope.database.user",
                database.user(),
                "periscope.data-dir",
                dir,
                "pekko.remote.artery.canonical.port",
                0,
                "pekko.coordinated-shutdown.exit-jvm",
                "off",
                "pekko.loglevel",
                "WARNING")));
  }

  /**
   * A plain connection to the database of a journal configuration, for tests that look at its
   * tables.
   */
  public static Connection connect(Config config) throws java.sql.SQLException {
    Config db = config.getConfig("pekko-persistence-jdbc.shared-databases.periscope.db");
    return DriverManager.getConnection(
        db.getString("url"), db.getString("user"), db.getString("password"));
  }

  /** The number {@code sql} answers on a journal's database: its first row's first column, or 0. */
  public static long number(Config config, String sql) throws java.sql.SQLException {
    try (Connection c = connect(config);
        java.sql.Statement s = c.createStatement();
        java.sql.ResultSet r = s.executeQuery(sql)) {
      return r.next() ? r.getLong(1) : 0;
    }
  }

  /** Fails (never skips) when no PostgreSQL can be had. */
  public static void requirePostgres() {
    TestPostgres.server();
  }
}
