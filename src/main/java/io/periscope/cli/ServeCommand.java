package io.periscope.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/** {@code serve}: runs the service until it is stopped (the default command). */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description = {
      "Runs the service until SIGTERM (the default command).",
      "Configured by environment variables: .env.example lists them with their defaults."
    })
final class ServeCommand implements Callable<Integer> {
  @ParentCommand private Root root;

  @Override
  public Integer call() throws Exception {
    return serve(root);
  }

  static int serve(Root root) throws Exception {
    Serve.run(root.profile(), root.config());
    return ExitCodes.OK;
  }
}
