package io.periscope.watch;

import io.periscope.entity.Asks;
import io.periscope.entity.EntityRefusal;
import io.periscope.entity.Failures;
import io.periscope.persistence.JournalReads;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Pages of a watch's run history, newest first, through everything the journal keeps
 * (RUN_HISTORY_RETENTION): the watch entity answers from the runs it holds in memory, and a page
 * older than those is read from the journal, like {@link RunHistory}, without starting anything.
 */
public final class RunPages {
  private final WatchEntity.Refs watches;
  private final Asks asks;
  private final JournalReads journal;

  public RunPages(WatchEntity.Refs watches, Asks asks, JournalReads journal) {
    this.watches = watches;
    this.asks = asks;
    this.journal = journal;
  }

  /**
   * The newest {@code limit} kept runs, or with {@code before} the {@code limit} kept runs older
   * than that run. Refused as the entity refuses: {@code watch not found} for a watch that never
   * existed, {@link WatchEntity#NO_SUCH_RUN} for a {@code before} that is not a kept run.
   */
  public CompletionStage<WatchEntity.Runs> page(
      String accountId, String watchId, int limit, String before) {
    return asks.<WatchEntity.Command, WatchEntity.Runs>ask(
            watches.watch(accountId, watchId), r -> new WatchEntity.GetRuns(limit, before, r))
        .handle(
            (inMemory, failure) -> {
              if (failure == null) {
                if (inMemory.runs().size() == limit || !inMemory.more())
                  return CompletableFuture.completedFuture(inMemory);
                // the page reached past the runs in memory: the journal has the rest
                String from =
                    inMemory.runs().isEmpty()
                        ? before
                        : inMemory.runs().get(inMemory.runs().size() - 1).runId();
                int missing = limit - inMemory.runs().size();
                return fromJournal(accountId, watchId, missing, from)
                    .thenApply(
                        older -> {
                          List<RunRecord> runs = new ArrayList<>(inMemory.runs());
                          runs.addAll(older.runs());
                          return new WatchEntity.Runs(List.copyOf(runs), older.more());
                        });
              }
              if (before != null && EntityRefusal.is(failure, EntityRefusal.Code.NO_SUCH_RUN))
                return fromJournal(accountId, watchId, limit, before);
              return CompletableFuture.<WatchEntity.Runs>failedFuture(Failures.unwrap(failure));
            })
        .thenCompose(page -> page);
  }

  /**
   * The whole record of the kept run {@code runId}, its judged items included: the watch holds its
   * runs without them, the journal's event of the run has them; a deleted watch's runs are read
   * from the journal. Refused as the watch refuses, or with {@link WatchEntity#NO_SUCH_RUN} for a
   * run the journal does not keep.
   */
  public CompletionStage<RunRecord> whole(String accountId, String watchId, String runId) {
    return asks.<WatchEntity.Command, RunRecord>ask(
            watches.watch(accountId, watchId), r -> new WatchEntity.GetRun(runId, r))
        .handle(
            (held, failure) -> {
              if (failure != null && !Failures.isRefusal(failure))
                return CompletableFuture.<RunRecord>failedFuture(Failures.unwrap(failure));
              // a deleted watch refuses, its journal still keeps its runs
              return journal
                  .foldEvents(
                      WatchEntity.TYPE_KEY.name(),
                      WatchEntity.entityId(accountId, watchId),
                      new Window(0, runId),
                      Window::add)
                  .thenApply(
                      window -> {
                        RunRecord recorded = window.recorded();
                        // the watch's copy has the newest deliveries
                        if (held != null)
                          return recorded == null ? held : held.withJudged(recorded.judged());
                        if (recorded != null) return recorded;
                        if (failure != null) return Failures.<RunRecord>rethrow(failure);
                        throw new EntityRefusal(
                            EntityRefusal.Code.NO_SUCH_RUN, WatchEntity.NO_SUCH_RUN);
                      });
            })
        .thenCompose(run -> run);
  }

  /**
   * The newest {@code limit} runs that asked the model for a verdict ({@code alert}, {@code
   * weak-alert}, {@code no-match}), newest first, whole as the journal keeps them (a run recorded
   * before runs kept what they judged has no {@code judged}); one read of the journal.
   */
  public CompletionStage<List<RunRecord>> judgedRuns(String accountId, String watchId, int limit) {
    return journal
        .foldEvents(
            WatchEntity.TYPE_KEY.name(),
            WatchEntity.entityId(accountId, watchId),
            new ArrayDeque<RunRecord>(),
            (newest, event) -> {
              RunRecord record = recordOf(event);
              if (record != null && VERDICTS.contains(record.outcome())) {
                newest.addFirst(record);
                if (newest.size() > limit) newest.removeLast();
              }
              return newest;
            })
        .thenApply(List::copyOf);
  }

  private static final java.util.Set<String> VERDICTS =
      java.util.Set.of(RunRecord.ALERT, RunRecord.WEAK_ALERT, RunRecord.NO_MATCH);

  /** The run an event records, or null. */
  private static RunRecord recordOf(Object event) {
    return event instanceof WatchEntity.RunRecorded run
        ? run.record()
        : event instanceof WatchEntity.RunJudged run ? run.record() : null;
  }

  /** The {@code limit} runs the journal keeps older than {@code before}. */
  private CompletionStage<WatchEntity.Runs> fromJournal(
      String accountId, String watchId, int limit, String before) {
    return journal
        .foldEvents(
            WatchEntity.TYPE_KEY.name(),
            WatchEntity.entityId(accountId, watchId),
            new Window(limit, before),
            Window::add)
        .thenApply(Window::page);
  }

  /**
   * The runs just older than {@code before}, one more than a page, as the events go by; and the
   * record of {@code before} itself, with its deliveries.
   */
  private static final class Window {
    private final int limit;
    private final String before;
    private final ArrayDeque<RunRecord> runs = new ArrayDeque<>();
    private boolean found;
    private RunRecord recorded;

    Window(int limit, String before) {
      this.limit = limit;
      this.before = before;
    }

    Window add(Object event) {
      RunRecord record = recordOf(event);
      if (record != null && !found) {
        if (record.runId().equals(before)) {
          found = true;
          recorded = record;
        } else {
          runs.addLast(record);
          if (runs.size() > limit + 1) runs.removeFirst();
        }
      } else if (event instanceof WatchEntity.AlertDelivered sent) {
        List<RunRecord> delivered = new ArrayList<>(runs.size());
        for (RunRecord r : runs)
          delivered.add(
              r.runId().equals(sent.runId())
                  ? r.withDeliveries(sent.deliveries(), sent.totalMs())
                  : r);
        runs.clear();
        runs.addAll(delivered);
        if (recorded != null && recorded.runId().equals(sent.runId()))
          recorded = recorded.withDeliveries(sent.deliveries(), sent.totalMs());
      }
      return this;
    }

    /** The record of {@code before} with its deliveries; null when the journal has none. */
    RunRecord recorded() {
      return recorded;
    }

    WatchEntity.Runs page() {
      if (!found) throw new EntityRefusal(EntityRefusal.Code.NO_SUCH_RUN, WatchEntity.NO_SUCH_RUN);
      List<RunRecord> newestFirst = new ArrayList<>(runs);
      Collections.reverse(newestFirst);
      boolean more = newestFirst.size() > limit;
      return new WatchEntity.Runs(
          List.copyOf(newestFirst.subList(0, Math.min(limit, newestFirst.size()))), more);
    }
  }
}
