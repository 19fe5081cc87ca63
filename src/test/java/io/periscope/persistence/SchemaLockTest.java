package io.periscope.persistence;

import static org.junit.Assert.assertEquals;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.periscope.testing.NeedsPostgres;
import io.periscope.testing.ScratchDatabase;
import io.periscope.testing.TestJournals;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/** Nodes starting together create the schema one at a time on PostgreSQL. */
public class SchemaLockTest {
  @Test
  @Category(NeedsPostgres.class)
  public void schemaCreationIsOneProcessAtATimeOnPostgres() throws Exception {
    ScratchDatabase database = TestJournals.postgresDatabase();
    Config config =
        ConfigFactory.parseMap(
            Map.of(
                "periscope.database.url",
                database.url(),
                "periscope.database.user",
                database.user(),
                "periscope.database.password",
                ""));
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger mostInside = new AtomicInteger();
    ExecutorService nodes = Executors.newFixedThreadPool(4);
    try {
      List<Future<Integer>> creations = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        creations.add(
            nodes.submit(
                () ->
                    SchemaLock.during(
                        config,
                        () -> {
                          mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                          Thread.sleep(100);
                          return inside.decrementAndGet();
                        })));
      }
      for (Future<Integer> creation : creations) creation.get();
    } finally {
      nodes.shutdown();
    }
    assertEquals(1, mostInside.get());
  }

  @Test
  @Category(NeedsPostgres.class)
  public void aNodeWaitingForTheLockDoesNotHoldUpTheHoldersConcurrentIndexBuild() throws Exception {
    // The journal's script builds indexes CONCURRENTLY, which waits for every transaction in
    // progress: a node waiting inside pg_advisory_lock is one, and it waits for the holder in turn,
    // so neither would ever go on.
    ScratchDatabase database = TestJournals.postgresDatabase();
    Config config =
        ConfigFactory.parseMap(
            Map.of(
                "periscope.database.url",
                database.url(),
                "periscope.database.user",
                database.user(),
                "periscope.database.password",
                ""));
    String table = "concurrent_" + UUID.randomUUID().toString().replace("-", "");
    try (Connection c = DriverManager.getConnection(database.url(), database.user(), "")) {
      c.createStatement().execute("CREATE TABLE " + table + " (x INT)");
    }
    CountDownLatch holding = new CountDownLatch(1);
    ExecutorService nodes = Executors.newFixedThreadPool(2);
    try {
      Future<Object> holder =
          nodes.submit(
              () ->
                  SchemaLock.during(
                      config,
                      () -> {
                        holding.countDown();
                        Thread.sleep(500); // the other node is waiting for the lock by now
                        try (Connection c =
                            DriverManager.getConnection(database.url(), database.user(), "")) {
                          return c.createStatement()
                              .execute(
                                  "CREATE INDEX CONCURRENTLY "
                                      + table
                                      + "_idx ON "
                                      + table
                                      + " (x)");
                        }
                      }));
      holding.await();
      Future<String> waiter = nodes.submit(() -> SchemaLock.during(config, () -> "created after"));
      holder.get(20, TimeUnit.SECONDS);
      assertEquals("created after", waiter.get(20, TimeUnit.SECONDS));
    } finally {
      nodes.shutdownNow();
    }
  }

  @Test
  public void theEmbeddedJournalNeedsNoLock() throws Exception {
    Config config = ConfigFactory.parseMap(Map.of("periscope.database.url", ""));
    assertEquals("created", SchemaLock.during(config, () -> "created"));
  }
}
