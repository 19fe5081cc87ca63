package io.periscope.cli;

import java.io.PrintStream;
import picocli.CommandLine.Option;

/**
 * A progress line on a terminal: one line of standard error rewritten in place, cleared before each
 * line of results, so standard output holds only the results. Off when the command's output goes to
 * a file or a pipe (unless asked for).
 */
final class Progress {
  /** When to show it: {@code auto} shows it when the command runs on a terminal. */
  enum Mode {
    auto,
    always,
    never
  }

  /** The {@code --progress} option of a command that shows one (a picocli mixin). */
  static final class Choice {
    @Option(
        names = "--progress",
        paramLabel = "WHEN",
        defaultValue = "auto",
        description =
            "a progress line on standard error: ${COMPLETION-CANDIDATES} (default:"
                + " ${DEFAULT-VALUE}, on a terminal)")
    Mode mode;

    /** The progress line this option asks for, on {@code err}. */
    Progress on(PrintStream err) {
      return new Progress(mode, err);
    }
  }

  private static final String CLEAR_LINE = "\r\033[K";
  private final PrintStream err;
  private final boolean shown;
  private boolean showing;

  Progress(Mode mode, PrintStream err) {
    this.err = err;
    this.shown = mode == Mode.always || (mode == Mode.auto && System.console() != null);
  }

  /** Replaces the progress line with {@code text}. */
  synchronized void show(String text) {
    if (!shown) return;
    err.print(CLEAR_LINE + text);
    err.flush();
    showing = true;
  }

  /** Takes the progress line away (before a result line, and at the end). */
  synchronized void clear() {
    if (!showing) return;
    err.print(CLEAR_LINE);
    err.flush();
    showing = false;
  }
}
