package io.periscope;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The README's test command, scripts/test.sh, up to where it would start Maven ({@code --check}):
 * what it says when Chromium cannot be had, and that CI runs the very same command.
 */
public class TestCommandTest {
  private static final Path SCRIPT = Path.of("scripts", "test.sh");

  @Rule public TemporaryFolder dir = new TemporaryFolder();

  record Outcome(int exit, String out, String err) {}

  @Test
  public void aChromiumNamedByChromeBinThatIsNotThereStopsItWithOneLineSayingSo() throws Exception {
    String missing = dir.getRoot() + "/no-such-chromium";
    Outcome o = check(Map.of("CHROME_BIN", missing, "CHROMEDRIVER", fake("chromedriver")));
    assertEquals(o.toString(), 1, o.exit());
    assertEquals("", o.out());
    assertEquals(
        "test.sh: CHROME_BIN="
            + missing
            + " is not an executable file: point it at Chromium, or unset it to use"
            + " /usr/bin/chromium\n",
        o.err());
  }

  @Test
  public void aDriverNamedByChromedriverThatIsNotThereStopsItWithOneLineSayingSo()
      throws Exception {
    String missing = dir.getRoot() + "/no-such-chromedriver";
    Outcome o = check(Map.of("CHROME_BIN", fake("chromium"), "CHROMEDRIVER", missing));
    assertEquals(o.toString(), 1, o.exit());
    assertEquals(
        "test.sh: CHROMEDRIVER="
            + missing
            + " is not an executable file: point it at Chromium's chromedriver, or unset it to use"
            + " /usr/bin/chromedriver\n",
        o.err());
  }

  @Test
  public void aChromiumAndDriverThatAreThereAreTheOnesTheTestsGet() throws Exception {
    String chromium = fake("chromium");
    String driver = fake("chromedriver");
    Outcome o = check(Map.of("CHROME_BIN", chromium, "CHROMEDRIVER", driver));
    assertEquals(o.toString(), 0, o.exit());
    assertEquals("", o.err());
    assertTrue(o.out(), o.out().contains("Chromium " + chromium + ", chromedriver " + driver));
  }

  @Test
  public void withoutKubectlItStopsWithOneLineSayingWhatToInstall() throws Exception {
    // a PATH with every program the check uses but kubectl
    Path bin = dir.newFolder("bin").toPath();
    for (String program : List.of("bash", "dirname", "id", "java", "mvn", "promtool")) {
      Path found = onPath(program);
      if (found != null) Files.createSymbolicLink(bin.resolve(program), found);
    }
    Outcome o =
        check(
            Map.of(
                "CHROME_BIN", fake("chromium"),
                "CHROMEDRIVER", fake("chromedriver"),
                "PATH", bin.toString()));
    assertEquals(o.toString(), 1, o.exit());
    assertEquals(
        "test.sh: the manifests' tests need a current kubectl on PATH (Debian's 1.20 is too old for"
            + " kubectl kustomize): https://kubernetes.io/docs/tasks/tools/\n",
        o.err());
  }

  @Test
  public void ciRunsTheReadmesTestCommand() throws IOException {
    String readme = Files.readString(Path.of("README.md"));
    assertTrue("the README's set-up names scripts/test.sh", readme.contains("\nscripts/test.sh "));
    List<String> ci = Files.readAllLines(Path.of(".ci", "run"));
    assertTrue(String.join("\n", ci), ci.contains("scripts/test.sh"));
  }

  private Outcome check(Map<String, String> env) throws Exception {
    ProcessBuilder pb = new ProcessBuilder("bash", SCRIPT.toString(), "--check");
    pb.environment().remove("CHROME_BIN");
    pb.environment().remove("CHROMEDRIVER");
    pb.environment().putAll(env);
    Path out = dir.newFile().toPath();
    Path err = dir.newFile().toPath();
    Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    assertTrue("the check ends at once", p.waitFor(30, TimeUnit.SECONDS));
    return new Outcome(
        p.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  private static Path onPath(String program) {
    for (String d : System.getenv("PATH").split(":")) {
      Path p = Path.of(d, program);
      if (Files.isExecutable(p)) return p;
    }
    return null;
  }

  /** An executable file standing in for a program the check only looks for. */
  private String fake(String name) throws IOException {
    Path f = dir.getRoot().toPath().resolve(name);
    Files.writeString(f, "#!/bin/sh\nexit 0\n");
    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxr-xr-x"));
    return f.toString();
  }
}
