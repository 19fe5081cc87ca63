package io.periscope.bench;

import com.typesafe.config.Config;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.dispatch.DispatcherPrerequisites;
import org.apache.pekko.dispatch.Envelope;
import org.apache.pekko.dispatch.ExecutorServiceConfigurator;
import org.apache.pekko.dispatch.ExecutorServiceFactory;
import org.apache.pekko.dispatch.ForkJoinExecutorConfigurator;
import org.apache.pekko.dispatch.MailboxType;
import org.apache.pekko.dispatch.MessageQueue;
import org.apache.pekko.dispatch.TaskInvocation;
import org.apache.pekko.dispatch.UnboundedMailbox;
import scala.Option;

/**
 * What the actor side of a run does, counted ({@code --count} in the in-process benches): every
 * message an actor's mailbox takes (classic and typed), by its class; every task the default
 * dispatcher runs that is not an actor's turn (a future's callback, a scheduled task), by its
 * class; and every timer the scheduler is given ({@link CountingScheduler}; an ask's timeout is
 * one, cancelled when answered), by what it runs. An ask's answer completes its promise where it is
 * sent: no mailbox counts it.
 */
final class DispatcherCounts {
  static final Map<String, LongAdder> MESSAGES = new ConcurrentHashMap<>();
  static final Map<String, LongAdder> TASKS = new ConcurrentHashMap<>();

  private DispatcherCounts() {}

  /** The settings that count: the default mailbox, dispatcher and scheduler replaced. */
  static Map<String, Object> settings() {
    return Map.of(
        "pekko.actor.default-mailbox.mailbox-type",
        Mailbox.class.getName(),
        "pekko.actor.typed.default-mailbox.mailbox-type",
        Mailbox.class.getName(),
        "pekko.actor.default-dispatcher.executor",
        Executor.class.getName(),
        "pekko.scheduler.implementation",
        CountingScheduler.class.getName());
  }

  /** Every count so far, by kind and name. */
  static Map<String, Long> snapshot() {
    Map<String, Long> all = new TreeMap<>();
    MESSAGES.forEach((k, n) -> all.put("message " + k, n.sum()));
    TASKS.forEach((k, n) -> all.put("task " + k, n.sum()));
    CountingScheduler.SCHEDULED.forEach((k, n) -> all.put("timer " + k, n.sum()));
    return all;
  }

  /** What was counted since {@code before}, per run of {@code runs}, largest first. */
  static String perRun(Map<String, Long> before, int runs) {
    Map<String, Long> now = snapshot();
    StringBuilder out = new StringBuilder();
    now.entrySet().stream()
        .map(e -> Map.entry(e.getKey(), e.getValue() - before.getOrDefault(e.getKey(), 0L)))
        .filter(e -> e.getValue() * 20 >= runs)
        .sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
        .forEach(
            e ->
                out.append(
                    InProcessRuns.format(
                        "count %6.2f %s%n", e.getValue() / (double) runs, e.getKey())));
    return out.toString();
  }

  private static void count(Map<String, LongAdder> counts, Object what) {
    String name = what.getClass().getName().replaceAll("\\$\\$Lambda.*|[0-9]+$", "");
    counts.computeIfAbsent(name, k -> new LongAdder()).increment();
  }

  /** The default mailbox, counting each message it takes. */
  public static final class Mailbox implements MailboxType {
    public Mailbox(ActorSystem.Settings settings, Config config) {}

    @Override
    public MessageQueue create(Option<ActorRef> owner, Option<ActorSystem> system) {
      return new UnboundedMailbox.MessageQueue() {
        @Override
        public void enqueue(ActorRef receiver, Envelope handle) {
          count(MESSAGES, handle.message());
          super.enqueue(receiver, handle);
        }
      };
    }
  }

  /** The default dispatcher's fork-join pool, counting each task that is not an actor's turn. */
  public static final class Executor extends ExecutorServiceConfigurator {
    private final ForkJoinExecutorConfigurator pool;

    public Executor(Config config, DispatcherPrerequisites prerequisites) {
      super(config, prerequisites);
      pool =
          new ForkJoinExecutorConfigurator(config.getConfig("fork-join-executor"), prerequisites);
    }

    @Override
    public ExecutorServiceFactory createExecutorServiceFactory(String id, ThreadFactory threads) {
      ExecutorServiceFactory made = pool.createExecutorServiceFactory(id, threads);
      return () -> new Counted(made.createExecutorService());
    }
  }

  private static final class Counted extends AbstractExecutorService {
    private final ExecutorService pool;

    Counted(ExecutorService pool) {
      this.pool = pool;
    }

    @Override
    public void execute(Runnable task) {
      if (!(task instanceof org.apache.pekko.dispatch.Mailbox))
        count(TASKS, task instanceof TaskInvocation t ? t.runnable() : task);
      pool.execute(task);
    }

    @Override
    public void shutdown() {
      pool.shutdown();
    }

    @Override
    public java.util.List<Runnable> shutdownNow() {
      return pool.shutdownNow();
    }

    @Override
    public boolean isShutdown() {
      return pool.isShutdown();
    }

    @Override
    public boolean isTerminated() {
      return pool.isTerminated();
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
      return pool.awaitTermination(timeout, unit);
    }
  }
}
