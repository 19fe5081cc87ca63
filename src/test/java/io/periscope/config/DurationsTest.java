package io.periscope.config;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import java.time.Duration;
import org.junit.Test;

public class DurationsTest {
  @Test
  public void acceptsSecondsAndUnits() {
    assertEquals(Duration.ofSeconds(7200), Durations.parseTtl("7200"));
    assertEquals(Duration.ofHours(2), Durations.parseTtl("2h"));
    assertEquals(Duration.ofMinutes(30), Durations.parseTtl("30m"));
    assertEquals(Duration.ofDays(7), Durations.parseTtl("7d"));
    assertEquals(Duration.ofSeconds(45), Durations.parseTtl("45s"));
  }

  @Test
  public void refusesAnythingElse() {
    for (String bad : new String[] {"", "0", "2w", "-1", "h"}) {
      assertThrows(bad, IllegalArgumentException.class, () -> Durations.parseTtl(bad));
    }
  }
}
