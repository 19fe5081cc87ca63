package io.periscope.auth;

import static org.junit.Assert.assertEquals;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.Test;

public class SignInBackoffTest {
  private static final String HOME = "198.51.100.0/24";
  private static final String ELSEWHERE = "203.0.113.0/24";

  private Instant now = Instant.parse("2026-11-25T10:00:00Z");
  private final Clock clock =
      new Clock() {
        @Override
        public ZoneOffset getZone() {
          return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
          return this;
        }

        @Override
        public Instant instant() {
          return now;
        }
      };
  private final SignInBackoff backoff = new SignInBackoff(clock);

  private void fail(int times, String network) {
    for (int i = 0; i < times; i++) backoff.failed("Erin@Example.org", network);
  }

  @Test
  public void fiveFailuresFromANetworkAreFreeThenItsWaitDoublesUpToAnHour() {
    fail(4, ELSEWHERE);
    assertEquals(Duration.ZERO, backoff.wait("erin@example.org", ELSEWHERE));
    fail(1, ELSEWHERE);
    assertEquals(Duration.ofMinutes(1), backoff.wait("erin@example.org", ELSEWHERE));
    assertEquals(
        "another network does not wait for them",
        Duration.ZERO,
        backoff.wait("erin@example.org", HOME));
    now = now.plusSeconds(60);
    assertEquals(Duration.ZERO, backoff.wait("erin@example.org", ELSEWHERE));
    fail(1, ELSEWHERE);
    assertEquals(Duration.ofMinutes(2), backoff.wait("erin@example.org", ELSEWHERE));
    assertEquals(Duration.ofMinutes(4), SignInBackoff.waitAfter(7, 5));
    assertEquals(Duration.ofHours(1), SignInBackoff.waitAfter(12, 5));
    assertEquals(Duration.ofHours(1), SignInBackoff.waitAfter(1000, 5));
  }

  @Test
  public void failuresSpreadOverNetworksMakeTheAddressWaitAfterTwenty() {
    for (int i = 0; i < 19; i++) fail(1, "203.0." + i + ".0/24");
    assertEquals(Duration.ZERO, backoff.wait("erin@example.org", HOME));
    fail(1, "192.0.2.0/24");
    assertEquals(Duration.ofMinutes(1), backoff.wait("erin@example.org", HOME));
    backoff.succeeded("erin@example.org", HOME);
    assertEquals(
        "a success clears its network's count, not the address's",
        Duration.ofMinutes(1),
        backoff.wait("erin@example.org", HOME));
  }

  @Test
  public void aSuccessClearsItsNetworkAndAQuietDayForgets() {
    fail(5, HOME);
    backoff.succeeded("erin@example.org", HOME);
    assertEquals(Duration.ZERO, backoff.wait("erin@example.org", HOME));
    fail(6, HOME);
    now = now.plus(Duration.ofDays(1)).plusSeconds(1);
    assertEquals(Duration.ZERO, backoff.wait("erin@example.org", HOME));
    fail(1, HOME);
    assertEquals("counting starts again", Duration.ZERO, backoff.wait("erin@example.org", HOME));
  }

  @Test
  public void otherAddressesAreUnaffected() {
    fail(30, HOME);
    assertEquals(Duration.ZERO, backoff.wait("frank@example.org", HOME));
  }
}
