package io.periscope.testing;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverPropertyInfo;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Logger;

/**
 * A JDBC driver that counts what the service asks of its database: each statement executed (by its
 * SQL), each batch, commit, rollback and validity check, every one a round trip to a PostgreSQL
 * server. It hands connections of the real driver (H2 or PostgreSQL) for the same URL, so a
 * configuration counts by naming it as the journal's driver ({@link #counted}): every pool the
 * service opens on the journal's database takes the driver from there (the journal plugin's, its
 * writers', the wake-up index's), while what connects through {@code DriverManager} (the schema's
 * migrations, a test's own queries) goes uncounted.
 */
public final class CountingJdbc implements Driver {
  private static final List<Driver> REAL =
      List.of(new org.h2.Driver(), new org.postgresql.Driver());

  /** Round trips by what they were: a statement's SQL, or {@code commit} and the like. */
  private static final Map<String, LongAdder> TRIPS = new ConcurrentHashMap<>();

  /** Statements by their SQL: a batch's statements each, so a batch of 3 counts 3 here, 1 above. */
  private static final Map<String, LongAdder> STATEMENTS = new ConcurrentHashMap<>();

  /**
   * The round trips that are not statements, by the method and the pool's thread that made them.
   */
  private static final String TRANSACTION = " on thread ";

  private static boolean isTransaction(String trip) {
    return trip.contains(TRANSACTION);
  }

  private static final Set<String> EXECUTES =
      Set.of("execute", "executeQuery", "executeUpdate", "executeLargeUpdate");

  /** {@code config} with its journal's database reached through this driver. */
  public static Config counted(Config config) {
    return ConfigFactory.parseMap(
            Map.of(
                "pekko-persistence-jdbc.shared-databases.periscope.db.driver",
                CountingJdbc.class.getName()))
        .withFallback(config);
  }

  /** What was counted so far. */
  public static Counts counts() {
    return new Counts(snapshot(TRIPS), snapshot(STATEMENTS));
  }

  private static Map<String, Long> snapshot(Map<String, LongAdder> counters) {
    Map<String, Long> copy = new TreeMap<>();
    counters.forEach((sql, n) -> copy.put(sql, n.sum()));
    return copy;
  }

  /** Round trips and statements, each by what they were. */
  public record Counts(Map<String, Long> byTrip, Map<String, Long> byStatement) {
    public Counts minus(Counts before) {
      return new Counts(
          difference(byTrip, before.byTrip), difference(byStatement, before.byStatement));
    }

    public Counts plus(Counts other) {
      return new Counts(sum(byTrip, other.byTrip), sum(byStatement, other.byStatement));
    }

    /**
     * These less what {@code recurring} did (a node's polls, which run whether or not a run is
     * due): each statement it also ran, and as many commits and validity checks as it made.
     */
    public Counts without(Counts recurring) {
      Map<String, Long> trips = new TreeMap<>(byTrip);
      Map<String, Long> statements = new TreeMap<>(byStatement);
      recurring.byTrip.forEach(
          (what, n) -> {
            if (isTransaction(what)) trips.computeIfPresent(what, (k, v) -> v > n ? v - n : null);
            else trips.remove(what);
          });
      statements.keySet().removeIf(recurring.byStatement::containsKey);
      return new Counts(trips, statements);
    }

    public static final Counts NONE = new Counts(Map.of(), Map.of());

    public long trips() {
      return byTrip.values().stream().mapToLong(Long::longValue).sum();
    }

    public long statements() {
      return byStatement.values().stream().mapToLong(Long::longValue).sum();
    }

    /** The round trips whose SQL (or name) contains {@code text}, in any case. */
    public long tripsOf(String text) {
      return byTrip.entrySet().stream()
          .filter(e -> e.getKey().toLowerCase().contains(text.toLowerCase()))
          .mapToLong(Map.Entry::getValue)
          .sum();
    }

    /** The statements whose SQL contains {@code text}, in any case. */
    public long statementsOf(String text) {
      return byStatement.entrySet().stream()
          .filter(e -> e.getKey().toLowerCase().contains(text.toLowerCase()))
          .mapToLong(Map.Entry::getValue)
          .sum();
    }

    /** The statements that read (a SELECT). */
    public long reads() {
      return byStatement.entrySet().stream()
          .filter(e -> e.getKey().strip().toLowerCase().startsWith("select"))
          .mapToLong(Map.Entry::getValue)
          .sum();
    }

