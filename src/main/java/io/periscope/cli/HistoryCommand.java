package io.periscope.cli;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.core.JsonGenerator;
import io.periscope.account.AccountEntity;
import io.periscope.history.Cursor;
import io.periscope.history.DefinitionChanges;
import io.periscope.history.RunFilter;
import io.periscope.history.RunHistory;
import io.periscope.json.Json;
import io.periscope.notify.ChannelId;
import io.periscope.persistence.JournalReads;
import io.periscope.run.RunView;
import io.periscope.runtime.Node;
import io.periscope.watch.RunRecord;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.stream.javadsl.Sink;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code history}: runs replayed from the event journal, also of deleted watches — one watch's,
 * every watch's of an owner, or of the instance — merged in the order they started, filtered,
 * streamed; with {@code --follow}, new runs as they are recorded; with a cursor, resumed where an
 * earlier replay stopped. It only reads the journal, so it needs no lock and works beside a running
 * service or cluster (the embedded H2 file is shared through its auto-server mode) and with
 * everything stopped.
 */
@Command(
    name = "history",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Replays runs from the event journal, also of deleted watches: one watch's (--owner and"
          + " --watch), every watch's of an account (--owner) or of the instance, merged in the"
          + " order they started, oldest first (--reverse: newest first). --follow then prints"
          + " new runs as they are recorded until interrupted.",
      "Every JSON line carries a cursor, and the end cursor is printed on stderr: --after"
          + " CURSOR shows only what came after it, so an export misses and doubles nothing.",
      "Only reads the journal: works beside a running service or cluster, and without one."
          + " Exit 1 when the journal never held such an account or watch."
    })
final class HistoryCommand implements Callable<Integer> {
  @ParentCommand private Root root;
  @Spec private CommandSpec spec;

  @Option(names = "--owner", paramLabel = "ID", description = "only this account's watches")
  private String accountId;

  @Option(names = "--watch", paramLabel = "ID", description = "only this watch (needs --owner)")
  private String watchId;

  @Option(
      names = "--since",
      paramLabel = "TIME",
      description =
          "runs started at or after TIME: 2026-11-25T08:00:00Z, 2026-11-25T08:00 or 2026-11-25"
              + " (in the shown time zone), or an age such as 90m, 24h, 7d")
  private String sinceText;

  @Option(
      names = "--until",
      paramLabel = "TIME",
      description = "runs started before TIME (same forms as --since)")
  private String untilText;

  @Option(
      names = "--outcome",
      paramLabel = "OUTCOME",
      split = ",",
      description =
          "only runs with these outcomes (repeat or separate with commas): nothing-new,"
              + " no-match, weak-alert, alert, error")
  private List<String> outcomes = new ArrayList<>();

  @Option(
      names = "--trigger",
      paramLabel = "TRIGGER",
      split = ",",
      description = "only runs started so: schedule, manual, run-all")
  private List<String> triggers = new ArrayList<>();

  @Option(
      names = "--delivery",
      paramLabel = "STATE",
      split = ",",
      description =
          "only runs with a delivery in this state: failed (for good), retrying, held, delivered")
  private List<String> deliveries = new ArrayList<>();

  @Option(
      names = "--channel",
      paramLabel = "KIND",
      split = ",",
      description = "only runs delivered (or tried) on this kind of channel: email, telegram, …")
  private List<String> channels = new ArrayList<>();

  @Option(
      names = "--grep",
      paramLabel = "TEXT",
      description =
          "only runs whose summary, reasoning, error or a cited or judged item's title holds TEXT")
  private String grep;

  @Option(names = "--run", paramLabel = "ID", description = "only the run with this id")
  private String runId;

  @Option(
      names = {"-n", "--limit"},
      paramLabel = "N",
      description = "only the newest N of the runs selected (printed in the chosen order)")
  private Integer limit;

  @Option(names = "--reverse", description = "newest first")
  private boolean reverse;

