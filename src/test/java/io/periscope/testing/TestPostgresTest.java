package io.periscope.testing;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/** The order in which the tests find their PostgreSQL, with the machine's server left alone. */
@Category(NeedsPostgres.class)
public class TestPostgresTest {

  @Test
  public void aGivenServerThatDoesNotAnswerFailsTheTestsInsteadOfBeingReplaced() throws Exception {
    String closed = "jdbc:postgresql://127.0.0.1:" + closedPort() + "/test";
    AssertionError e =
        assertThrows(
            AssertionError.class,
            () -> TestPostgres.find(Map.of("PERISCOPE_TEST_DATABASE_URL", closed)));
    assertTrue(e.getMessage(), e.getMessage().contains(closed + " (PERISCOPE_TEST_DATABASE_URL)"));
  }

  @Test
  public void withoutALocalServerARealOneIsStartedThatLetsTheTestsCreateDatabases()
      throws Exception {
    String closed = "jdbc:postgresql://127.0.0.1:" + closedPort() + "/test";
    TestPostgres.Server server =
        TestPostgres.find(Map.of("PERISCOPE_TEST_LOCAL_DATABASE_URL", closed));
    try {
      assertNotNull("an embedded server was started", server.embedded());
      assertTrue(server.url(), server.url().startsWith("jdbc:postgresql://127.0.0.1:"));
      try (Connection c = DriverManager.getConnection(server.url(), server.user(), "");
          Statement s = c.createStatement()) {
        s.execute("CREATE DATABASE scratch_probe");
        try (ResultSet r = s.executeQuery("SHOW server_version")) {
          r.next();
          assertTrue(r.getString(1), r.getString(1).startsWith("15."));
        }
        s.execute("DROP DATABASE scratch_probe");
      }
      assertEquals("postgres", server.user());
    } finally {
      server.embedded().close();
    }
  }

  private static int closedPort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