    /** Per run of {@code runs}: each round trip's count, its SQL shortened, most first. */
    public String perRun(int runs) {
      StringBuilder out =
          new StringBuilder(
              String.format(
                  "%.2f round trips, %.2f statements per run%n",
                  trips() / (double) runs, statements() / (double) runs));
      byTrip.entrySet().stream()
          .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
          .forEach(
              e ->
                  out.append(
                      String.format(
                          "  %6.2f  %s%n", e.getValue() / (double) runs, shortened(e.getKey()))));
      return out.toString();
    }

    private static String shortened(String sql) {
      String line = sql.replaceAll("\\s+", " ");
      return line.length() > 160 ? line.substring(0, 160) + "…" : line;
    }

    private static Map<String, Long> difference(Map<String, Long> after, Map<String, Long> before) {
      Map<String, Long> d = new TreeMap<>(after);
      before.forEach((k, v) -> d.merge(k, -v, Long::sum));
      d.values().removeIf(v -> v == 0);
      return d;
    }

    private static Map<String, Long> sum(Map<String, Long> a, Map<String, Long> b) {
      Map<String, Long> s = new TreeMap<>(a);
      b.forEach((k, v) -> s.merge(k, v, Long::sum));
      return s;
    }
  }

  private static void count(Map<String, LongAdder> counters, String what, long n) {
    counters.computeIfAbsent(what, k -> new LongAdder()).add(n);
  }

  private static Driver real(String url) throws SQLException {
    for (Driver driver : REAL) if (driver.acceptsURL(url)) return driver;
    return null;
  }

  @Override
  public Connection connect(String url, Properties info) throws SQLException {
    Driver driver = real(url);
    if (driver == null) return null;
    Connection connection = driver.connect(url, info);
    return connection == null ? null : proxy(Connection.class, new Connections(connection));
  }

  @Override
  public boolean acceptsURL(String url) throws SQLException {
    return real(url) != null;
  }

  @Override
  public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) throws SQLException {
    Driver driver = real(url);
    return driver == null ? new DriverPropertyInfo[0] : driver.getPropertyInfo(url, info);
  }

  @Override
  public int getMajorVersion() {
    return 1;
  }

  @Override
  public int getMinorVersion() {
    return 0;
  }

  @Override
  public boolean jdbcCompliant() {
    return false;
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw new SQLFeatureNotSupportedException();
  }

  private static <T> T proxy(Class<T> type, InvocationHandler handler) {
    return type.cast(
        Proxy.newProxyInstance(
            CountingJdbc.class.getClassLoader(), new Class<?>[] {type}, handler));
  }

  private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  private record Connections(Connection real) implements InvocationHandler {
    @Override
    public Object invoke(Object self, Method method, Object[] args) throws Throwable {
      Object result = CountingJdbc.invoke(real, method, args);
      switch (method.getName()) {
        case "commit", "rollback", "isValid" ->
            count(
                TRIPS,
                method.getName()
                    + TRANSACTION
                    + Thread.currentThread().getName().replaceAll("[0-9]+", "N"),
                1);
        case "prepareStatement" -> {
          return proxy(
              PreparedStatement.class, new Statements((Statement) result, (String) args[0]));
        }
        case "prepareCall" -> {
          return proxy(
              CallableStatement.class, new Statements((Statement) result, (String) args[0]));
        }
        case "createStatement" -> {
          return proxy(Statement.class, new Statements((Statement) result, null));
        }
        default -> {}
      }
      return result;
    }
  }

  private static final class Statements implements InvocationHandler {
    private final Statement real;
    private final String prepared;
    private int batched;

    Statements(Statement real, String prepared) {
      this.real = real;
      this.prepared = prepared;
    }

    @Override
    public Object invoke(Object self, Method method, Object[] args) throws Throwable {
      String name = method.getName();
      if (EXECUTES.contains(name)) {
        String sql = args != null && args.length > 0 ? (String) args[0] : prepared;
        count(TRIPS, sql, 1);
        count(STATEMENTS, sql, 1);
      } else if (name.equals("addBatch")) {
        if (args != null && args.length > 0) count(STATEMENTS, (String) args[0], 1);
        else batched++;
      } else if (name.equals("clearBatch")) {
        batched = 0;
      } else if (name.equals("executeBatch") || name.equals("executeLargeBatch")) {
        count(TRIPS, "batch: " + (prepared == null ? "statements" : prepared), 1);
        if (prepared != null) count(STATEMENTS, prepared, batched);
        batched = 0;
      }
      return CountingJdbc.invoke(real, method, args);
    }
  }
}
