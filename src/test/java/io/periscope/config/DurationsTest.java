package io.periscope.config;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import java.time.Duration;
import org.junit.Test;

/** AUTH_TOKEN_TTL as docs/configuration.md defines it: seconds, or a number with s, m, h or d. */
public class DurationsTest {
  @Test
  public void aPlainNumberIsSeconds() {
    assertEquals(Duration.ofSeconds(7200), Durations.parseTtl("7200"));
  }

  @Test
  public void hIsHours() {
    assertEquals(Duration.ofHours(2), Durations.parseTtl("2h"));
  }

  @Test
  public void mIsMinutes() {
    assertEquals(Duration.ofMinutes(30), Durations.parseTtl("30m"));
  }

  @Test
  public void dIsDays() {
    assertEquals(Duration.ofDays(7), Durations.parseTtl("7d"));
  }

  @Test
  public void sIsSeconds() {
    assertEquals(Duration.ofSeconds(45), Durations.parseTtl("45s"));
  }

  @Test
  public void anEmptyValueIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> Durations.parseTtl(""));
  }

  @Test
  public void zeroIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> Durations.parseTtl("0"));
  }

  @Test
  public void anUnknownUnitIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> Durations.parseTtl("2w"));
  }

  @Test
  public void aNegativeValueIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> Durations.parseTtl("-1"));
  }

  @Test
  public void aUnitWithoutANumberIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> Durations.parseTtl("h"));
  }

  @Test
  public void lifetimesThatWouldOverflowAreRefusedWithTheUsualMessage() {
    for (String huge :
        new String[] {
          "9223372036854775807s", "106751991167301d", "99999999999999999999", "3651d"
        }) {
      org.junit.Assert.assertThrows(
          huge, IllegalArgumentException.class, () -> Durations.parseTtl(huge));
    }
    org.junit.Assert.assertEquals(java.time.Duration.ofDays(3650), Durations.parseTtl("3650d"));
  }
}
