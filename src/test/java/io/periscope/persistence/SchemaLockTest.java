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

  @Test
  public void theEmbeddedJournalNeedsNoLock() throws Exception {
    Config config = ConfigFactory.parseMap(Map.of("periscope.database.url", ""));
    assertEquals("created", SchemaLock.during(config, () -> "created"));
  }
}
