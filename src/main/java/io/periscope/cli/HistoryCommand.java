package io.periscope.cli;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.core.JsonGenerator;
import io.periscope.json.Json;
import io.periscope.persistence.JournalReads;
import io.periscope.run.RunView;
import io.periscope.runtime.Node;
import io.periscope.watch.RunHistory;
import io.periscope.watch.RunRecord;
import java.io.PrintStream;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.stream.javadsl.Sink;
import org.apache.pekko.stream.javadsl.Source;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code history}: runs replayed from the event journal, also of deleted watches — one watch's,
 * every watch's of an owner, or of the instance; filtered by time and outcome; streamed in constant
 * memory; with {@code --follow}, new runs as they are recorded. It only reads the journal, so it
 * needs no lock and works beside a running service or cluster (the embedded H2 file is shared
 * through its auto-server mode) and with everything stopped.
 */
@Command(
    name = "history",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Replays runs from the event journal, also of deleted watches: one watch's (--owner and"
          + " --watch, newest first), every watch's of an account (--owner) or of the instance,"
          + " watch after watch, oldest first. --follow then prints new runs as they are recorded"
          + " until interrupted.",
      "Only reads the journal: works beside a running service or cluster, and without one."
          + " Exit 1 when the journal holds no such watch."
    })
final class HistoryCommand implements Callable<Integer> {
  @ParentCommand private Root root;
  @Spec private CommandSpec spec;

  @Option(names = "--owner", paramLabel = "ID", description = "only this account's watches")
  private String owner;

  @Option(names = "--watch", paramLabel = "ID", description = "only this watch (needs --owner)")
  private String watchId;

  @Option(
      names = "--since",
      paramLabel = "TIME",
      converter = Moment.class,
      description =
          "runs started at or after TIME: 2026-11-25T08:00:00Z, 2026-11-25 (UTC), or an age"
              + " such as 90m, 24h, 7d")
  private Instant since;

  @Option(
      names = "--until",
      paramLabel = "TIME",
      converter = Moment.class,
      description = "runs started before TIME (same forms as --since)")
  private Instant until;

  @Option(
      names = "--outcome",
      paramLabel = "OUTCOME",
      split = ",",
      description =
          "only runs with these outcomes (repeat or separate with commas): nothing-new,"
              + " no-match, weak-alert, alert, error")
  private List<String> outcomes = new ArrayList<>();

  @Option(
      names = "--limit",
      paramLabel = "N",
      description =
          "at most N past runs: a watch's newest N (with --follow, in the order they ran), or the"
              + " first N of the output")
  private Integer limit;

  @Option(names = "--follow", description = "then print new runs as they are recorded")
  private boolean follow;

  @Option(
      names = "--json-lines",
      description = "one JSON object per run and line (a Run with its owner), for jq")
  private boolean jsonLines;

  @Option(
      names = "--json",
      description = "one JSON document {owner, watchId, runs: [Run]} (one watch, no --follow)")
  private boolean json;

  /** A run as {@code --json-lines} prints it: the run of GET /watches/:id/runs, with its owner. */
  record Line(String owner, @JsonUnwrapped RunView run) {}

