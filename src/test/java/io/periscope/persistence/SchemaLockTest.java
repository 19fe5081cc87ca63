package io.periscope.persistence;

import static org.junit.Assert.assertEquals;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.periscope.testing.ScratchDatabase;
import io.periscope.testing.TestJournals;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.Test;

/** Nodes starting together create the schema one at a time on PostgreSQL. */
public class SchemaLockTest {
  @Test
  public void schemaCreationIsOneProcessAtATimeOnPostgres() throws Exception {
    ScratchDatabase database = TestJournals.postgresDatabase();
    Config config = ConfigFactory.parseMap(Map.of("periscope.database.url", database.url(),
        "periscope.database.user", database.user(), "periscope.database.password", ""));
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger mostInside = new AtomicInteger();
    ExecutorService nodes = Executors.newFixedThreadPool(4);
    try {
      List<Future<Integer>> creations = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        creations.add(nodes.submit(() -> SchemaLock.during(config, () -> {
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

  /**
   * The journal's scripts build an index CONCURRENTLY, which waits for every open transaction: a node waiting for
   * the lock must not be one, or the holder never finishes.
   */
  @Test
  public void aNodeWaitingForTheLockDoesNotBlockTheHoldersConcurrentIndex() throws Exception {
    ScratchDatabase database = TestJournals.postgresDatabase();
    Config config = ConfigFactory.parseMap(Map.of("periscope.database.url", database.url(),
        "periscope.database.user", database.user(), "periscope.database.password", ""));
    String table = "schema_lock_" + Long.toHexString(System.nanoTime());
    ExecutorService nodes = Executors.newFixedThreadPool(2);
    try {
      java.util.concurrent.CountDownLatch holding = new java.util.concurrent.CountDownLatch(1);
      Future<Object> holder = nodes.submit(() -> SchemaLock.during(config, () -> {
        holding.countDown();
        Thread.sleep(500); // the other node is waiting for the lock by now
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(database.url(), database.user(), "");
             java.sql.Statement s = c.createStatement()) {
          s.execute("CREATE TABLE " + table + " (tag VARCHAR(64))");
          s.execute("CREATE INDEX CONCURRENTLY " + table + "_idx ON " + table + " (tag)");
        }
        return null;
      }));
      holding.await();
      Future<String> waiter = nodes.submit(() -> SchemaLock.during(config, () -> "created"));
      holder.get(20, java.util.concurrent.TimeUnit.SECONDS);
      assertEquals("created", waiter.get(20, java.util.concurrent.TimeUnit.SECONDS));
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
