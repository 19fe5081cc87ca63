package io.periscope.watch;

import io.periscope.persistence.JournalReads;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.function.Predicate;
import org.apache.pekko.NotUsed;
import org.apache.pekko.japi.Pair;
import org.apache.pekko.persistence.query.EventEnvelope;
import org.apache.pekko.stream.javadsl.Sink;
import org.apache.pekko.stream.javadsl.Source;

/**
 * Runs replayed from the watches' events in the journal, as the operator's {@code history} reads
 * them: also after a watch was deleted, without starting its entity, and streamed — whatever the
 * length of a history, only a page of one watch's events is in memory at a time (and, when
 * following, the run of each watch whose alert is still being delivered).
 *
 * <p>A run is {@link WatchEntity.RunRecorded}, or {@link WatchEntity.RunJudged} completed by its
 * {@link WatchEntity.AlertDelivered}s (a judged run whose deliveries never came is shown without
 * them; following shows a run with its first attempts, not its later retries).
 */
public final class RunHistory {
  /** How many events of one watch are read at once when reading it newest first. */
  static final int PAGE = 256;

  /**
   * How long {@code follow} waits for the deliveries of a judged run before it shows the run
   * without them (a node stopped in between).
   */
  static final Duration DELIVERIES_PATIENCE = Duration.ofMinutes(2);

  private RunHistory() {}

  /** One run of one watch. */
  public record Run(String owner, String watchId, RunRecord record) {}

  /**
   * Which runs: started in [{@code since}, {@code until}) (either may be null: unbounded), with one
   * of {@code outcomes} (empty: any).
   */
  public record Filter(Instant since, Instant until, Set<String> outcomes)
      implements Predicate<RunRecord> {
    public static final Filter ALL = new Filter(null, null, Set.of());

    public Filter {
      outcomes = Set.copyOf(outcomes);
    }

    @Override
    public boolean test(RunRecord r) {
      return (since == null || !r.startedAt().isBefore(since))
          && (until == null || r.startedAt().isBefore(until))
          && (outcomes.isEmpty() || outcomes.contains(r.outcome()));
    }
  }

  /** Whether the journal holds any event of the watch (a deleted one included). */
  public static CompletionStage<Boolean> exists(
      JournalReads journal, String owner, String watchId) {
    return journal
        .lastSequenceNr(WatchEntity.TYPE_KEY.name(), WatchEntity.entityId(owner, watchId))
        .thenApply(last -> last > 0);
  }

  /**
   * The watches that ever wrote an event, as {@code owner:watchId} entity ids, sorted: those of
   * {@code owner}, or of every owner when it is null.
   */
  public static CompletionStage<List<String>> watches(JournalReads journal, String owner) {
    return journal
        .entityIds(WatchEntity.TYPE_KEY.name())
        .thenApply(
            ids ->
                owner == null
                    ? ids
                    : ids.stream().filter(id -> id.startsWith(owner + ":")).toList());
  }

  /**
   * What a replay read: the sequence number of the last event it read of each watch, by persistence
   * id, so that following after it shows each run once.
   */
  public static final class ReadUpTo {
    private final Map<String, Long> last = new java.util.concurrent.ConcurrentHashMap<>();

    void read(String type, String entityId, long sequenceNr) {
      last.put(
          org.apache.pekko.persistence.typed.PersistenceId.of(type, entityId).id(), sequenceNr);
    }

    boolean isNew(EventEnvelope envelope) {
      return envelope.sequenceNr() > last.getOrDefault(envelope.persistenceId(), 0L);
    }
  }

  /** One watch's runs, newest first, read backwards a page at a time. */
  public static Source<Run, NotUsed> newestFirst(
      JournalReads journal, String owner, String watchId, Filter filter, ReadUpTo readUpTo) {
    String type = WatchEntity.TYPE_KEY.name();
    String id = WatchEntity.entityId(owner, watchId);
    return Source.completionStage(journal.lastSequenceNr(type, id))
        .flatMapConcat(
            last -> {
              readUpTo.read(type, id, last);
              return Source.unfoldAsync(
                  last,
                  to ->
                      to < 1
                          ? java.util.concurrent.CompletableFuture.completedFuture(
                              Optional.<Pair<Long, List<EventEnvelope>>>empty())
                          : journal
                              .events(type, id, Math.max(1, to - PAGE + 1), to)
                              .runWith(Sink.seq(), journal.system())
                              .thenApply(
                                  page -> Optional.of(Pair.create(to - PAGE, reversed(page)))));
            })
        .mapConcat(page -> page)
        .statefulMapConcat(
            () -> {
              // newest first, a run's deliveries come before the run they complete
              Map<String, List<WatchEntity.AlertDelivered>> deliveries = new HashMap<>();
              return envelope -> {
                Object event = envelope.event();
                if (event instanceof WatchEntity.AlertDelivered sent) {
                  deliveries.computeIfAbsent(sent.runId(), run -> new ArrayList<>()).add(sent);
                  return List.of();
                }
                RunRecord record = recordOf(event);
                if (record == null) return List.of();
                // a run retried has several, newest first: applied oldest first, each in turn
                List<WatchEntity.AlertDelivered> sent = deliveries.remove(record.runId());
                if (sent != null)
                  for (int i = sent.size() - 1; i >= 0; i--)
                    record = record.withDeliveries(sent.get(i).deliveries(), sent.get(i).totalMs());
                return filter.test(record) ? List.of(new Run(owner, watchId, record)) : List.of();
              };
            });
  }

