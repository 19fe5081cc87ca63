package io.periscope.metrics;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.charset.StandardCharsets;
import org.junit.Test;

public class BuildInfoTest {
  /** The build wrote the commit of the work tree it was built from, which git names. */
  @Test
  public void theGaugeSaysTheVersionAndTheCommitGitNames() throws Exception {
    Process git = new ProcessBuilder("git", "rev-parse", "HEAD").start();
    String head = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assertEquals(0, git.waitFor());
    BuildInfo build = BuildInfo.current();
    assertEquals(head, build.commit());
    assertTrue(build.version(), build.version().matches("\\d+\\.\\d+\\.\\d+.*"));

    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    build.bindTo(registry);
    String scrape = registry.scrape();
    assertTrue(
        scrape,
        scrape.contains(
            "periscope_build_info{commit=\"" + head + "\",version=\"" + build.version() + "\"} 1"));
  }
}
