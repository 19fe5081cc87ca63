package io.periscope.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.Test;
import picocli.CommandLine;

/**
 * The command line's parsing: help on every command, the version, and the documented exit codes of
 * what cannot run. (What the commands do is CommandLineIT's, against the jar.)
 */
public class CliTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(Map<String, String> env, String... args) {
    return Cli.run(
        args,
        env,
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private int run(String... args) {
    return run(Map.of(), args);
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  /** Every command and subcommand, by its qualified name. */
  private static List<List<String>> everyCommand() {
    List<List<String>> all = new java.util.ArrayList<>();
    collect(Cli.commandLine(Map.of(), System.out, System.err), List.of(), all);
    return all;
  }

  private static void collect(CommandLine command, List<String> path, List<List<String>> all) {
    all.add(path);
    command
        .getSubcommands()
        .forEach(
            (name, sub) -> {
              if (sub.getCommandSpec().name().equals(name)) {
                List<String> longer = new java.util.ArrayList<>(path);
                longer.add(name);
                collect(sub, longer, all);
              }
            });
  }

  @Test
  public void everyCommandHasHelp() {
    List<List<String>> commands = everyCommand();
    for (String expected : List.of("serve", "users", "run", "history", "keys", "healthcheck"))
      assertTrue(expected, commands.contains(List.of(expected)));
    assertTrue(commands.contains(List.of("users", "create")));
    assertTrue(commands.contains(List.of("keys", "re-encrypt")));
    for (List<String> command : commands) {
      out.reset();
      err.reset();
      List<String> args = new java.util.ArrayList<>(command);
      args.add("--help");
      assertEquals(command + ": " + err(), 0, run(args.toArray(String[]::new)));
      String help = out();
      String usage =
          "Usage: periscope" + command.stream().map(c -> " " + c).collect(Collectors.joining());
      assertTrue(command + " names itself: " + help, help.contains(usage + " "));
      assertTrue(command + " describes itself: " + help, help.lines().count() > 3);
    }
  }

  @Test
  public void theTopLevelHelpListsTheCommandsAndTheExitCodes() {
    assertEquals(0, run("--help"));
    for (String expected :
        List.of("serve", "users", "run", "history", "keys", "healthcheck", "Exit codes"))
      assertTrue(expected, out().contains(expected));
    out.reset();
    assertEquals(0, run("help", "run"));
    assertTrue(out(), out().startsWith("Usage: periscope run"));
  }

  @Test
  public void versionNamesTheBuildAndTheJava() {
    assertEquals(0, run("--version"));
    assertTrue(out(), out().startsWith("periscope " + Version.of() + "\n"));
    assertTrue(out(), out().contains("Java " + System.getProperty("java.version")));
  }

  @Test
  public void whatCannotBeUnderstoodIsAUsageErrorWithItsReason() {
    assertEquals(ExitCodes.USAGE, run("frobnicate"));
    assertTrue(err(), err().startsWith("error: Unmatched argument at index 0: 'frobnicate'"));
    assertTrue(err(), err().contains("Try 'periscope --help'."));
    assertEquals("", out());

    err.reset();
    assertEquals(ExitCodes.USAGE, run("run", "--watch", "w"));
    assertTrue(err(), err().contains("error: --watch needs --owner"));
    assertTrue(err(), err().contains("Try 'periscope run --help'."));

    err.reset();
    assertEquals(ExitCodes.USAGE, run("users", "create", "--id", "o"));
    assertTrue(err(), err().contains("Missing required options: '--email=EMAIL', '--role=ROLE'"));

    err.reset();
    assertEquals(ExitCodes.USAGE, run("history", "--watch", "w"));
    assertTrue(err(), err().contains("--watch needs --owner"));

    err.reset();
    assertEquals(ExitCodes.USAGE, run("history", "--owner", "o", "--watch", "w", "--limit", "0"));
    assertTrue(err(), err().contains("--limit must be a positive integer"));

    err.reset();
    assertEquals(ExitCodes.USAGE, run("run", "--progress", "sometimes"));
    assertTrue(err(), err().contains("--progress"));

    err.reset();
    assertEquals(ExitCodes.USAGE, run("users", "set-role", "bob", "owner"));
    assertTrue(err(), err().contains("the role must be 'user' or 'admin', not 'owner'"));
    assertTrue(err(), err().contains("Try 'periscope users set-role --help'."));

    err.reset();
    assertEquals(ExitCodes.USAGE, run("users", "list", "--status", "sleeping"));
    assertTrue(err(), err().contains("the status must be 'active' or 'disabled'"));

    err.reset();
    assertEquals(ExitCodes.USAGE, run("users", "delete", "bob", "--run-history", "shred"));
    assertTrue(err(), err().contains("--run-history must be 'keep' or 'erase'"));

    for (String[] args :
        List.of(
            new String[] {"users"},
            new String[] {"users", "disable"},
            new String[] {"users", "enable", "a", "b"},
            new String[] {"users", "set-role", "bob"},
            new String[] {"users", "reset-password"},
            new String[] {"users", "delete"},
            new String[] {"users", "list", "extra"},
            new String[] {"keys"},
            new String[] {"keys", "rotate"},
            new String[] {"serve", "extra"},
            new String[] {"healthcheck", "--url"})) {
      err.reset();
      assertEquals(String.join(" ", args) + ": " + err(), ExitCodes.USAGE, run(args));
      assertTrue(err(), err().startsWith("error: "));
    }
    assertEquals("", out());
  }

  @Test
  public void anInvalidConfigurationIsItsOwnExitCode() {
    int exit =
        run(
            Map.of("AUTH_JWT_SECRET", "x", "AUTH_JWT_SECRET_FILE", "/nonexistent"),
            "history",
            "--owner",
            "o",
            "--watch",
            "w");
    assertEquals(err(), ExitCodes.CONFIG, exit);
    assertEquals("error: set AUTH_JWT_SECRET or AUTH_JWT_SECRET_FILE, not both\n", err());
  }

  /**
   * The example Secret's placeholder, and a weak metrics token, stop {@code serve} before anything
   * starts: one {@code error:} line naming the variable, never the value, exit 1.
   */
  @Test(timeout = 120_000)
  public void serveRefusesPlaceholderAndWeakSecrets() throws Exception {
    java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("periscope-weak");
    Map<String, String> refusals =
        Map.of(
            "AUTH_JWT_SECRET",
            "REPLACE-ME-with-at-least-32-random-bytes-e.g.-openssl-rand-base64-48",
            "METRICS_TOKEN",
            "metrics".repeat(6));
    for (Map.Entry<String, String> weak : refusals.entrySet()) {
      java.nio.file.Path file = dir.resolve(weak.getKey());
      java.nio.file.Files.writeString(file, weak.getValue());
      err.reset();
      int exit =
          run(
              Map.of(
                  weak.getKey() + "_FILE",
                  file.toString(),
                  "DATA_DIR",
                  dir.resolve("data").toString()),
              "serve");
      assertEquals(err(), ExitCodes.FAILED, exit);
      List<String> lines = err().lines().toList();
      assertEquals(err(), 1, lines.size());
      assertTrue(lines.get(0), lines.get(0).startsWith("error: " + weak.getKey() + " "));
      assertTrue(lines.get(0), !lines.get(0).contains(weak.getValue()));
      assertTrue("nothing started", !java.nio.file.Files.exists(dir.resolve("data")));
    }
  }

  @Test
  public void healthcheckOfNothingListeningIsUnhealthy() throws Exception {
    int port;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    assertEquals(ExitCodes.FAILED, run(Map.of("PORT", String.valueOf(port)), "healthcheck"));
    assertTrue(err(), err().startsWith("unhealthy: http://127.0.0.1:" + port + "/health"));
  }

  @Test
  public void theProgressLineStaysOnStandardErrorAndIsClearedBeforeResults() {
    PrintStream progressErr = new PrintStream(err, true, StandardCharsets.UTF_8);
    Progress shown = new Progress(Progress.Mode.always, progressErr);
    shown.show("running alice: 0 watches done");
    shown.clear();
    shown.clear();
    assertEquals("\r\033[Krunning alice: 0 watches done\r\033[K", err());
    err.reset();
    Progress hidden = new Progress(Progress.Mode.never, progressErr);
    hidden.show("running alice: 0 watches done");
    hidden.clear();
    assertEquals("", err());
  }
}
