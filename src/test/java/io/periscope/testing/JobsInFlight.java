package io.periscope.testing;

import static org.junit.Assert.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The jobs a fake job runner (of run-alls, of backtests) was handed, one at a time: the test drives
 * the job's progress and finishes its result itself.
 *
 * @param <P> how the job reports its progress
 * @param <R> the job's result
 */
public final class JobsInFlight<P, R> {

  /** A job in flight: its progress and its result, finished by the test. */
  public record InFlight<P, R>(P progress, CompletableFuture<R> result) {}

  private final AtomicReference<InFlight<P, R>> current = new AtomicReference<>();

  /** What the fake runner does with a job: keeps it and answers its result, not finished yet. */
  public CompletableFuture<R> started(P progress) {
    var result = new CompletableFuture<R>();
    current.set(new InFlight<>(progress, result));
    return result;
  }

  /** The job started since the last one was taken (waits up to 5 s), taken. */
  public InFlight<P, R> awaitStarted() throws InterruptedException {
    for (int i = 0; i < 500 && current.get() == null; i++) Thread.sleep(10);
    InFlight<P, R> run = current.getAndSet(null);
    if (run == null) throw new AssertionError("the job did not start");
    return run;
  }

  /** Forgets a job started and not taken. */
  public void forget() {
    current.set(null);
  }

  /**
   * Starts {@code count} jobs one after another with {@code start} (answering a job's id), each
   * finished with {@code result} and awaited until its {@code status} reads {@code done}; answers
   * their ids.
   */
  public List<String> runInTurn(
      int count, Callable<String> start, R result, Function<String, String> status, String done)
      throws Exception {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      forget();
      String id = start.call();
      awaitStarted().result().complete(result);
      awaitStatus(() -> status.apply(id), done);
      ids.add(id);
    }
    return ids;
  }

  /** Waits up to 5 s for a job's {@code status} to read {@code expected}, then asserts it does. */
  public static void awaitStatus(Supplier<String> status, String expected)
      throws InterruptedException {
    for (int i = 0; i < 500 && !status.get().equals(expected); i++) Thread.sleep(10);
    assertEquals(expected, status.get());
  }
}
