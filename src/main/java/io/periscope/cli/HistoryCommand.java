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
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * {@code history --owner ID --watch ID [--limit N] [--json]}: a watch's runs replayed from the
 * event journal, newest first (all of them unless {@code --limit}), also after the watch was
 * deleted. It only reads the journal, so it needs no lock and works beside a running service or
 * cluster (the embedded H2 file is shared through its auto-server mode).
 */
final class HistoryCommand {
  private HistoryCommand() {}

  /** The {@code --json} output: the shape of GET /watches/:id/runs, with the owner. */
  record History(String owner, String watchId, List<RunView> runs) {}

  static int run(List<String> args, Config config, PrintStream out, PrintStream err)
      throws Exception {
    Args a = new Args(args, Set.of("--owner", "--watch", "--limit"), Set.of("--json"));
    String owner = a.required("--owner");
    String watchId = a.required("--watch");
    int limit = a.get("--limit").map(HistoryCommand::positive).orElse(Integer.MAX_VALUE);
    ActorSystem<Void> system = Node.startLocal(config);
    try {
      Optional<List<RunRecord>> runs =
          RunHistory.replay(new JournalReads(system), owner, watchId, limit)
              .toCompletableFuture()
              .get(5, TimeUnit.MINUTES);
      if (runs.isEmpty()) {
        err.println("error: the journal holds no watch " + owner + "/" + watchId);
        return 1;
      }
      if (a.flag("--json")) {
        out.println(
            Json.text(
                new History(
                    owner,
                    watchId,
                    runs.get().stream().map(r -> RunView.of(watchId, r)).toList())));
      } else {
        runs.get().forEach(r -> out.println(line(r)));
      }
      return 0;
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

  private static int positive(String value) {
    try {
      int n = Integer.parseInt(value);
      if (n > 0) return n;
    } catch (NumberFormatException ignored) {
      // reported below
    }
    throw new Args.UsageException("--limit must be a positive integer");
  }
}
