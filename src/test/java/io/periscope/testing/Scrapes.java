package io.periscope.testing;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Prometheus scrapes (GET /metrics) as the tests read them. */
public final class Scrapes {
  private Scrapes() {}

  /** The value of the sample {@code name{labels}} in {@code scrape}, 0 when there is none. */
  public static double value(String scrape, String name, String labels) {
    Matcher m =
        Pattern.compile(
                "(?m)^"
                    + Pattern.quote(name)
                    + (labels.isEmpty() ? "" : "\\{" + Pattern.quote(labels) + "\\}")
                    + " ([0-9.E+-]+)$")
            .matcher(scrape);
    return m.find() ? Double.parseDouble(m.group(1)) : 0;
  }
}
