package io.periscope.bench;

import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.pekko.actor.ActorSystem;

/**
 * What a coarser scheduler tick costs a timer: {@code --timers} (600) one-off timers of Pekko's
 * scheduler, one every 50 ms, each with a delay of 100 ms to 2 s, on an actor system of its own for
 * each {@code --ticks} (10,50,100 ms), and how late each fired after its delay, p50, p99 and the
 * most, in milliseconds:
 *
 * <pre>
 * java -cp "target/periscope.jar:target/test-classes" io.periscope.bench.TimerLateness --ticks 50,100
 * </pre>
 */
final class TimerLateness {
  private TimerLateness() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> options = Map.of();
    if (args.length > 0) options = Map.of(args[0], args[1]);
    int timers = Integer.parseInt(options.getOrDefault("--timers", "600"));
    for (String tick : options.getOrDefault("--ticks", "10,50,100").split(",")) {
      ActorSystem system =
          ActorSystem.create(
              "lateness",
              ConfigFactory.parseMap(Map.of("pekko.scheduler.tick-duration", tick + "ms")));
      try {
        double[] late = new double[timers];
        CountDownLatch fired = new CountDownLatch(timers);
        for (int i = 0; i < timers; i++) {
          int n = i;
          long delay = ThreadLocalRandom.current().nextLong(100, 2_000);
          long due = System.nanoTime() + delay * 1_000_000;
          system
              .scheduler()
              .scheduleOnce(
                  Duration.ofMillis(delay),
                  () -> {
                    late[n] = (System.nanoTime() - due) / 1e6;
                    fired.countDown();
                  },
                  system.dispatcher());
          Thread.sleep(50);
        }
        fired.await();
        Arrays.sort(late);
        System.out.printf(
            Locale.ROOT,
            "tick %s ms: %d timers late p50 %.1f p99 %.1f max %.1f ms%n",
            tick,
            timers,
            late[timers / 2],
            late[timers * 99 / 100],
            late[timers - 1]);
      } finally {
        system.terminate();
        system.getWhenTerminated().toCompletableFuture().join();
      }
    }
  }
}
