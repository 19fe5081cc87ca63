package io.periscope.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/**
 * A PostgreSQL database of its own on the test server ({@link TestPostgres}), created for one test
 * and dropped after it, so processes that share a journal share only this one.
 */
public final class ScratchDatabase implements AutoCloseable {
  private final String name;
  private final String url;

  private ScratchDatabase(String name, String url) {
    this.name = name;
    this.url = url;
  }

  public static ScratchDatabase create(String prefix) throws SQLException {
    String name =
        (prefix + "_" + UUID.randomUUID().toString().substring(0, 8)).replaceAll("[^a-z0-9_]", "_");
    execute("CREATE DATABASE " + name);
    String server = TestPostgres.server().url();
    int slash = server.lastIndexOf('/');
    int query = server.indexOf('?', slash);
    return new ScratchDatabase(
        name, server.substring(0, slash + 1) + name + (query < 0 ? "" : server.substring(query)));
  }

  public String url() {
    return url;
  }

  public String user() {
    return TestPostgres.server().user();
  }

  private static void execute(String sql) throws SQLException {
    TestPostgres.Server server = TestPostgres.server();
    try (Connection c = DriverManager.getConnection(server.url(), server.user(), "");
        Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  @Override
  public void close() throws SQLException {
    execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
  }
}
