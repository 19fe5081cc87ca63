package io.periscope.watch;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the node holding the scheduler saw at its last tick: how many watches were due and how long
 * the longest-waiting one has been due. A watch whose due time passes without a run stays due, so
 * {@code periscope_scheduler_oldest_due_seconds} grows until it runs: the alert "no runs for a
 * watch past its schedule" reads it. A node that does not hold the scheduler shows 0 and no tick.
 */
final class SchedulerMeters {
  private final AtomicLong due = new AtomicLong();
  private final AtomicLong oldestDueMillis = new AtomicLong();
  private final AtomicLong lastTickMillis = new AtomicLong();

  SchedulerMeters(MeterRegistry registry) {
    Gauge.builder("periscope.scheduler.due.watches", due, AtomicLong::get)
        .description("Watches due at the scheduler's last tick (up to its batch)")
        .register(registry);
    Gauge.builder("periscope.scheduler.oldest.due", oldestDueMillis, ms -> ms.get() / 1000.0)
        .description("How long the longest-waiting due watch had been due at the last tick")
        .baseUnit("seconds")
        .register(registry);
    Gauge.builder(
            "periscope.scheduler.last.tick.timestamp", lastTickMillis, ms -> ms.get() / 1000.0)
        .description("When the scheduler last read its due watches (seconds since the epoch)")
        .baseUnit("seconds")
        .register(registry);
  }

  /** A tick at {@code now} read {@code dueWatches}. */
  void ticked(Instant now, List<WakeUpIndex.Due> dueWatches) {
    due.set(dueWatches.size());
    long oldest =
        dueWatches.stream()
            .map(d -> Duration.between(d.at(), now).toMillis())
            .max(Long::compare)
            .orElse(0L);
    oldestDueMillis.set(Math.max(0, oldest));
    lastTickMillis.set(System.currentTimeMillis());
  }

  /** The scheduler left this node (another holds it now). */
  void stopped() {
    due.set(0);
    oldestDueMillis.set(0);
    lastTickMillis.set(0);
  }
}
