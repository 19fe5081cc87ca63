package io.periscope.cli;

import com.typesafe.config.Config;
import io.periscope.json.Json;
import io.periscope.persistence.JournalReads;
import io.periscope.run.RunView;
import io.periscope.runtime.Node;
import io.periscope.watch.RunHistory;
import io.periscope.watch.RunRecord;
import java.io.PrintStream;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorSystem;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code history --owner ID --watch ID [--limit N] [--json]}: a watch's runs replayed from the
 * event journal, newest first (all of them unless {@code --limit}), also after the watch was
 * deleted. It only reads the journal, so it needs no lock and works beside a running service or
 * cluster (the embedded H2 file is shared through its auto-server mode).
 */
@Command(
    name = "history",
    mixinStandardHelpOptions = true,
    description = {
      "Replays a watch's runs from the event journal, newest first, also after the watch was"
          + " deleted. Only reads the journal: works beside a running service and without one.",
      "One line per run, or with --json {owner, watchId, runs}. Exit 1 when the journal holds no"
          + " such watch."
    })
final class HistoryCommand implements Callable<Integer> {
  @ParentCommand private Root root;
  @Spec private CommandSpec spec;

  @Option(names = "--owner", required = true, paramLabel = "ID")
  private String owner;

  @Option(names = "--watch", required = true, paramLabel = "ID")
  private String watchId;

  @Option(names = "--limit", paramLabel = "N", description = "only the newest N runs")
  private Integer limit;

  @Option(names = "--json", description = "one JSON document")
  private boolean json;

  /** The {@code --json} output: the shape of GET /watches/:id/runs, with the owner. */
  record History(String owner, String watchId, List<RunView> runs) {}

  @Override
  public Integer call() throws Exception {
    if (limit != null && limit < 1)
      throw new ParameterException(spec.commandLine(), "--limit must be a positive integer");
    PrintStream out = root.out;
    PrintStream err = root.err;
    Config config = root.quietConfig();
    int limit = this.limit == null ? Integer.MAX_VALUE : this.limit;
    ActorSystem<Void> system = Node.startLocal(config);
    try {
      Optional<List<RunRecord>> runs =
          RunHistory.replay(new JournalReads(system), owner, watchId, limit)
              .toCompletableFuture()
              .get(5, TimeUnit.MINUTES);
      if (runs.isEmpty()) {
        err.println("error: the journal holds no watch " + owner + "/" + watchId);
        return ExitCodes.FAILED;
      }
      if (json) {
        out.println(
            Json.text(
                new History(
                    owner,
                    watchId,
                    runs.get().stream().map(r -> RunView.of(watchId, r)).toList())));
      } else {
        runs.get().forEach(r -> out.println(line(r)));
      }
      return ExitCodes.OK;
    } finally {
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  /** {@code <startedAt> <outcome> trigger=… collected=N fresh=N notified=N errors=N[ summary]}. */
  static String line(RunRecord r) {
    return r.startedAt()
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
}
