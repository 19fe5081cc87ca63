package io.periscope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.Config;
import io.periscope.Periscope;
import io.periscope.auth.Role;
import io.periscope.auth.Tokens;
import io.periscope.config.Settings;
import io.periscope.entity.Failures;
import io.periscope.json.Json;
import io.periscope.notify.AdminAlerts;
import io.periscope.run.EntityRunAll;
import io.periscope.run.RunAllJob;
import io.periscope.run.RunAllResult;
import io.periscope.runtime.ServiceFile;
import io.periscope.watch.RunRecord;
import io.periscope.watch.RunRecords;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code run [--owner ID] [--watch ID]}: runs watches once, now, ignoring schedules — every enabled
 * watch of every account (or of one), or one watch. One line per watch: {@code <owner>/<watchId>
 * <outcome> collected=N fresh=N notified=N errors=N}; exit 1 when any failed.
 *
 * <p>Like every command that writes, it goes through the service running on this data directory
 * (with a short-lived token of each owner), or, when none runs, runs the watches in this process as
 * the journal's only writer. A run that crashed sends the operational alert. On a terminal a
 * progress line on standard error says which account runs and how many watches are done.
 */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description = {
      "Runs watches once, now, ignoring schedules: every enabled watch of every account, of one"
          + " account (--owner), or one watch, enabled or not (--owner and --watch).",
      "Prints one line per watch as it finishes: <owner>/<watchId> <outcome> collected=N fresh=N"
          + " notified=N errors=N. Exit 1 when any failed."
    })
final class RunCommand implements Callable<Integer> {
  @ParentCommand private Root root;
  @Spec private CommandSpec spec;

  @Option(names = "--owner", paramLabel = "ID", description = "only this account's watches")
  private String accountId;

  @Option(
      names = "--watch",
      paramLabel = "ID",
      description = "only this watch of the --owner, even when disabled")
  private String watch;

  @Mixin private Progress.Choice progress;

  /**
   * The lines of the command, printed as each watch finishes; remembers whether any failed. Crashed
   * runs send the operational alert.
   */
  private static final class Lines {
    private final PrintStream out;
    private final AdminAlerts alerts;
    private final Progress progress;
    private boolean anyFailed;
    private String accountId = "";
    private int accountIndex;
    private int accounts;
    private int done;
    private int total;

    Lines(PrintStream out, AdminAlerts alerts, Progress progress) {
      this.out = out;
      this.alerts = alerts;
      this.progress = progress;
    }

    /** The next account's watches start running. */
    void account(String accountId, int index, int accounts) {
      this.accountId = accountId;
      this.accountIndex = index;
      this.accounts = accounts;
      this.done = 0;
      this.total = 0;
      showProgress();
    }

    /** How many watches the account's run covers, once known. */
    void total(int watches) {
      if (watches != total) {
        total = watches;
        showProgress();
      }
    }

    private void showProgress() {
      progress.show(
          "running "
              + accountId
              + (accounts > 1 ? " (account " + (accountIndex + 1) + " of " + accounts + ")" : "")
              + ": "
              + done
              + (total > 0 ? " of " + total : "")
              + " watches done");
    }

    void watch(String accountId, RunAllResult.WatchOutcome o) {
      if (o.status().equals(RunAllResult.SKIPPED)) return;
      anyFailed |= o.status().equals(RunAllResult.FAILED);
      RunRecord r = o.record();
      progress.clear();
      out.println(
          accountId
              + "/"
              + o.watchId()
              + " "
              + (r == null ? RunAllResult.FAILED : r.outcome())
              + " collected="
              + (r == null ? 0 : r.collected())
              + " fresh="
              + (r == null ? 0 : r.fresh())
              + " notified="
              + (r == null ? 0 : r.notificationsSent())
              + " errors="
              + (r == null ? 1 : r.sourceErrors().size() + (r.error() == null ? 0 : 1)));
      out.flush();
      done++;
      showProgress();
      if (r == null || RunRecords.isCrash(r)) {
        alerts
            .alert(
                AdminAlerts.Kind.SCHEDULED_RUN_CRASHED,
                accountId,
                o.watchId(),
                o.error() == null ? "the run crashed" : o.error())
            .toCompletableFuture()
            .join();
      }
    }

    /** An owner whose run-all could not run (one in flight, say): the others still run. */
    void accountFailed(String accountId, String why) {
      anyFailed = true;
      progress.clear();
      out.println(accountId + " error: " + why);
      out.flush();
    }

