package io.periscope.source;

import io.periscope.net.SafeHttp;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One node's bound on what feed and page collection holds at once, shared by every run on the node:
 * at most {@code fetchesPerNode} bodies (each at most its byte limit) from the request until their
 * parse is done, and at most {@code parsesPerNode} parses running, on threads of their own (a parse
 * is CPU work; it does not hold the HTTP client's threads). So collection holds at most about
 * {@code fetchesPerNode × max bytes + parsesPerNode × one parse's tree}, whatever the number of
 * runs or their sources.
 */
public final class CollectionBudget {
  private final CollectionLimits limits;
  private final Permits fetches;
  private final ExecutorService parses;

  public CollectionBudget(CollectionLimits limits) {
    this.limits = limits;
    this.fetches = new Permits(limits.fetchesPerNode());
    AtomicInteger count = new AtomicInteger();
    this.parses =
        Executors.newFixedThreadPool(
            limits.parsesPerNode(),
            runnable -> {
              Thread thread = new Thread(runnable, "periscope-parse-" + count.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
  }

  public CollectionLimits limits() {
    return limits;
  }

  /**
   * Fetches under a fetch permit and parses the answer on a parse thread; the permit is held until
   * the parse is done, since the body stays in memory until then.
   */
  public <T> CompletionStage<T> fetchAndParse(
      Supplier<CompletionStage<SafeHttp.Response>> fetch, Function<SafeHttp.Response, T> parse) {
    return fetches.with(() -> fetch.get().thenApplyAsync(parse, parses));
  }

  /** Fetches holding a permit now (the benchmark reports it). */
  public int fetchesInFlight() {
    return fetches.taken();
  }
}
