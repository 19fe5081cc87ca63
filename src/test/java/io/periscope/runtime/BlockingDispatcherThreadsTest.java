package io.periscope.runtime;

import static org.junit.Assert.assertEquals;

import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.Test;

/**
 * The blocking dispatchers (Pekko's, and the wake-up projection's JDBC one) keep their threads
 * between bursts of work (the scheduler's reads, a minute's runs) instead of ending them and
 * starting others, and still end them when the system terminates. The gap is 3 s, past Pekko's own
 * 1 s shutdown-timeout, which ended every thread of the pool.
 */
public class BlockingDispatcherThreadsTest {
  private static final String NAME = "blocking-threads";
  private static final List<String> DISPATCHERS =
      List.of(
          "pekko.actor.default-blocking-io-dispatcher",
          "pekko.projection.jdbc.blocking-jdbc-dispatcher");

  @Test
  public void threadsOfOneBurstServeTheNextAndEndWithTheSystem() throws Exception {
    ActorSystem<Void> system =
        ActorSystem.create(
            Behaviors.empty(),
            NAME,
            ConfigFactory.parseString(
                    "pekko.actor.provider = local\npekko.coordinated-shutdown.exit-jvm = off")
                .withFallback(ConfigFactory.parseResources("periscope.conf"))
                .withFallback(ConfigFactory.load())
                .resolve());
    try {
      Set<Thread> first = new HashSet<>();
      for (String id : DISPATCHERS) first.addAll(burst(system, id));
      Thread.sleep(3_000);
      for (String id : DISPATCHERS) burst(system, id);
      assertEquals(
          DISPATCHERS.size(),
          first.stream().map(BlockingDispatcherThreadsTest::dispatcherOf).distinct().count());
      assertEquals(
          "the first burst's threads still there",
          Set.of(),
          first.stream().filter(t -> !t.isAlive()).collect(Collectors.toSet()));
    } finally {
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
    long deadline = System.nanoTime() + Duration.ofSeconds(3).toNanos();
    while (System.nanoTime() < deadline && !blockingThreads().isEmpty()) Thread.sleep(50);
    assertEquals(Set.of(), blockingThreads());
  }

  /** Eight tasks at once on the dispatcher; the threads they ran on. */
  private static Set<Thread> burst(ActorSystem<?> system, String id) {
    var blocking = system.dispatchers().lookup(DispatcherSelector.fromConfig(id));
    List<CompletableFuture<Thread>> ran = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      ran.add(
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  Thread.sleep(100);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
                return Thread.currentThread();
              },
              blocking));
    }
    return ran.stream().map(CompletableFuture::join).collect(Collectors.toSet());
  }

  private static Set<Thread> blockingThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> dispatcherOf(t) != null)
        .filter(Thread::isAlive)
        .collect(Collectors.toSet());
  }

  /** The dispatcher a thread belongs to, by its name: "<system>-<dispatcher id>-N". */
  private static String dispatcherOf(Thread t) {
    return DISPATCHERS.stream()
        .filter(id -> t.getName().startsWith(NAME + "-" + id + "-"))
        .findFirst()
        .orElse(null);
  }
}