  @Option(
      names = "--after",
      paramLabel = "CURSOR",
      description = "only the runs not shown up to this cursor (a cursor the history printed)")
  private String afterText;

  @Option(names = "--follow", description = "then print new runs as they are recorded")
  private boolean follow;

  @Option(
      names = "--changes",
      description =
          "the changes of the watches' definitions instead of runs: created, replaced,"
              + " enabled, disabled, deleted, restored, by whom, and each changed field")
  private boolean changes;

  @ArgGroup(exclusive = true)
  private Format format = new Format();

  /** How runs are printed: a text line by default. */
  static final class Format {
    @Option(
        names = "--json-lines",
        description = "one JSON object per run and line (a Run with its owner and cursor)")
    boolean jsonLines;

    @Option(
        names = "--json",
        description = "one JSON document {owner, watchId, runs: [...], cursor} (no --follow)")
    boolean json;

    @Option(names = "--csv", description = "comma-separated values with a header line")
    boolean csv;
  }

  @ArgGroup(exclusive = true)
  private Zone zoneOptions = new Zone();

  /** The time zone of the times printed and of times given without one. */
  static final class Zone {
    @Option(names = "--utc", description = "times in UTC (the default)")
    boolean utc;

    @Option(names = "--local", description = "times in this machine's time zone")
    boolean local;
  }

  private static final Map<String, String> DELIVERY_STATES =
      Map.of(
          "failed", RunRecord.DeliveryRecord.FAILED,
          "retrying", RunRecord.DeliveryRecord.PENDING,
          "held", RunRecord.DeliveryRecord.HELD,
          "delivered", RunRecord.DeliveryRecord.DELIVERED);

  private static final Set<String> TRIGGERS =
      Set.of(RunRecord.TRIGGER_SCHEDULE, RunRecord.TRIGGER_MANUAL, RunRecord.TRIGGER_RUN_ALL);

  private static final Set<String> CHANNEL_KINDS =
      Arrays.stream(ChannelId.Kind.values())
          .map(k -> k.name().toLowerCase(Locale.ROOT))
          .collect(Collectors.toUnmodifiableSet());

  /**
   * A run as {@code --json-lines} prints it: the run of GET /watches/:id/runs, its owner and
   * cursor.
   */
  record Line(String owner, @JsonUnwrapped RunView run, String cursor) {}

  private ZoneId zone = ZoneOffset.UTC;
  private RunFilter filter;
  private Cursor after = Cursor.START;

