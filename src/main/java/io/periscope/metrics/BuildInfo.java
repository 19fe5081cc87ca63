package io.periscope.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * What this process was built from: the version and git commit the build wrote into {@code
 * io/periscope/build.properties} (pom.xml). Shown as the gauge {@code periscope_build_info}, always
 * 1, its labels saying which release each node runs (a rolling upgrade shows two).
 */
public record BuildInfo(String version, String commit) {
  private static final String RESOURCE = "/io/periscope/build.properties";

  /** The build of the classes running; a build that wrote no file is an error of the build. */
  public static BuildInfo current() {
    Properties properties = new Properties();
    try (InputStream in = BuildInfo.class.getResourceAsStream(RESOURCE)) {
      if (in == null)
        throw new IllegalStateException(RESOURCE + " is missing: built without Maven");
      properties.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new BuildInfo(properties.getProperty("version"), properties.getProperty("commit"));
  }

  void bindTo(MeterRegistry registry) {
    Gauge.builder("periscope.build.info", () -> 1)
        .description("The version and git commit this node was built from; always 1")
        .tag("version", version)
        .tag("commit", commit)
        .strongReference(true)
        .register(registry);
  }
}
