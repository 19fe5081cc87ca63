package io.periscope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.Config;
import io.periscope.Periscope;
import io.periscope.auth.Tokens;
import io.periscope.config.Settings;
import io.periscope.entity.Failures;
import io.periscope.json.Json;
import io.periscope.notify.AdminAlerts;
import io.periscope.owner.Role;
import io.periscope.run.EntityRunAll;
import io.periscope.run.RunAllResult;
import io.periscope.runtime.LocalEntities;
import io.periscope.runtime.Node;
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
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * {@code run [--owner ID] [--watch ID]}: runs watches once, now, ignoring schedules — every enabled
 * watch of every account (or of one), or one watch. One line per watch: {@code <owner>/<watchId>
 * <outcome> collected=N fresh=N notified=N errors=N}; exit 1 when any failed.
 *
 * <p>Like every command that writes, it goes through the service running on this data directory
 * (with a short-lived token of each owner), or, when none runs, runs the watches in this process as
 * the journal's only writer. A run that crashed sends the operational alert.
 */
final class RunCommand {
  private RunCommand() {}

  /** One owner's part of the command: its run-all, or the one watch asked for. */
  private record OwnerRuns(String owner, List<RunAllResult.WatchOutcome> outcomes) {}

  static int run(List<String> args, Config config, PrintStream out, PrintStream err)
      throws Exception {
    Args a = new Args(args, Set.of("--owner", "--watch"), Set.of());
    Optional<String> owner = a.get("--owner");
    Optional<String> watch = a.get("--watch");
    if (watch.isPresent() && owner.isEmpty())
      throw new Args.UsageException("--watch needs --owner");
    Settings settings = Settings.from(config);
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
    try {
      return SingleWriter.act(
          settings,
          http,
          // the service sends its runs' own alerts; this process adds only the crash alerts
          service ->
              report(
                  throughService(service, settings, http, owner, watch),
                  AdminAlerts.create(config, new okhttp3.OkHttpClient()),
                  out),
          () -> locally(config, settings, owner, watch, out, err));
    } catch (SingleWriter.Busy | NoSuchWatch e) {
      err.println("error: " + e.getMessage());
      return 1;
    }
  }

  private static final class NoSuchWatch extends RuntimeException {
    NoSuchWatch(String owner, String watchId) {
      super("no watch " + owner + "/" + watchId);
    }
  }

  // ---- when no service runs: this process is the writer
  // ---------------------------------------------

  private static int locally(
      Config config,
      Settings settings,
      Optional<String> owner,
      Optional<String> watch,
      PrintStream out,
      PrintStream err)
      throws Exception {
    ActorSystem<Void> system = Node.startLocal(config);
    try {
      Periscope app =
          new Periscope(system, config, new LocalEntities(system), SingleWriter.tokens(settings));
      await(app.seedKeyPools());
      List<String> owners =
          owner.isPresent()
              ? List.of(owner.get())
              : await(app.accounts().list()).stream().map(v -> v.id()).toList();
      List<OwnerRuns> runs = new ArrayList<>();
      for (String o : owners) {
        if (watch.isPresent()) {
          RunRecord record;
          try {
            record = await(app.runNow(o, watch.get()));
          } catch (java.util.concurrent.ExecutionException e) {
            if (Failures.isRefusal(e)) throw new NoSuchWatch(o, watch.get());
            throw e;
          }
          runs.add(new OwnerRuns(o, List.of(RunAllResult.WatchOutcome.of(watch.get(), record))));
        } else {
          runs.add(new OwnerRuns(o, await(app.runAll(o)).outcomes()));
        }
      }
      return report(runs, app.adminAlerts(), out);
    } finally {
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  private static <T> T await(CompletionStage<T> stage) throws Exception {
    return stage
        .toCompletableFuture()
        .get(EntityRunAll.RUN_ALL_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
  }

  // ---- through the running service
  // ------------------------------------------------------------------

  private static List<OwnerRuns> throughService(
      ServiceFile service,
      Settings settings,
      HttpClient http,
      Optional<String> owner,
      Optional<String> watch)
      throws Exception {
    Tokens tokens = SingleWriter.tokens(settings);
    List<String> owners = new ArrayList<>();
    if (owner.isPresent()) {
      owners.add(owner.get());
    } else {
      call(http, service.base().resolve("/admin/users"), SingleWriter.adminToken(tokens), false)
          .path("users")
          .forEach(u -> owners.add(u.path("id").asText()));
    }
    List<OwnerRuns> runs = new ArrayList<>();
    for (String o : owners) {
      String token =
          tokens.issue(o, Role.USER, Instant.now(), EntityRunAll.RUN_ALL_TIMEOUT.plusMinutes(1));
      if (watch.isPresent()) {
        JsonNode result =
            call(http, service.base().resolve("/watches/" + watch.get() + "/run"), token, true);
        if (result == null) throw new NoSuchWatch(o, watch.get());
        RunRecord record = Json.MAPPER.treeToValue(result.path("result"), RunRecord.class);
        runs.add(new OwnerRuns(o, List.of(RunAllResult.WatchOutcome.of(watch.get(), record))));
      } else {
        JsonNode body = call(http, service.base().resolve("/watches/run-all"), token, true);
        List<RunAllResult.WatchOutcome> outcomes = new ArrayList<>();
        for (JsonNode outcome : body.path("outcomes")) {
          JsonNode result = outcome.get("result");
          outcomes.add(
              new RunAllResult.WatchOutcome(
                  outcome.path("watchId").asText(),
                  outcome.path("status").asText(),
                  result == null ? null : Json.MAPPER.treeToValue(result, RunRecord.class),
                  outcome.path("error").asText(null)));
        }
        runs.add(new OwnerRuns(o, outcomes));
      }
    }
    return runs;
  }

  /** The answer's body; null for a 404. */
  private static JsonNode call(HttpClient http, URI uri, String token, boolean post)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri)
            .timeout(EntityRunAll.RUN_ALL_TIMEOUT.plusSeconds(30))
            .header("Authorization", "Bearer " + token);
    request = post ? request.POST(HttpRequest.BodyPublishers.noBody()) : request.GET();
    HttpResponse<String> response =
        http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() == 404) return null;
    JsonNode body = Json.MAPPER.readTree(response.body());
    if (response.statusCode() != 200) {
      throw new IllegalStateException(body.path("error").asText("HTTP " + response.statusCode()));
    }
    return body;
  }

  // ---- the lines
  // ------------------------------------------------------------------------------------

  private static int report(List<OwnerRuns> runs, AdminAlerts alerts, PrintStream out) {
    boolean anyFailed = false;
    for (OwnerRuns owner : runs) {
      for (RunAllResult.WatchOutcome o : owner.outcomes()) {
        if (o.status().equals(RunAllResult.SKIPPED)) continue;
        anyFailed |= o.status().equals(RunAllResult.FAILED);
        RunRecord r = o.record();
        out.println(
            owner.owner()
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
        if (r == null || RunRecords.isCrash(r)) {
          alerts
              .alert(
                  AdminAlerts.Kind.SCHEDULED_RUN_CRASHED,
                  owner.owner(),
                  o.watchId(),
                  o.error() == null ? "the run crashed" : o.error())
              .toCompletableFuture()
              .join();
        }
      }
    }
    return anyFailed ? 1 : 0;
  }
}