    int exitCode() {
      progress.clear();
      return anyFailed ? ExitCodes.FAILED : ExitCodes.OK;
    }
  }

  @Override
  public Integer call() throws Exception {
    if (watch != null && accountId == null)
      throw new ParameterException(spec.commandLine(), "--watch needs --owner");
    Config config = root.quietConfig();
    Settings settings = Settings.from(config);
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
    Optional<String> accountId = Optional.ofNullable(this.accountId);
    Optional<String> watch = Optional.ofNullable(this.watch);
    Progress progress = this.progress.on(root.err);
    return SingleWriter.act(
        settings,
        http,
        // the service sends its runs' own alerts; this process adds only the crash alerts
        service ->
            throughService(
                service,
                settings,
                http,
                accountId,
                watch,
                new Lines(
                    root.out, AdminAlerts.create(config, new okhttp3.OkHttpClient()), progress)),
        () -> locally(config, settings, accountId, watch, root.out, progress));
  }

  /** No such watch: nothing ran. */
  private static ExitCodes.Failure noSuchWatch(String accountId, String watchId) {
    return new ExitCodes.Failure(ExitCodes.FAILED, "no watch " + accountId + "/" + watchId);
  }

  /** How often a run-all run in this process is looked at for finished watches. */
  private static final Duration LOOK_EVERY = Duration.ofMillis(250);

  // ---- when no service runs: this process is the writer
  // ---------------------------------------------

  private static int locally(
      Config config,
      Settings settings,
      Optional<String> accountId,
      Optional<String> watch,
      PrintStream out,
      Progress progress)
      throws Exception {
    return SingleWriter.onJournal(
        config, settings, app -> runOn(app, accountId, watch, out, progress));
  }

  private static int runOn(
      Periscope app,
      Optional<String> accountId,
      Optional<String> watch,
      PrintStream out,
      Progress progress)
      throws Exception {
    await(app.seedKeyPools());
    Lines lines = new Lines(out, app.adminAlerts(), progress);
    List<String> accountIds =
        accountId.isPresent()
            ? List.of(accountId.get())
            : await(app.accounts().list()).stream().map(v -> v.id()).toList();
    for (int i = 0; i < accountIds.size(); i++) {
      String o = accountIds.get(i);
      lines.account(o, i, accountIds.size());
      if (watch.isPresent()) {
        lines.total(1);
        RunRecord record;
        try {
          record = await(app.runNow(o, watch.get()));
        } catch (java.util.concurrent.ExecutionException e) {
          if (Failures.isRefusal(e)) throw noSuchWatch(o, watch.get());
          throw e;
        }
        lines.watch(o, RunAllResult.WatchOutcome.of(watch.get(), record));
        continue;
      }
      RunAllJob job;
      try {
        job = await(app.startRunAll(o));
      } catch (java.util.concurrent.ExecutionException e) {
        lines.accountFailed(o, Failures.unwrap(e).getMessage());
        continue;
      }
      Set<String> printed = new HashSet<>();
      long deadline = System.nanoTime() + EntityRunAll.RUN_ALL_TIMEOUT.toNanos();
      while (true) {
        job = await(app.runAllJob(o, job.id()));
        lines.total(job.total());
        for (RunAllResult.WatchOutcome outcome : job.outcomes())
          if (printed.add(outcome.watchId())) lines.watch(o, outcome);
        if (job.finished()) break;
        if (System.nanoTime() > deadline) {
          lines.accountFailed(o, "the run-all did not finish in time");
          break;
        }
        Thread.sleep(LOOK_EVERY.toMillis());
      }
      if (job.status().equals(RunAllJob.FAILED)) lines.accountFailed(o, job.error());
    }
    return lines.exitCode();
  }

