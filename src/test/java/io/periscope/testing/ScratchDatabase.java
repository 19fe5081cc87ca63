package io.periscope.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/**
 * A PostgreSQL database of its own on the test server (PERISCOPE_TEST_DATABASE_URL's), created for
 * one test and dropped after it, so processes that share a journal share only this one.
 */
public final class ScratchDatabase implements AutoCloseable {
  private final String name;
  private final String url;

  private ScratchDatabase(String name, String url) {
    this.name = name;
    this.url = url;
  }

  public static ScratchDatabase create(String prefix) throws SQLException {
    TestJournals.requirePostgres();
    String name =
        (prefix + "_" + UUID.randomUUID().toString().substring(0, 8)).replaceAll("[^a-z0-9_]", "_");
    execute("CREATE DATABASE " + name);
    String server = TestJournals.POSTGRES_URL;
    int slash = server.lastIndexOf('/');
    int query = server.indexOf('?', slash);
    return new ScratchDatabase(
        name, server.substring(0, slash + 1) + name + (query < 0 ? "" : server.substring(query)));
  }

  public String url() {
    return url;
  }

  public String user() {
    return TestJournals.POSTGRES_USER;
  }

  private static void execute(String sql) throws SQLException {
    try (Connection c =
            DriverManager.getConnection(TestJournals.POSTGRES_URL, TestJournals.POSTGRES_USER, "");
        Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  @Override
  public void close() throws SQLException {
    execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
  }
}
