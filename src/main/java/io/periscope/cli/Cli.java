package io.periscope.cli;

import com.typesafe.config.Config;
import io.periscope.config.Profiles;
import io.periscope.config.SecretFiles;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Dispatches the command line docs/administration.md describes. */
public final class Cli {
  static final String USAGE =
      String.join(
          "\n",
          "usage: java -jar periscope.jar [command]",
          "  serve                                              run the service (the default)",
          "  users create --id ID --email EMAIL --role admin|user   password on the first line of"
              + " stdin",
          "  run [--owner ID] [--watch ID]                      run watches once, now; one line per"
              + " watch",
          "  history --owner ID --watch ID [--limit N] [--json] replay a watch's runs from the"
              + " journal",
          "  keys re-encrypt                                    seal every stored key under the"
              + " first ENCRYPTION_KEY",
          "  healthcheck [--url URL]                            exit 0 when the service answers"
              + " /health");

  private Cli() {}

  /**
   * @return the process exit code; {@code serve} returns when the service has stopped
   */
  public static int run(
      String[] argv, Map<String, String> environment, PrintStream out, PrintStream err) {
    List<String> args = Arrays.asList(argv);
    String command = args.isEmpty() ? "serve" : args.get(0);
    List<String> rest = args.isEmpty() ? List.of() : args.subList(1, args.size());
    Map<String, String> env;
    try {
      env = SecretFiles.read(environment);
    } catch (IllegalArgumentException e) {
      err.println("error: " + e.getMessage());
      return 1;
    }
    String profile = Profiles.chosen(env);
    if (!command.equals("serve") && System.getenv("PERISCOPE_LOG_LEVEL") == null) {
      // Commands print their own results; only warnings and errors are logged, on stderr.
      System.setProperty("PERISCOPE_LOG_LEVEL", "WARN");
    }
    org.slf4j.LoggerFactory
        .getILoggerFactory(); // initialize logging before actor threads log concurrently
    try {
      switch (command) {
        case "serve" -> {
          if (!rest.isEmpty()) throw new Args.UsageException("serve takes no arguments");
          Serve.run(profile, Profiles.load(profile, Profiles.environment(env)));
          return 0;
        }
        case "users" -> {
          return UsersCommand.run(rest, quiet(profile, env), out, err);
        }
        case "run" -> {
          return RunCommand.run(rest, quiet(profile, env), out, err);
        }
        case "keys" -> {
          return KeysCommand.run(rest, quiet(profile, env), out, err);
        }
        case "history" -> {
          return HistoryCommand.run(rest, quiet(profile, env), out, err);
        }
        case "healthcheck" -> {
          return HealthcheckCommand.run(rest, env, out, err);
        }
        case "help", "--help", "-h" -> {
          out.println(USAGE);
          return 0;
        }
        default -> throw new Args.UsageException("unknown command '" + command + "'");
      }
    } catch (Args.UsageException e) {
      err.println("error: " + e.getMessage());
      err.println(USAGE);
      return 2;
    } catch (Exception e) {
      err.println(
          "error: " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
      return 1;
    }
  }

  /**
   * The command line keeps standard output for its own lines; logs go to stderr and only when they
   * matter.
   */
  private static Config quiet(String profile, Map<String, String> env) {
    return Profiles.load(
        profile,
        com.typesafe.config.ConfigFactory.parseMap(Map.of("pekko.loglevel", "WARNING"))
            .withFallback(Profiles.environment(env)));
  }
}
