package io.periscope;

import io.periscope.cli.Cli;
import io.periscope.config.DataDir;

/** The one jar: {@code serve} (the default) or a command-line command. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    DataDir.bindEmbeddedDatabaseToLoopback();
    System.exit(Cli.run(args, System.getenv(), System.out, System.err));
  }
}
