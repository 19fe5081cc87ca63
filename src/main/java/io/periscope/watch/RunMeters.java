package io.periscope.watch;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.periscope.metrics.Metrics;
import io.periscope.metrics.RegisteredMeters;
import io.periscope.source.SourceError;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The meters of runs, recorded when a watch records a run (never while its journal is replayed).
 * Labels come from closed sets: a trigger, an outcome, a source error's kind; never a watch, an
 * owner or a URL.
 */
final class RunMeters {
  static final Set<String> TRIGGERS =
      Set.of(RunRecord.TRIGGER_MANUAL, RunRecord.TRIGGER_RUN_ALL, RunRecord.TRIGGER_SCHEDULE);
  static final Set<String> SOURCE_ERROR_KINDS =
      Set.of(
          "refused",
          "unreachable",
          "http",
          "not-a-feed",
          "too-large",
          "provider",
          "not-configured");

  private final Timer lateness;
  private final RegisteredMeters<Counter> runs;
  private final RegisteredMeters<Timer> durations;
  private final Timer dueToVerdict;
  private final Counter collected;
  private final Counter fresh;
  private final RegisteredMeters<Counter> sourceErrors;

  /*
   * Each meter is built and registered once a node, not found again by its builder at every run
   * (its id built and its tags sorted each time): one instance a registry, shared by the watches.
   */
  private RunMeters(MeterRegistry registry) {
    this.lateness =
        timer("periscope.scheduler.lateness", "Time from a watch's due time to its run's start")
            .register(registry);
    this.runs =
        new RegisteredMeters<>(
            tags ->
                Counter.builder("periscope.runs")
                    .description("Runs recorded, by trigger and outcome")
                    .tag("trigger", tags.get(0))
                    .tag("outcome", tags.get(1))
                    .register(registry));
    this.durations =
        new RegisteredMeters<>(
            tags ->
                timer("periscope.run.duration", "How long runs took, from start to verdict")
                    .tag("trigger", tags.get(0))
                    .register(registry));
    this.dueToVerdict =
        timer("periscope.run.due.to.verdict", "Time from a scheduled run's due time to its verdict")
            .register(registry);
    this.collected =
        Counter.builder("periscope.items.collected")
            .description("Items collected by runs (distinct per run)")
            .register(registry);
    this.fresh =
        Counter.builder("periscope.items.fresh")
            .description("Items runs found fresh (not judged or set aside before)")
            .register(registry);
    this.sourceErrors =
        new RegisteredMeters<>(
            tags ->
                Counter.builder("periscope.source.errors")
                    .description("Sources that yielded nothing in a run, by kind")
                    .tag("kind", tags.get(0))
                    .register(registry));
  }

  /** This node's run meters. */
  static RunMeters of(Metrics metrics) {
    return metrics.holder(RunMeters.class, RunMeters::new);
  }

  /** A scheduled run due at {@code due} started at {@code startedAt}. */
  void started(Instant due, Instant startedAt) {
    lateness.record(nonNegative(due, startedAt));
  }

  /**
   * {@code record} was recorded at {@code now}; {@code due} is the due time of a scheduled run,
   * else null.
   */
  void recorded(RunRecord record, Instant due, Instant now) {
    String trigger = bounded(record.trigger(), TRIGGERS);
    runs.get(trigger, bounded(record.outcome(), RunRecord.OUTCOMES)).increment();
    durations.get(trigger).record(Math.max(0, record.durationMs()), TimeUnit.MILLISECONDS);
    if (due != null) dueToVerdict.record(nonNegative(due, now));
    collected.increment(record.collected());
    fresh.increment(record.fresh());
    if (record.sourceErrors() != null) {
      for (SourceError error : record.sourceErrors())
        sourceErrors.get(bounded(error.kind(), SOURCE_ERROR_KINDS)).increment();
    }
  }

  private static Timer.Builder timer(String name, String description) {
    return Timer.builder(name)
        .description(description)
        .serviceLevelObjectives(Metrics.SLOW_BUCKETS);
  }

  private static Duration nonNegative(Instant from, Instant to) {
    Duration d = Duration.between(from, to);
    return d.isNegative() ? Duration.ZERO : d;
  }

  /** {@code value} when it is one of {@code known}, else {@code other}: a label stays bounded. */
  static String bounded(String value, Set<String> known) {
    return value != null && known.contains(value) ? value : "other";
  }
}