  /** The runs of {@code watches} ({@code owner:watchId} ids), watch after watch, oldest first. */
  public static Source<Run, NotUsed> oldestFirst(
      JournalReads journal, List<String> watches, Filter filter, ReadUpTo readUpTo) {
    String type = WatchEntity.TYPE_KEY.name();
    return Source.from(watches)
        .flatMapConcat(
            id ->
                Source.completionStage(journal.lastSequenceNr(type, id))
                    .flatMapConcat(
                        last -> {
                          readUpTo.read(type, id, last);
                          return journal.events(type, id, 1, last);
                        })
                    .map(envelope -> (Object) envelope)
                    .concat(Source.single(END)))
        .statefulMapConcat(
            () -> {
              Assembler runs = new Assembler();
              return element -> {
                if (element == END) return keep(runs.flushAll(), filter);
                EventEnvelope envelope = (EventEnvelope) element;
                return keep(runs.add(envelope.persistenceId(), envelope.event()), filter);
              };
            });
  }

  /**
   * The runs of the watches {@code selected} (by {@code owner:watchId} id) recorded after the
   * journal position {@code offset} (and not already read by a replay), as they are recorded: the
   * stream does not end. Each shows as soon as it is complete (a judged run when its deliveries are
   * recorded).
   */
  public static Source<Run, NotUsed> recordedAfter(
      JournalReads journal,
      long offset,
      Predicate<String> selected,
      Filter filter,
      ReadUpTo readUpTo) {
    String prefix = WatchEntity.TYPE_KEY.name() + "|";
    Source<Object, NotUsed> events =
        journal
            .taggedAfter(WatchEntity.RUN_TAG, offset)
            .filter(e -> readUpTo.isNew(e) && selected.test(entityId(prefix, e.persistenceId())))
            .map(e -> (Object) e);
    Source<Object, NotUsed> ticks =
        Source.tick(Duration.ofSeconds(5), Duration.ofSeconds(5), (Object) TICK)
            .mapMaterializedValue(c -> NotUsed.getInstance());
    return events
        .merge(ticks)
        .statefulMapConcat(
            () -> {
              Assembler runs = new Assembler();
              return element -> {
                if (element == TICK) return keep(runs.flushOlderThan(DELIVERIES_PATIENCE), filter);
                EventEnvelope envelope = (EventEnvelope) element;
                return keep(runs.add(envelope.persistenceId(), envelope.event()), filter);
              };
            });
  }

  private static final Object END = new Object();
  private static final Object TICK = new Object();

  private static String entityId(String prefix, String persistenceId) {
    return persistenceId.startsWith(prefix)
        ? persistenceId.substring(prefix.length())
        : persistenceId;
  }

  private static List<Run> keep(List<Run> runs, Filter filter) {
    return runs.stream().filter(r -> filter.test(r.record())).toList();
  }

  private static RunRecord recordOf(Object event) {
    if (event instanceof WatchEntity.RunRecorded run) return run.record();
    if (event instanceof WatchEntity.RunJudged run) return run.record();
    return null;
  }

  private static <T> List<T> reversed(List<T> page) {
    List<T> copy = new ArrayList<>(page);
    Collections.reverse(copy);
    return copy;
  }

  /**
   * Runs from events in the order they were written: a judged run waits for its deliveries (at most
   * one per watch, since a watch runs one run at a time).
   */
  static final class Assembler {
    private record Waiting(Run run, long since) {}

    private final Map<String, Waiting> waiting = new HashMap<>();

    List<Run> add(String persistenceId, Object event) {
      if (event instanceof WatchEntity.AlertDelivered sent) {
        Waiting judged = waiting.get(persistenceId);
        if (judged == null || !judged.run().record().runId().equals(sent.runId())) return List.of();
        waiting.remove(persistenceId);
        Run run = judged.run();
        return List.of(
            new Run(
                run.owner(),
                run.watchId(),
                run.record().withDeliveries(sent.deliveries(), sent.totalMs())));
      }
      RunRecord record = recordOf(event);
      if (record == null) return List.of();
      List<Run> out = new ArrayList<>(2);
      Waiting before = waiting.remove(persistenceId);
      if (before != null) out.add(before.run());
      String id = persistenceId.substring(persistenceId.indexOf('|') + 1);
      int colon = id.indexOf(':');
      Run run = new Run(id.substring(0, colon), id.substring(colon + 1), record);
      if (event instanceof WatchEntity.RunJudged)
        waiting.put(persistenceId, new Waiting(run, System.nanoTime()));
      else out.add(run);
      return out;
    }

    List<Run> flushAll() {
      List<Run> out = waiting.values().stream().map(Waiting::run).toList();
      waiting.clear();
      return out;
    }

    List<Run> flushOlderThan(Duration patience) {
      long now = System.nanoTime();
      List<Run> out = new ArrayList<>();
      waiting
          .entrySet()
          .removeIf(
              e -> {
                if (now - e.getValue().since() < patience.toNanos()) return false;
                out.add(e.getValue().run());
                return true;
              });
      return out;
    }
  }
}
