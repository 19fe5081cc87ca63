package io.periscope.cli;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.periscope.config.Profiles;
import io.periscope.config.SecretFiles;
import java.io.PrintStream;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;

/**
 * {@code periscope}: the jar's command line. Without a command it serves. Its commands read the
 * environment through it ({@code *_FILE} secrets resolved, the profile chosen) and print to its
 * streams.
 */
@Command(
    name = "periscope",
    mixinStandardHelpOptions = true,
    versionProvider = Version.class,
    description = "Periscope watches the web for you. Without a command: serve.",
    synopsisSubcommandLabel = "[COMMAND]",
    subcommands = {
      ServeCommand.class,
      UsersCommand.class,
      RunCommand.class,
      HistoryCommand.class,
      KeysCommand.class,
      EvalCommand.class,
      TransferCommands.Export.class,
      TransferCommands.Import.class,
      HealthcheckCommand.class,
      HelpCommand.class
    },
    exitCodeListHeading = "%nExit codes (every command):%n",
    exitCodeList = {
      "0:done",
      "1:failed (a run failed, no such watch, the service refused, an unexpected error)",
      "2:the command line could not be understood",
      "3:busy: another Periscope process holds the data directory or journal and does not"
          + " answer",
      "4:invalid configuration (an environment variable, a *_FILE secret)"
    },
    footer = {"", "Documented in docs/command-line.md."})
final class Root implements Callable<Integer> {
  final PrintStream out;
  final PrintStream err;
  private final Map<String, String> environment;
  private Map<String, String> env;

  Root(Map<String, String> environment, PrintStream out, PrintStream err) {
    this.environment = environment;
    this.out = out;
    this.err = err;
  }

  @Override
  public Integer call() throws Exception {
    return ServeCommand.serve(this);
  }

  /** The environment, each {@code X_FILE} secret read into {@code X}. */
  Map<String, String> env() {
    if (env == null) {
      try {
        env = SecretFiles.read(environment);
      } catch (IllegalArgumentException e) {
        throw new ExitCodes.Failure(ExitCodes.CONFIG, e.getMessage());
      }
    }
    return env;
  }

  String profile() {
    return Profiles.chosen(env());
  }

  /** The service's configuration. */
  Config config() {
    return Profiles.load(profile(), Profiles.environment(env()));
  }

  /**
   * The configuration of a command: standard output keeps the command's own lines; logs go to
   * stderr and only when they matter.
   */
  Config quietConfig() {
    return Profiles.load(
        profile(),
        ConfigFactory.parseMap(Map.of("pekko.loglevel", "WARNING"))
            .withFallback(Profiles.environment(env())));
  }
}
