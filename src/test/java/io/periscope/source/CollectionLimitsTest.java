package io.periscope.source;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import com.typesafe.config.ConfigFactory;
import org.junit.Test;

public class CollectionLimitsTest {
  @Test
  public void theShippedConfigurationHoldsTheDefaults() {
    assertEquals(
        CollectionLimits.DEFAULTS,
        CollectionLimits.from(ConfigFactory.parseResources("periscope.conf").resolve()));
  }

  @Test
  public void settingsAreReadAndChecked() {
    CollectionLimits limits =
        CollectionLimits.from(
            ConfigFactory.parseString(
                "periscope.collection { feed-max-bytes = 1 MiB, page-max-bytes = 512 KiB,"
                    + " parse-max-elements = 1000, fetches-per-node = 4, parses-per-node = 1,"
                    + " feed-cache-bytes = 0 }"));
    assertEquals(new CollectionLimits(1L << 20, 512L << 10, 1000, 4, 1, 0), limits);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new CollectionLimits(1L << 20, 1L << 20, 10, 4, 1, 0));
    assertEquals("PARSE_MAX_ELEMENTS must be at least 100", e.getMessage());
  }
}