  @Override
  public Integer call() throws Exception {
    checkOptions();
    RunHistory.Filter filter = new RunHistory.Filter(since, until, Set.copyOf(outcomes));
    ActorSystem<Void> system = Node.startLocal(root.quietConfig());
    try {
      JournalReads journal = new JournalReads(system);
      if (watchId != null && !await(RunHistory.exists(journal, owner, watchId))) {
        root.err.println("error: the journal holds no watch " + owner + "/" + watchId);
        return ExitCodes.FAILED;
      }
      // taken before the replay: what is recorded while it reads is followed, not lost
      long offset = follow ? await(journal.lastOffset()) : 0;
      RunHistory.ReadUpTo readUpTo = new RunHistory.ReadUpTo();
      Source<RunHistory.Run, NotUsed> past = past(journal, filter, readUpTo);
      Output output = json ? new Document(root.out, owner, watchId) : new Lines(root.out);
      await(past.runWith(Sink.foreach(output::run), system));
      output.end();
      if (!follow) return ExitCodes.OK;
      String only = owner == null ? null : owner + ":" + (watchId == null ? "" : watchId);
      await(
          RunHistory.recordedAfter(
                  journal,
                  offset,
                  id -> only == null || (watchId == null ? id.startsWith(only) : id.equals(only)),
                  filter,
                  readUpTo)
              .runWith(Sink.foreach(output::run), system));
      return ExitCodes.OK;
    } finally {
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  private void checkOptions() {
    if (watchId != null && owner == null) throw usage("--watch needs --owner");
    if (limit != null && limit < 1) throw usage("--limit must be a positive integer");
    for (String o : outcomes)
      if (!RunRecord.OUTCOMES.contains(o))
        throw usage("--outcome '" + o + "' is none of " + String.join(", ", RunRecord.OUTCOMES));
    if (since != null && until != null && !since.isBefore(until))
      throw usage("--since must be before --until");
    if (json && jsonLines) throw usage("--json and --json-lines: choose one");
    if (json && (watchId == null || follow))
      throw usage("--json is one watch's document: use --json-lines with --follow or many watches");
  }

  private ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }

  /** The past runs the options select, in the order they print. */
  private Source<RunHistory.Run, NotUsed> past(
      JournalReads journal, RunHistory.Filter filter, RunHistory.ReadUpTo readUpTo) {
    if (watchId != null) {
      Source<RunHistory.Run, NotUsed> newest =
          RunHistory.newestFirst(journal, owner, watchId, filter, readUpTo);
      if (limit == null) {
        return follow
            ? RunHistory.oldestFirst(journal, List.of(owner + ":" + watchId), filter, readUpTo)
            : newest;
      }
      if (!follow) return newest.take(limit);
      // the newest N, then the new ones below them: N runs are held to turn them around
      return newest
          .take(limit)
          .grouped(limit)
          .mapConcat(
              runs -> {
                List<RunHistory.Run> oldestFirst = new ArrayList<>(runs);
                Collections.reverse(oldestFirst);
                return oldestFirst;
              });
    }
    Source<RunHistory.Run, NotUsed> all =
        Source.completionStage(RunHistory.watches(journal, owner))
            .flatMapConcat(ids -> RunHistory.oldestFirst(journal, ids, filter, readUpTo));
    return limit == null ? all : all.take(limit);
  }

  private static <T> T await(CompletionStage<T> stage) throws Exception {
    return stage.toCompletableFuture().get(30, TimeUnit.DAYS);
  }

  /** Where runs are printed, as they come. */
  private interface Output {
    void run(RunHistory.Run run) throws Exception;

    default void end() throws Exception {}
  }

  /** A line per run: text, or with --json-lines a JSON object. */
  private final class Lines implements Output {
    private final PrintStream out;

    Lines(PrintStream out) {
      this.out = out;
    }

    @Override
    public void run(RunHistory.Run run) {
      out.println(
          jsonLines
              ? Json.text(new Line(run.owner(), RunView.of(run.watchId(), run.record())))
              : line(run));
      out.flush();
    }
  }

  /**
   * {@code --json}: {@code {owner, watchId, runs: [...]}}, the runs written as they come, so the
   * document is never whole in memory.
   */
  private static final class Document implements Output {
    private final JsonGenerator json;
    private final PrintStream out;

    Document(PrintStream out, String owner, String watchId) throws java.io.IOException {
      this.out = out;
      this.json =
          Json.MAPPER
              .getFactory()
              .createGenerator(
                  new java.io.OutputStreamWriter(out, java.nio.charset.StandardCharsets.UTF_8))
              .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
      json.writeStartObject();
      json.writeStringField("owner", owner);
      json.writeStringField("watchId", watchId);
      json.writeArrayFieldStart("runs");
    }

    @Override
    public void run(RunHistory.Run run) throws java.io.IOException {
      Json.MAPPER.writeValue(json, RunView.of(run.watchId(), run.record()));
    }

    @Override
    public void end() throws java.io.IOException {
      json.writeEndArray();
      json.writeEndObject();
      json.flush();
      out.println();
      out.flush();
    }
  }

  /**
   * {@code <startedAt> <owner>/<watchId> <outcome> trigger=… collected=N fresh=N notified=N
   * errors=N[ summary]}.
   */
  static String line(RunHistory.Run run) {
    RunRecord r = run.record();
    return r.startedAt()
        + " "
        + run.owner()
        + "/"
        + run.watchId()
        + " "
        + r.outcome()
        + " trigger="
        + r.trigger()
        + " collected="
        + r.collected()
        + " fresh="
        + r.fresh()
        + " notified="
        + r.notificationsSent()
        + " errors="
        + r.sourceErrors().size()
        + (r.summary() == null ? "" : " " + r.summary().replaceAll("\\s+", " "));
  }

  /** A point in time: an ISO instant, a date (its start, UTC), or an age before now. */
  static final class Moment implements ITypeConverter<Instant> {
    private static final Pattern AGE = Pattern.compile("(\\d{1,9})([smhdw])");

    @Override
    public Instant convert(String value) {
      Matcher age = AGE.matcher(value);
      if (age.matches()) {
        long n = Long.parseLong(age.group(1));
        long seconds =
            switch (age.group(2)) {
              case "s" -> n;
              case "m" -> n * 60;
              case "h" -> n * 3600;
              case "d" -> n * 86_400;
              default -> n * 604_800;
            };
        return Instant.now().minusSeconds(seconds);
      }
      try {
        return value.length() == 10
            ? LocalDate.parse(value).atStartOfDay(ZoneOffset.UTC).toInstant()
            : Instant.parse(value);
      } catch (DateTimeParseException e) {
        throw new picocli.CommandLine.TypeConversionException(
            "'" + value + "' is no time: 2026-11-25T08:00:00Z, 2026-11-25 or an age (24h, 7d)");
      }
    }
  }
}
