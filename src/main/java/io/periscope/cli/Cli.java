package io.periscope.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * Parses the command line docs/command-line.md describes with picocli and runs its command; maps
 * what went wrong to the documented {@link ExitCodes}.
 */
public final class Cli {
  private Cli() {}

  /**
   * @return the process exit code; {@code serve} returns when the service has stopped
   */
  public static int run(
      String[] argv, Map<String, String> environment, PrintStream out, PrintStream err) {
    return commandLine(environment, out, err).execute(argv);
  }

  /** The command line of the jar, printing to {@code out} and {@code err}. */
  static CommandLine commandLine(
      Map<String, String> environment, PrintStream out, PrintStream err) {
    CommandLine cli = new CommandLine(new Root(environment, out, err));
    cli.setOut(new PrintWriter(new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8), true));
    cli.setErr(new PrintWriter(new java.io.OutputStreamWriter(err, StandardCharsets.UTF_8), true));
    cli.setParameterExceptionHandler(Cli::usageError);
    cli.setExecutionExceptionHandler(
        (e, command, parsed) -> {
          command.getErr().println("error: " + ExitCodes.reason(e));
          return ExitCodes.of(e);
        });
    cli.setExecutionStrategy(
        parsed -> {
          CommandLine leaf = parsed.asCommandLineList().get(parsed.asCommandLineList().size() - 1);
          if (!(leaf.getCommand() instanceof Root) && !(leaf.getCommand() instanceof ServeCommand))
            quietLogs();
          // initialize logging before actor threads log concurrently
          org.slf4j.LoggerFactory.getILoggerFactory();
          return new CommandLine.RunLast().execute(parsed);
        });
    return cli;
  }

  /** A command line that cannot be understood: the reason, where to read more, exit 2. */
  private static int usageError(ParameterException e, String[] args) {
    CommandLine command = e.getCommandLine();
    PrintWriter err = command.getErr();
    err.println("error: " + e.getMessage());
    CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
    err.println("Try '" + command.getCommandSpec().qualifiedName() + " --help'.");
    return ExitCodes.USAGE;
  }

  /**
   * Commands print their own results on standard output; only warnings and errors are logged, on
   * stderr.
   */
  private static void quietLogs() {
    if (System.getenv("PERISCOPE_LOG_LEVEL") == null)
      System.setProperty("PERISCOPE_LOG_LEVEL", "WARN");
  }
}
