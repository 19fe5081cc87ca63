package io.periscope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.json.Json;
import io.periscope.persistence.JournalReads;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;

/**
 * The {@code history} command run as the command line runs it, over a journal the test holds, and
 * what it printed.
 */
final class HistoryPrintouts {
  private HistoryPrintouts() {}

  /** What one history printed. */
  record Printed(int exit, String out, String err) {
    List<String> lines() {
      return out.isEmpty() ? List.of() : List.of(out.split("\n"));
    }

    /** The run ids of JSON lines, or of text lines. */
    List<String> runs() {
      return lines().stream()
          .map(
              l ->
                  l.startsWith("{")
                      ? json(l).get("runId").asText()
                      : l.split(" ")[3].substring("run=".length()))
          .toList();
    }

    String cursor() {
      for (String line : err.split("\n"))
        if (line.startsWith("cursor: ")) return line.substring("cursor: ".length());
      throw new AssertionError("no cursor on stderr: " + err);
    }
  }

  /** A line printed as JSON, read. */
  static JsonNode json(String text) {
    try {
      return Json.MAPPER.readTree(text);
    } catch (java.io.IOException e) {
      throw new AssertionError("not JSON: " + text, e);
    }
  }

  /** {@code history args…} over {@code journal}; a usage error exits as the command line does. */
  static Printed history(JournalReads journal, String... args) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
    PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
    CommandLine cli = Cli.commandLine(Map.of(), o, e);
    List<String> argv = new ArrayList<>(List.of("history"));
    argv.addAll(List.of(args));
    int exit;
    try {
      CommandLine.ParseResult parsed = cli.parseArgs(argv.toArray(String[]::new));
      HistoryCommand command = (HistoryCommand) parsed.subcommand().commandSpec().userObject();
      command.checkOptions();
      exit = command.replay(journal);
    } catch (CommandLine.ParameterException usage) {
      e.println("error: " + usage.getMessage());
      exit = ExitCodes.USAGE;
    }
    return new Printed(
        exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }
}
