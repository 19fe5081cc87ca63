package io.periscope.http;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import org.junit.Test;

public class FixedWindowRateLimiterTest {
  /** A clock the test moves by hand. */
  static final class ManualClock extends Clock {
    Instant now;

    ManualClock(Instant start) {
      now = start;
    }

    @Override
    public ZoneId getZone() {
      return ZoneId.of("UTC");
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }

  final ManualClock clock = new ManualClock(Instant.parse("2026-11-22T12:00:10Z"));
  final FixedWindowRateLimiter limiter = new FixedWindowRateLimiter(3, Duration.ofMinutes(1), clock);

  @Test
  public void allowsTheLimitThenRefusesUntilTheWindowEnds() {
    for (int i = 0; i < 3; i++) assertTrue(limiter.acquire("ip").allowed());
    FixedWindowRateLimiter.Decision refused = limiter.acquire("ip");
    assertFalse(refused.allowed());
    assertEquals(50, refused.retryAfterSeconds());
    clock.now = Instant.parse("2026-11-22T12:01:00Z");
    assertTrue("a new window allows again", limiter.acquire("ip").allowed());
  }

  @Test
  public void keysHaveTheirOwnWindows() {
    for (int i = 0; i < 3; i++) limiter.acquire("alice");
    assertFalse(limiter.acquire("alice").allowed());
    assertTrue(limiter.acquire("bob").allowed());
  }
}
