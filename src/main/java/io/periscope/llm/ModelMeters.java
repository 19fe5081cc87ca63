package io.periscope.llm;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.periscope.entity.Failures;
import io.periscope.keys.KeyPools;
import io.periscope.metrics.Metrics;
import io.periscope.metrics.RegisteredMeters;
import io.periscope.provider.ProviderFailure;
import java.util.Locale;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * Model calls by model ({@code provider:model}, as the operator configured it: a bounded label) and
 * result, their latency, and the tokens they took in and out (an unusable answer's too). One call
 * is one request to the provider: a question retried on another key or asked again after an
 * unusable answer is several.
 */
public final class ModelMeters {
  private final MeterRegistry registry;
  private final RegisteredMeters<Timer> calls;
  private final RegisteredMeters<Counter> tokens;

  public ModelMeters(MeterRegistry registry) {
    this.registry = registry;
    this.calls =
        new RegisteredMeters<>(
            tags ->
                Timer.builder("periscope.model.calls")
                    .description("Calls to a model, by model and result, with their latency")
                    .tag("model", tags.get(0))
                    .tag("result", tags.get(1))
                    .serviceLevelObjectives(Metrics.FAST_BUCKETS)
                    .register(registry));
    this.tokens =
        new RegisteredMeters<>(
            tags ->
                Counter.builder("periscope.model.tokens")
                    .description(
                        "Tokens the provider counted, by model and direction (in: prompt, out:"
                            + " answer)")
                    .tag("model", tags.get(0))
                    .tag("direction", tags.get(1))
                    .register(registry));
  }

  /** {@code call} measured as one call to {@code model}. */
  CompletionStage<ModelClient.Completion> measured(
      String model, CompletionStage<ModelClient.Completion> call) {
    long start = System.nanoTime();
    return call.whenComplete(
        (completion, failure) -> {
          calls
              .get(model, failure == null ? "ok" : result(Failures.unwrap(failure)))
              .record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
          ModelClient.Usage usage =
              completion != null
                  ? completion.usage()
                  : Failures.unwrap(failure) instanceof InvalidModelOutput invalid
                      ? invalid.usage()
                      : ModelClient.Usage.UNKNOWN;
          tokens.get(model, "in").increment(usage.in());
          tokens.get(model, "out").increment(usage.out());
        });
  }

  /** A call that did not reach the provider: no usable key in the pool. */
  void noKey(String model) {
    Counter.builder("periscope.model.no.key")
        .description("Questions to a model that found no usable key in the pool")
        .tag("model", model)
        .register(registry)
        .increment();
  }

  /** A closed set: {@code invalid-output}, a provider failure's kind, or {@code error}. */
  static String result(Throwable failure) {
    if (failure instanceof InvalidModelOutput) return "invalid-output";
    if (failure instanceof ProviderFailure p)
      return p.kind().name().toLowerCase(Locale.ROOT).replace('_', '-');
    if (failure instanceof KeyPools.NoUsableKey) return "no-key";
    return "error";
  }
}