  private static <T> T await(CompletionStage<T> stage) throws Exception {
    return stage
        .toCompletableFuture()
        .get(EntityRunAll.RUN_ALL_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
  }

  // ---- through the running service
  // ------------------------------------------------------------------

  private static int throughService(
      ServiceFile service,
      Settings settings,
      HttpClient http,
      Optional<String> accountId,
      Optional<String> watch,
      Lines lines)
      throws Exception {
    Tokens tokens = SingleWriter.tokens(settings);
    List<String> accountIds = new ArrayList<>();
    if (accountId.isPresent()) {
      accountIds.add(accountId.get());
    } else {
      send(http, get(service.base().resolve("/admin/users"), SingleWriter.adminToken(tokens)))
          .body()
          .path("users")
          .forEach(u -> accountIds.add(u.path("id").asText()));
    }
    for (int i = 0; i < accountIds.size(); i++) {
      String o = accountIds.get(i);
      lines.account(o, i, accountIds.size());
      String token =
          tokens.issueOperator(
              o, Role.USER, Instant.now(), EntityRunAll.RUN_ALL_TIMEOUT.plusMinutes(1));
      if (watch.isPresent()) {
        lines.total(1);
        Answer answer =
            send(http, post(service.base().resolve("/watches/" + watch.get() + "/run"), token));
        if (answer.status() == 404) throw noSuchWatch(o, watch.get());
        RunRecord record = Json.MAPPER.treeToValue(answer.ok().path("result"), RunRecord.class);
        lines.watch(o, RunAllResult.WatchOutcome.of(watch.get(), record));
        continue;
      }
      Answer started =
          send(http, post(service.base().resolve("/watches/run-all?async=true"), token));
      if (started.status() != 202) {
        lines.accountFailed(o, started.error());
        continue;
      }
      lines.total(started.body().at("/job/total").asInt(0));
      String events = "/watches/run-all/jobs/" + started.body().at("/job/id").asText() + "/events";
      followEvents(http, get(service.base().resolve(events), token), o, lines);
    }
    return lines.exitCode();
  }

  /**
   * Prints each {@code outcome} event of a run-all job's stream as it comes, until {@code done}.
   */
  private static void followEvents(
      HttpClient http, HttpRequest request, String accountId, Lines lines) throws Exception {
    HttpResponse<java.util.stream.Stream<String>> response =
        http.send(request, HttpResponse.BodyHandlers.ofLines());
    if (response.statusCode() != 200) {
      response.body().close();
      lines.accountFailed(accountId, "the run-all's events answered HTTP " + response.statusCode());
      return;
    }
    try (java.util.stream.Stream<String> stream = response.body()) {
      // An event is its fields up to a blank line, in any order.
      String event = null;
      StringBuilder data = new StringBuilder();
      for (var it = stream.iterator(); it.hasNext(); ) {
        String line = it.next();
        if (line.startsWith("event:")) event = line.substring(6).trim();
        else if (line.startsWith("data:")) data.append(line.substring(5).trim());
        else if (line.isEmpty()) {
          if ("outcome".equals(event))
            lines.watch(accountId, outcome(Json.MAPPER.readTree(data.toString())));
          if ("done".equals(event)) {
            JsonNode job = Json.MAPPER.readTree(data.toString());
            if (job.path("status").asText().equals(RunAllJob.FAILED))
              lines.accountFailed(accountId, job.path("error").asText("the run-all failed"));
            return;
          }
          event = null;
          data.setLength(0);
        }
      }
    }
    lines.accountFailed(accountId, "the run-all's events ended before it finished");
  }

  private static RunAllResult.WatchOutcome outcome(JsonNode outcome) throws Exception {
    JsonNode result = outcome.get("result");
    return new RunAllResult.WatchOutcome(
        outcome.path("watchId").asText(),
        outcome.path("status").asText(),
        result == null ? null : Json.MAPPER.treeToValue(result, RunRecord.class),
        outcome.path("error").asText(null));
  }

  /** An answer of the service: its status and JSON body. */
  private record Answer(int status, JsonNode body) {
    String error() {
      return body.path("error").asText("HTTP " + status);
    }

    /** The body of a 2xx answer; another fails the command with the service's reason. */
    JsonNode ok() {
      if (status / 100 != 2) throw new IllegalStateException(error());
      return body;
    }
  }

  private static HttpRequest get(URI uri, String token) {
    return request(uri, token).GET().build();
  }

  private static HttpRequest post(URI uri, String token) {
    return request(uri, token).POST(HttpRequest.BodyPublishers.noBody()).build();
  }

  private static HttpRequest.Builder request(URI uri, String token) {
    return HttpRequest.newBuilder(uri)
        .timeout(EntityRunAll.RUN_ALL_TIMEOUT.plusSeconds(30))
        .header("Authorization", "Bearer " + token);
  }

  private static Answer send(HttpClient http, HttpRequest request) throws Exception {
    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    JsonNode body =
        response.body().isBlank()
            ? Json.MAPPER.createObjectNode()
            : Json.MAPPER.readTree(response.body());
    return new Answer(response.statusCode(), body);
  }
}
