package io.periscope.net;

import java.time.Duration;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.Dispatcher;

/**
 * How many asynchronous upstream calls run at once. OkHttp's default of 5 per host would queue
 * every run's model call behind four others (one provider host takes all verdicts), and run-all or
 * a busy minute of schedules would wait on that queue instead of the upstream.
 */
public final class UpstreamDispatcher {
  public static final int MAX_CALLS = 512;
  public static final int MAX_CALLS_PER_HOST = 128;

  /**
   * How long an idle call thread waits for the next call. Watches due every minute (the shortest
   * interval) make a burst of calls each minute: at OkHttp's 60 s the threads of one burst timed
   * out just as the next began, and it started them again (a thread, its stack and its first call's
   * cold paths each minute, for tens of runs a minute). Five minutes, as the connections are kept
   * ({@link ConnectionPools}), spans the minute with room for a late tick.
   */
  static final Duration THREAD_KEEP_ALIVE = Duration.ofMinutes(5);

  private UpstreamDispatcher() {}

  /**
   * A dispatcher on daemon threads named {@code periscope-<name>-N}, so calls in flight never hold
   * the JVM up.
   */
  public static Dispatcher create(String name) {
    AtomicInteger count = new AtomicInteger();
    Dispatcher dispatcher =
        new Dispatcher(
            new ThreadPoolExecutor(
                0,
                Integer.MAX_VALUE,
                THREAD_KEEP_ALIVE.toSeconds(),
                TimeUnit.SECONDS,
                new SynchronousQueue<>(),
                runnable -> {
                  Thread thread =
                      new Thread(runnable, "periscope-" + name + "-" + count.incrementAndGet());
                  thread.setDaemon(true);
                  return thread;
                }));
    dispatcher.setMaxRequests(MAX_CALLS);
    dispatcher.setMaxRequestsPerHost(MAX_CALLS_PER_HOST);
    return dispatcher;
  }
}
