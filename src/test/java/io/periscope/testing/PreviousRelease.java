package io.periscope.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The release before this one, whose nodes the upgrade test runs beside this build's: the jar of a
 * fixed commit of this repository's history (there are no release tags yet: when a release is
 * tagged, {@link #COMMIT} becomes the tag of the release before the one being made). It is built
 * once, from {@code git archive} of the commit, into {@code target/previous-release/<commit>/} and
 * kept there, so a rerun starts at once; a build from a fresh clone takes one to three minutes,
 * fetching what the commit's pom names and this one's does not.
 */
public final class PreviousRelease {
  /**
   * The last commit of 25 November 2026: before remoting over TLS, the sealed channel credentials,
   * the journaled run-all and backtest jobs, page sources and the numbered migrations.
   */
  public static final String COMMIT = "20684fc8fbb35b0518dfd53b4b1a355f0f7f86ac";

  private static final long BUILD_MINUTES = 15;

  private PreviousRelease() {}

  /** The previous release's jar, built first if it is not there yet. */
  public static synchronized Path jar() throws IOException, InterruptedException {
    Path dir = Path.of("target", "previous-release", COMMIT.substring(0, 12)).toAbsolutePath();
    Path jar = dir.resolve(Path.of("target", "periscope.jar"));
    if (Files.exists(jar)) return jar;
    if (Files.exists(dir)) delete(dir); // a build that did not finish
    Files.createDirectories(dir);
    Path log = ServiceProcess.logFile("previous-release-build");
    Files.deleteIfExists(log);
    run(
        List.of("sh", "-c", "git archive --format=tar \"$0\" | tar -x -C \"$1\"", COMMIT, "" + dir),
        Path.of("."),
        log,
        "git archive of " + COMMIT + " (a shallow clone lacks it: git fetch --unshallow)");
    // Offline first, as the project builds here; online when the commit names an artifact not
    // fetched yet.
    List<String> build =
        new ArrayList<>(List.of("mvn", "-q", "-B", "-Dmaven.test.skip=true", "package"));
    if (!attempt(withOffline(build), dir, log)) {
      run(build, dir, log, "the build of the previous release");
    }
    if (!Files.exists(jar)) throw new AssertionError("the previous release's build made no " + jar);
    return jar;
  }

  private static List<String> withOffline(List<String> command) {
    List<String> offline = new ArrayList<>(command);
    offline.add(1, "-o");
    return offline;
  }

  private static void run(List<String> command, Path dir, Path log, String what)
      throws IOException, InterruptedException {
    if (!attempt(command, dir, log)) {
      throw new AssertionError(what + " failed; its output is in " + log);
    }
  }

  private static boolean attempt(List<String> command, Path dir, Path log)
      throws IOException, InterruptedException {
    Process p =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
    if (!p.waitFor(BUILD_MINUTES, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError(
          String.join(" ", command) + " took over " + BUILD_MINUTES + " minutes");
    }
    return p.exitValue() == 0;
  }

  private static void delete(Path dir) throws IOException {
    try (var files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
    }
  }
}
