package io.periscope.cli;

import io.periscope.entity.Failures;

/**
 * The exit codes scripts can rely on (docs/command-line.md lists them): a command that did its work
 * exits 0; each way of not doing it has its own code.
 */
final class ExitCodes {
  /** The command did what it was asked. */
  static final int OK = 0;

  /**
   * The command ran and what it did failed, or what it was asked about does not exist: a watch's
   * run failed, a key could not be decrypted, no such watch, the service refused, an unexpected
   * error.
   */
  static final int FAILED = 1;

  /** The command line could not be understood: unknown command or option, a bad value. */
  static final int USAGE = 2;

  /**
   * Another Periscope process holds the data directory or the database's journal lock and cannot be
   * reached: nothing was done; run the command again, or on the node that holds them.
   */
  static final int BUSY = 3;

  /** The configuration (environment variables, {@code *_FILE} secrets) is invalid. */
  static final int CONFIG = 4;

  private ExitCodes() {}

  /** A command that stops with a given exit code and a one-line reason. */
  static final class Failure extends RuntimeException {
    final int code;

    Failure(int code, String reason) {
      super(reason);
      this.code = code;
    }
  }

  static int of(Throwable e) {
    Throwable cause = Failures.unwrap(e);
    if (cause instanceof Failure f) return f.code;
    if (cause instanceof SingleWriter.Busy) return BUSY;
    if (cause instanceof com.typesafe.config.ConfigException) return CONFIG;
    return FAILED;
  }

  static String reason(Throwable e) {
    Throwable cause = Failures.unwrap(e);
    return cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
  }
}
