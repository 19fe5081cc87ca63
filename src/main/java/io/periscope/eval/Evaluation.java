package io.periscope.eval;

import io.periscope.entity.Failures;
import io.periscope.llm.ModelUsage;
import io.periscope.llm.PooledModel;
import io.periscope.llm.Verdict;
import io.periscope.llm.VerdictPrompt;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Judges labelled cases as a run judges its items: the same prompt ({@link VerdictPrompt}), the
 * same model client, the same second try after an unusable answer ({@link PooledModel}). At most
 * {@code concurrency} cases are asked at once. A case whose question fails is a result with its
 * error, never a failure of the whole.
 */
public final class Evaluation {
  /**
   * One case judged: the verdict and the keys of the items it cites, or the error that stopped it;
   * how long its question took (a second try included) and what all its calls took.
   */
  public record Result(
      EvalCase evalCase,
      Verdict verdict,
      List<String> citedKeys,
      Duration latency,
      ModelUsage usage,
      String error) {
    public boolean answered() {
      return verdict != null;
    }
  }

  private final PooledModel model;
  private final int concurrency;

  public Evaluation(PooledModel model, int concurrency) {
    if (concurrency < 1) throw new IllegalArgumentException("concurrency must be at least 1");
    this.model = model;
    this.concurrency = concurrency;
  }

  /**
   * Every case's result, in the cases' order; {@code done} hears each as it finishes (from any
   * thread).
   */
  public CompletionStage<List<Result>> run(List<EvalCase> cases, Consumer<Result> done) {
    Result[] results = new Result[cases.size()];
    AtomicInteger next = new AtomicInteger();
    List<CompletableFuture<Void>> workers = new ArrayList<>();
    for (int w = 0; w < Math.min(concurrency, cases.size()); w++)
      workers.add(work(cases, next, results, done).toCompletableFuture());
    return CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new))
        .thenApply(all -> Arrays.asList(results));
  }

  /** Takes the next case until none is left. */
  private CompletionStage<Void> work(
      List<EvalCase> cases, AtomicInteger next, Result[] results, Consumer<Result> done) {
    int i = next.getAndIncrement();
    if (i >= cases.size()) return CompletableFuture.completedFuture(null);
    return judge(cases.get(i))
        .thenCompose(
            result -> {
              results[i] = result;
              done.accept(result);
              return work(cases, next, results, done);
            });
  }

  private CompletionStage<Result> judge(EvalCase c) {
    VerdictPrompt prompt = VerdictPrompt.build(c.condition(), c.candidates());
    AtomicReference<ModelUsage> usage = new AtomicReference<>(ModelUsage.NONE);
    long start = System.nanoTime();
    return model
        .ask(
            prompt.prompt(),
            prompt::parse,
            consulted -> {},
            call -> usage.accumulateAndGet(call, ModelUsage::plus))
        .handle(
            (answer, failure) -> {
              Duration latency = Duration.ofNanos(System.nanoTime() - start);
              if (failure != null)
                return new Result(c, null, List.of(), latency, usage.get(), problem(failure));
              Verdict verdict = answer.value();
              List<String> cited =
                  c.keysOf(verdict.evidence().stream().map(Verdict.Evidence::url).toList());
              return new Result(c, verdict, cited, latency, usage.get(), null);
            });
  }

  /** What went wrong, as the service words it (never a key: provider failures name none). */
  private static String problem(Throwable failure) {
    Throwable cause = Failures.unwrap(failure);
    return cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
  }
}
