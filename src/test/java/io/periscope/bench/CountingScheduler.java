package io.periscope.bench;

import com.typesafe.config.Config;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.LongAdder;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.Cancellable;
import org.apache.pekko.actor.LightArrayRevolverScheduler;
import org.apache.pekko.event.LoggingAdapter;
import scala.concurrent.ExecutionContext;
import scala.concurrent.duration.FiniteDuration;

/**
 * Which timers wake an idle node, and how often: Pekko's scheduler that counts every task it runs
 * by what it does (the receiving actor's path and the message, or a timer's key; numbers left out
 * so that the 20 shard regions' retries count as one line) and prints the counts of each minute to
 * standard error. Every timer of Pekko's, an actor's or a stream's, goes through the system's
 * scheduler:
 *
 * <pre>
 * DATA_DIR=$(mktemp -d) PORT=0 REMOTE_PORT=0 AUTH_JWT_SECRET=schedule-bench-secret-of-32-bytes-at-least \
 *   java -Xmx512m -Dpekko.scheduler.implementation=io.periscope.bench.CountingScheduler \
 *   -cp "target/periscope.jar:target/test-classes" io.periscope.Main 2&gt;&amp;1 | grep timers
 * </pre>
 */
public final class CountingScheduler extends LightArrayRevolverScheduler {
  /**
   * Every task given to a scheduler of this process, by its class: what {@link DispatcherCounts}
   * shows.
   */
  static final Map<String, LongAdder> SCHEDULED = new ConcurrentHashMap<>();

  private final Map<String, LongAdder> runs = new ConcurrentHashMap<>();

  public CountingScheduler(Config config, LoggingAdapter log, ThreadFactory threadFactory) {
    super(config, log, threadFactory);
    Thread printer =
        new Thread(
            () -> {
              try {
                for (int minute = 1; ; minute++) {
                  Thread.sleep(60_000);
                  Map<String, Long> counts = new TreeMap<>();
                  runs.forEach((what, n) -> counts.put(what, n.sumThenReset()));
                  long all = counts.values().stream().mapToLong(Long::longValue).sum();
                  StringBuilder out = new StringBuilder();
                  out.append("timers minute ").append(minute).append(": ").append(all);
                  counts.entrySet().stream()
                      .filter(e -> e.getValue() > 0)
                      .sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
                      .forEach(
                          e ->
                              out.append("\ntimers   ")
                                  .append(e.getValue())
                                  .append(' ')
                                  .append(e.getKey()));
                  System.err.println(out);
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "timer-counts");
    printer.setDaemon(true);
    printer.start();
  }

  @Override
  public Cancellable scheduleOnce(FiniteDuration delay, Runnable task, ExecutionContext executor) {
    return super.scheduleOnce(delay, counted(task), executor);
  }

  @Override
  public Cancellable schedule(
      FiniteDuration initialDelay, FiniteDuration delay, Runnable task, ExecutionContext executor) {
    return super.schedule(initialDelay, delay, counted(task), executor);
  }

  private Runnable counted(Runnable task) {
    SCHEDULED
        .computeIfAbsent(task.getClass().getName().replaceAll("[0-9]+", "#"), k -> new LongAdder())
        .increment();
    LongAdder count = runs.computeIfAbsent(describe(task, 0), what -> new LongAdder());
    return () -> {
      count.increment();
      task.run();
    };
  }

  /** The class of the object an inner object belongs to (a stage's logic, for its callback). */
  private static String outer(Object inner) {
    for (Class<?> c = inner.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
      for (Field f : c.getDeclaredFields()) {
        if (!f.getName().startsWith("$outer")) continue;
        try {
          f.setAccessible(true);
          Object o = f.get(inner);
          return o == null ? "" : o.getClass().getName().replaceAll("[0-9]+", "#") + ' ';
        } catch (RuntimeException | IllegalAccessException e) {
          return "";
        }
      }
    }
    return "";
  }

  /** The receiver and the message a task captured, or its class when it captured none. */
  private static String describe(Object task, int depth) {
    StringBuilder what = new StringBuilder();
    for (Class<?> c = task.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
      for (Field f : c.getDeclaredFields()) {
        if (Modifier.isStatic(f.getModifiers())) continue;
        Object value;
        try {
          f.setAccessible(true);
          value = f.get(task);
        } catch (RuntimeException | IllegalAccessException e) {
          continue;
        }
        if (value instanceof ActorRef ref) {
          what.append(ref.path().toStringWithoutAddress().replaceAll("[0-9]+|\\$[a-zA-Z]+", "#"))
              .append(' ');
        } else if ((value instanceof Runnable || f.getName().startsWith("$outer"))
            && !(value instanceof org.apache.pekko.actor.Scheduler)
            && depth < 4) {
          what.append(describe(value, depth + 1));
        } else if (value != null && f.getName().startsWith("message")) {
          what.append(value.toString().replaceAll("[0-9]+", "#")).append(' ');
        } else if (value != null && f.getName().startsWith("arg$")) {
          // a lambda's captures: the stage or actor whose timer it is
          what.append(value.getClass().getName().replaceAll("[0-9]+", "#")).append(' ');
          what.append(outer(value));
        }
      }
    }
    return what.isEmpty() ? task.getClass().getName().replaceAll("[0-9]+", "#") : what.toString();
  }
}