  @Override
  public Integer call() throws Exception {
    checkOptions();
    ActorSystem<Void> system = Node.startLocal(root.quietConfig());
    try {
      return replay(new JournalReads(system));
    } finally {
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  /** Checks the options and reads what they mean; a usage error otherwise. */
  void checkOptions() {
    if (watchId != null && accountId == null) throw usage("--watch needs --owner");
    if (limit != null && limit < 1) throw usage("--limit must be a positive integer");
    for (String o : outcomes)
      if (!RunRecord.OUTCOMES.contains(o))
        throw usage(
            "--outcome '" + o + "' is none of " + String.join(", ", sorted(RunRecord.OUTCOMES)));
    for (String t : triggers)
      if (!TRIGGERS.contains(t))
        throw usage("--trigger '" + t + "' is none of " + String.join(", ", sorted(TRIGGERS)));
    for (String d : deliveries)
      if (!DELIVERY_STATES.containsKey(d))
        throw usage(
            "--delivery '"
                + d
                + "' is none of "
                + String.join(", ", sorted(DELIVERY_STATES.keySet())));
    for (String c : channels)
      if (!CHANNEL_KINDS.contains(c))
        throw usage("--channel '" + c + "' is none of " + String.join(", ", sorted(CHANNEL_KINDS)));
    if (zoneOptions.local) zone = ZoneId.systemDefault();
    Instant since = sinceText == null ? null : moment("--since", sinceText);
    Instant until = untilText == null ? null : moment("--until", untilText);
    if (since != null && until != null && !since.isBefore(until))
      throw usage("--since must be before --until");
    if (format.json && follow)
      throw usage("--json is one document: use --json-lines with --follow");
    if (changes) {
      if (follow) throw usage("--follow follows runs: leave it out with --changes");
      if (!outcomes.isEmpty()
          || !triggers.isEmpty()
          || !deliveries.isEmpty()
          || !channels.isEmpty()
          || runId != null)
        throw usage("--changes takes --since, --until, --grep, -n, --reverse and --after only");
    }
    if (afterText != null) {
      if (reverse) throw usage("--after resumes oldest first: leave out --reverse");
      try {
        after = Cursor.decode(afterText);
      } catch (IllegalArgumentException e) {
        throw usage("--after: " + e.getMessage());
      }
    }
    filter =
        new RunFilter(
            since,
            until,
            Set.copyOf(outcomes),
            Set.copyOf(triggers),
            deliveries.stream().map(DELIVERY_STATES::get).collect(Collectors.toSet()),
            Set.copyOf(channels),
            grep,
            runId);
  }

  private static List<String> sorted(Set<String> values) {
    return values.stream().sorted().toList();
  }

  private ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }

  /** The replay the checked options ask for, on {@code journal}; the exit code. */
  int replay(JournalReads journal) throws Exception {
    if (accountId != null && !known(journal)) {
      root.err.println(
          "error: the journal never held "
              + (watchId == null
                  ? "an account or watch of " + accountId
                  : "a watch " + accountId + "/" + watchId));
      return ExitCodes.FAILED;
    }
    RunHistory.Selection selection = new RunHistory.Selection(accountId, watchId, filter, after);
    if (changes) return replayChanges(journal, selection);
    RunHistory.Past past = RunHistory.past(journal, selection, reverse || limit != null);
    Iterator<RunHistory.Run> runs = past.runs();
    if (limit != null) {
      // the newest N, turned around unless newest first was asked for: N runs are held
      List<RunHistory.Run> newest = new ArrayList<>(limit);
      while (newest.size() < limit && runs.hasNext()) newest.add(runs.next());
      if (!reverse) Collections.reverse(newest);
      runs = newest.iterator();
    }
    Output output =
        format.json ? new Document() : format.csv ? new Csv() : new Lines(format.jsonLines);
    Cursor cursor = after;
    while (runs.hasNext()) {
      RunHistory.Run run = runs.next();
      // newest first, a run's cursor is its place: resuming after it shows what is newer
      cursor = (reverse ? Cursor.START : cursor).after(run, past.upTo());
      output.run(run, cursor);
    }
    // read to its end: everything up to the position read is shown
    Cursor end = Cursor.through(past.upTo());
    output.end(end);
    if (!follow) return ExitCodes.OK;
    Cursor[] last = {end};
    Thread printLast = new Thread(() -> endCursor(last[0]));
    Runtime.getRuntime().addShutdownHook(printLast);
    try {
      await(
          RunHistory.recordedAfter(journal, past.upTo(), selection)
              .runWith(
                  Sink.foreach(
                      run -> {
                        // followed runs show in the order of their records
                        last[0] = Cursor.through(run.position());
                        output.run(run, last[0]);
                      }),
                  journal.system()));
    } finally {
      Runtime.getRuntime().removeShutdownHook(printLast);
    }
    return ExitCodes.OK;
  }

  /**
   * The changes of the selected watches' definitions, oldest first (newest first with {@code
   * --reverse}); a change's cursor is the journal position of its event.
   */
  private int replayChanges(JournalReads journal, RunHistory.Selection selection) throws Exception {
    DefinitionChanges.Past past =
        DefinitionChanges.past(
            journal, selection, filter.since(), filter.until(), after.lowestUpTo());
    List<ChangeOutput.ChangeLine> shown = new ArrayList<>();
    for (DefinitionChanges.Change c : past.changes()) {
      ChangeOutput.ChangeLine line = ChangeOutput.of(c, Cursor.through(c.position()).encode());
      if (grep == null
          || Json.text(line).toLowerCase(Locale.ROOT).contains(grep.toLowerCase(Locale.ROOT)))
        shown.add(line);
    }
    if (limit != null && shown.size() > limit)
      shown = new ArrayList<>(shown.subList(shown.size() - limit, shown.size()));
    if (reverse) Collections.reverse(shown);
    String end = Cursor.through(past.upTo()).encode();
    if (format.json) {
      root.out.println(Json.text(new ChangeDocument(accountId, watchId, shown, end)));
    } else {
      if (format.csv) root.out.println(ChangeOutput.CSV_HEADER);
      for (ChangeOutput.ChangeLine line : shown)
        root.out.println(
            format.csv
                ? ChangeOutput.csv(line, zone)
                : format.jsonLines ? Json.text(line) : ChangeOutput.text(line, zone));
      root.err.println("cursor: " + end);
    }
    root.out.flush();
    return ExitCodes.OK;
  }

  /** {@code --changes --json}: the changes and the end cursor in one document. */
  record ChangeDocument(
      String owner, String watchId, List<ChangeOutput.ChangeLine> changes, String cursor) {}

  /** Whether the journal ever held the account or watch selected. */
  private boolean known(JournalReads journal) throws Exception {
    if (watchId != null) return await(RunHistory.exists(journal, accountId, watchId));
    return await(journal.lastSequenceNr(AccountEntity.TYPE_KEY.name(), accountId)) > 0
        || await(RunHistory.anyWatchOf(journal, accountId));
  }

  private void endCursor(Cursor cursor) {
    root.err.println("cursor: " + cursor.encode());
    root.err.flush();
  }

  private static <T> T await(CompletionStage<T> stage) throws Exception {
    return stage.toCompletableFuture().get(30, TimeUnit.DAYS);
  }

  /** Where runs are printed, as they come. */
  private interface Output {
    void run(RunHistory.Run run, Cursor cursor) throws IOException;

    void end(Cursor cursor) throws IOException;
  }

  /** A line per run: text, or a JSON object. The end cursor goes to stderr. */
  private final class Lines implements Output {
    private final boolean json;

    Lines(boolean json) {
      this.json = json;
    }

    @Override
    public void run(RunHistory.Run run, Cursor cursor) {
      root.out.println(
          json
              ? Json.text(
                  new Line(
                      run.accountId(), RunView.of(run.watchId(), run.record()), cursor.encode()))
              : line(run, zone));
      root.out.flush();
    }

    @Override
    public void end(Cursor cursor) {
      endCursor(cursor);
    }
  }

  /**
   * {@code --json}: {@code {owner, watchId, runs: [...], cursor}}, the runs written as they come,
   * so the document is never whole in memory.
   */
  private final class Document implements Output {
    private final JsonGenerator json;

    Document() throws IOException {
      json =
          Json.MAPPER
              .getFactory()
              .createGenerator(new OutputStreamWriter(root.out, StandardCharsets.UTF_8))
              .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
      json.writeStartObject();
      json.writeStringField("owner", accountId);
      json.writeStringField("watchId", watchId);
      json.writeArrayFieldStart("runs");
    }

    @Override
    public void run(RunHistory.Run run, Cursor cursor) throws IOException {
      Json.MAPPER.writeValue(
          json,
          new Line(run.accountId(), RunView.of(run.watchId(), run.record()), cursor.encode()));
    }

    @Override
    public void end(Cursor cursor) throws IOException {
      json.writeEndArray();
      json.writeStringField("cursor", cursor.encode());
      json.writeEndObject();
      json.flush();
      root.out.println();
      root.out.flush();
    }
  }

  /** {@code --csv}: a header, then a row per run. The end cursor goes to stderr. */
  private final class Csv implements Output {
    Csv() {
      root.out.println(
          "cursor,startedAt,owner,watchId,runId,trigger,outcome,durationMs,collected,fresh,"
              + "notified,sourceErrors,deliveries,decision,error,summary");
    }

    @Override
    public void run(RunHistory.Run run, Cursor cursor) {
      RunRecord r = run.record();
      root.out.println(
          String.join(
              ",",
              cursor.encode(),
              time(r.startedAt(), zone),
              CsvCell.of(run.accountId()),
              CsvCell.of(run.watchId()),
              CsvCell.of(r.runId()),
              CsvCell.of(r.trigger()),
              r.outcome(),
              Long.toString(r.durationMs()),
              Integer.toString(r.collected()),
              Integer.toString(r.fresh()),
              Integer.toString(r.notificationsSent()),
              Integer.toString(r.sourceErrors() == null ? 0 : r.sourceErrors().size()),
              CsvCell.of(deliveries(r)),
              CsvCell.of(r.decision()),
              CsvCell.of(r.error()),
              CsvCell.of(r.summary())));
      root.out.flush();
    }

    @Override
    public void end(Cursor cursor) {
      endCursor(cursor);
    }
  }

  /**
   * {@code <startedAt> <owner>/<watchId> <outcome> run=ID trigger=… collected=N fresh=N notified=N
   * errors=N[ deliveries=…][ decision=…][ error="…"][ summary]}; text from feeds and models has its
   * control characters (line breaks, terminal escapes) replaced by spaces.
   */
  static String line(RunHistory.Run run, ZoneId zone) {
    RunRecord r = run.record();
    String deliveries = deliveries(r);
    return time(r.startedAt(), zone)
        + " "
        + run.accountId()
        + "/"
        + run.watchId()
        + " "
        + r.outcome()
        + " run="
        + r.runId()
        + " trigger="
        + r.trigger()
        + " collected="
        + r.collected()
        + " fresh="
        + r.fresh()
        + " notified="
        + r.notificationsSent()
        + " errors="
        + (r.sourceErrors() == null ? 0 : r.sourceErrors().size())
        + (deliveries.isEmpty() ? "" : " deliveries=" + deliveries)
        + (r.decision() == null ? "" : " decision=" + r.decision())
        + (r.error() == null ? "" : " error=" + Json.text(oneLine(r.error())))
        + (r.summary() == null ? "" : " " + oneLine(r.summary()));
  }

  private static String oneLine(String text) {
    return text.replaceAll("[\\s\\p{Cc}]+", " ").strip();
  }

  /** {@code email:delivered;telegram:failed}: each delivery's channel kind and state. */
  private static String deliveries(RunRecord r) {
    if (r.deliveries() == null) return "";
    return r.deliveries().stream()
        .map(d -> channelKind(d.channel()) + ":" + d.state())
        .collect(Collectors.joining(";"));
  }

  private static String channelKind(String channel) {
    int colon = channel.indexOf(':');
    return colon < 0 ? channel : channel.substring(0, colon);
  }

  private static String time(Instant at, ZoneId zone) {
    return zone.equals(ZoneOffset.UTC)
        ? at.toString()
        : java.time.format.DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(at.atZone(zone));
  }

  private static final Pattern AGE = Pattern.compile("(\\d{1,9})([smhdw])");

  /** A point in time: an instant, a local date-time or date (in the shown zone), or an age. */
  private Instant moment(String option, String value) {
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
      if (value.length() == 10) return LocalDate.parse(value).atStartOfDay(zone).toInstant();
      try {
        return java.time.OffsetDateTime.parse(value).toInstant();
      } catch (DateTimeParseException noOffset) {
        return LocalDateTime.parse(value).atZone(zone).toInstant();
      }
    } catch (DateTimeParseException e) {
      throw usage(
          option
              + ": '"
              + value
              + "' is no time: 2026-11-25T08:00:00Z, 2026-11-25T08:00, 2026-11-25 or an age"
              + " (24h, 7d)");
    }
  }
}
