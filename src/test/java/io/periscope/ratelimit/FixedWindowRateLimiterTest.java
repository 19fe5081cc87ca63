package io.periscope.ratelimit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.periscope.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.Test;

public class FixedWindowRateLimiterTest {
  private static final int LIMIT = 3;

  // One-minute windows start on the minute; the test starts 10 s into the 12:00 window.
  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-22T12:00:10Z"));
  private final FixedWindowRateLimiter limiter =
      new FixedWindowRateLimiter(LIMIT, Duration.ofMinutes(1), clock);

  private void useUpTheLimit(String key) {
    for (int i = 0; i < LIMIT; i++)
      assertTrue("request " + (i + 1) + " is allowed", limiter.acquire(key).allowed());
  }

  @Test
  public void theFirstLimitRequestsAreAllowedAndTheNextIsRefused() {
    useUpTheLimit("ip");
    assertFalse(limiter.acquire("ip").allowed());
  }

  @Test
  public void requestsStayRefusedUntilTheWindowEnds() {
    useUpTheLimit("ip");
    clock.set(Instant.parse("2026-11-22T12:00:59Z"));
    assertFalse(limiter.acquire("ip").allowed());
  }

  @Test
  public void retryAfterIsTheSecondsUntilTheWindowEnds() {
    useUpTheLimit("ip");
    assertEquals(50, limiter.acquire("ip").retryAfterSeconds());
  }

  @Test
  public void retryAfterRoundsAPartialSecondUp() {
    useUpTheLimit("ip");
    clock.set(Instant.parse("2026-11-22T12:00:59.500Z"));
    assertEquals(1, limiter.acquire("ip").retryAfterSeconds());
  }

  @Test
  public void theNextWindowAllowsAgain() {
    useUpTheLimit("ip");
    clock.set(Instant.parse("2026-11-22T12:01:00Z"));
    useUpTheLimit("ip");
    assertFalse(limiter.acquire("ip").allowed());
  }

  @Test
  public void keysAreCountedIndependently() {
    useUpTheLimit("alice");
    assertFalse(limiter.acquire("alice").allowed());
    assertTrue(limiter.acquire("bob").allowed());
  }
}
