package io.periscope.auth;

import static org.junit.Assert.assertEquals;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.Test;

public class SignInBackoffTest {
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

  private void fail(int times) {
    for (int i = 0; i < times; i++) backoff.failed("Erin@Example.org");
  }

  @Test
  public void fiveFailuresAreFreeThenTheWaitDoublesUpToAnHour() {
    fail(4);
    assertEquals(Duration.ZERO, backoff.wait("erin@example.org"));
    fail(1);
    assertEquals(Duration.ofMinutes(1), backoff.wait("erin@example.org"));
    now = now.plusSeconds(60);
    assertEquals(Duration.ZERO, backoff.wait("erin@example.org"));
    fail(1);
    assertEquals(Duration.ofMinutes(2), backoff.wait("erin@example.org"));
    assertEquals(Duration.ofMinutes(4), SignInBackoff.waitAfter(7));
    assertEquals(Duration.ofHours(1), SignInBackoff.waitAfter(12));
    assertEquals(Duration.ofHours(1), SignInBackoff.waitAfter(1000));
  }

  @Test
  public void aSuccessClearsAndAQuietDayForgets() {
    fail(5);
    backoff.succeeded("erin@example.org");
    assertEquals(Duration.ZERO, backoff.wait("erin@example.org"));
    fail(6);
    now = now.plus(Duration.ofDays(1)).plusSeconds(1);
    assertEquals(Duration.ZERO, backoff.wait("erin@example.org"));
    fail(1);
    assertEquals("counting starts again", Duration.ZERO, backoff.wait("erin@example.org"));
  }

  @Test
  public void otherAddressesAreUnaffected() {
    fail(9);
    assertEquals(Duration.ZERO, backoff.wait("frank@example.org"));
  }
}
