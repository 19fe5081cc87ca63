package io.periscope.persistence;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.periscope.metrics.Metrics;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.ClassicActorSystemProvider;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import scala.concurrent.ExecutionContext;
import scala.concurrent.Future;
import scala.runtime.BoxedUnit;

/**
 * Journal writes: every batch the journal plugin writes, timed whether it succeeds or fails, and
 * the failed ones counted ({@code periscope_journal_write_failures_total}). A failed batch fails
 * every persist in it: the entities restart with backoff and their callers see a timeout or an
 * error.
 */
final class JournalMeters {
  private final Timer ok;
  private final Timer failed;
  private final Counter failures;
  private final Counter events;

  private JournalMeters(MeterRegistry registry) {
    this.ok = timer(registry, "ok");
    this.failed = timer(registry, "failed");
    this.failures =
        Counter.builder("periscope.journal.write.failures")
            .description("Journal write batches the database refused or that failed")
            .register(registry);
    this.events =
        Counter.builder("periscope.journal.events.written")
            .description("Events written to the journal")
            .register(registry);
  }

  static JournalMeters of(ClassicActorSystemProvider system) {
    return Metrics.get(Adapter.toTyped(system.classicSystem()))
        .holder(JournalMeters.class, JournalMeters::new);
  }

  /** {@code write}, a batch of {@code size} events, measured. */
  Future<BoxedUnit> measured(int size, Future<BoxedUnit> write, ExecutionContext ec) {
    long start = System.nanoTime();
    write.onComplete(
        result -> {
          long took = System.nanoTime() - start;
          if (result.isSuccess()) {
            ok.record(took, TimeUnit.NANOSECONDS);
            events.increment(size);
          } else {
            failed.record(took, TimeUnit.NANOSECONDS);
            failures.increment();
          }
          return BoxedUnit.UNIT;
        },
        ec);
    return write;
  }

  private static Timer timer(MeterRegistry registry, String result) {
    return Timer.builder("periscope.journal.write")
        .description("Journal write batches, by result, with their latency")
        .tag("result", result)
        .serviceLevelObjectives(Metrics.FAST_BUCKETS)
        .register(registry);
  }
}
