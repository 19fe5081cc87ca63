package io.periscope.metrics;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotSame;
import static org.junit.Assert.assertSame;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.Test;

public class RegisteredMetersTest {
  @Test
  public void registersEachTagCombinationOnceAndCountsInTheRegistry() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    AtomicInteger built = new AtomicInteger();
    RegisteredMeters<Counter> counters =
        new RegisteredMeters<>(
            tags -> {
              built.incrementAndGet();
              return Counter.builder("test.things")
                  .tag("kind", tags.get(0))
                  .tag("result", tags.get(1))
                  .register(registry);
            });

    Counter ok = counters.get("webhook", "ok");
    for (int i = 0; i < 4; i++) counters.get("webhook", "ok").increment();
    counters.get("webhook", "failed").increment();

    assertSame(ok, counters.get("webhook", "ok"));
    assertNotSame(ok, counters.get("webhook", "failed"));
    assertEquals(2, built.get());
    assertEquals(
        4.0,
        registry.get("test.things").tag("kind", "webhook").tag("result", "ok").counter().count(),
        0);
    assertEquals(
        1.0,
        registry
            .get("test.things")
            .tag("kind", "webhook")
            .tag("result", "failed")
            .counter()
            .count(),
        0);
  }
}
