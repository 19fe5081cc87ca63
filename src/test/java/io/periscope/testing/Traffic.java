package io.periscope.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Clients that each repeat a step, on threads of their own, until {@link #stop}: the load a test
 * keeps on a cluster while it restarts or upgrades its nodes.
 */
public final class Traffic {
  /** One step of client {@code client} (0, 1, ...), its {@code i}th. */
  public interface Step {
    void run(int client, int i) throws Exception;
  }

  private final AtomicBoolean going = new AtomicBoolean(true);
  private final ExecutorService threads;
  private final List<Future<?>> loops = new ArrayList<>();

  private Traffic(int clients, Step step) {
    threads = Executors.newFixedThreadPool(clients);
    for (int c = 0; c < clients; c++) {
      int client = c;
      loops.add(
          threads.submit(
              () -> {
                for (int i = 0; going.get(); i++) step.run(client, i);
                return null;
              }));
    }
  }

  public static Traffic start(int clients, Step step) {
    return new Traffic(clients, step);
  }

  /** Lets each client finish its step and stop; throws what a step threw. */
  public void stop() throws Exception {
    going.set(false);
    try {
      for (Future<?> loop : loops) loop.get();
    } finally {
      threads.shutdown();
    }
  }
}
