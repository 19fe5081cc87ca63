package io.periscope.history;

import io.periscope.testing.RunRecordBuilder;
import io.periscope.watch.RunRecord;
import io.periscope.watch.WatchEntity;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.Done;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.javadsl.CommandHandler;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehavior;

/**
 * Writes watch events into a real journal as the watch entity writes them (same persistence ids,
 * same tags), without the entity: a test chooses every run's start, outcome and deliveries.
 */
public final class WatchEvents {
  private final ActorTestKit kit;
  private final Map<String, ActorRef<Write>> writers = new HashMap<>();

  public WatchEvents(ActorTestKit kit) {
    this.kit = kit;
  }

  private record Write(WatchEntity.Event event, ActorRef<Done> replyTo) {}

  private static Behavior<Write> writer(String accountId, String watchId) {
    return new EventSourcedBehavior<Write, WatchEntity.Event, Integer>(
        PersistenceId.of(WatchEntity.TYPE_KEY.name(), WatchEntity.entityId(accountId, watchId))) {
      @Override
      public Integer emptyState() {
        return 0;
      }

      @Override
      public CommandHandler<Write, WatchEntity.Event, Integer> commandHandler() {
        return newCommandHandlerBuilder()
            .forAnyState()
            .onAnyCommand(
                (state, w) -> Effect().persist(w.event()).thenReply(w.replyTo(), s -> Done.done()));
      }

      @Override
      public EventHandler<Integer, WatchEntity.Event> eventHandler() {
        return newEventHandlerBuilder().forAnyState().onAnyEvent((state, e) -> state + 1);
      }

      @Override
      public Set<String> tagsFor(WatchEntity.Event event) {
        return WatchEntity.tagsOf(event);
      }
    };
  }

  /** Writes {@code event} as the watch {@code owner/watchId}'s next event. */
  public synchronized void write(String accountId, String watchId, WatchEntity.Event event)
      throws Exception {
    ActorRef<Write> to =
        writers.computeIfAbsent(
            accountId + ":" + watchId, id -> kit.spawn(writer(accountId, watchId)));
    AskPattern.<Write, Done>ask(
            to, r -> new Write(event, r), Duration.ofSeconds(10), kit.system().scheduler())
        .toCompletableFuture()
        .get(10, TimeUnit.SECONDS);
  }

  /** A run record with what the history shows and filters on; the rest as a quiet run has it. */
  public static RunRecord record(
      String runId,
      String trigger,
      String outcome,
      Instant at,
      String summary,
      String reasoning,
      String error,
      String decision,
      List<RunRecord.Evidence> evidence,
      List<RunRecord.DeliveryRecord> deliveries) {
    return new RunRecordBuilder()
        .runId(runId)
        .trigger(trigger)
        .outcome(outcome)
        .startedAt(at)
        .verdict(summary, null)
        .reasoning(reasoning)
        .error(error)
        .decision(decision)
        .evidence(evidence)
        .deliveries(deliveries)
        .build();
  }

  /** {@code r} having put before the model items with these titles. */
  public static RunRecord judging(RunRecord r, String... titles) {
    List<io.periscope.llm.JudgedItem> items = new java.util.ArrayList<>();
    for (String title : titles)
      items.add(
          new io.periscope.llm.JudgedItem(
              title,
              title,
              "https://example.com/" + items.size(),
              "feed",
              "high",
              r.startedAt(),
              "text",
              false));
    return r.withJudged(new io.periscope.llm.Judged(items, List.of()));
  }

  /** A scheduled run with nothing new. */
  public static RunRecord quiet(String runId, Instant at) {
    return record(
        runId,
        RunRecord.TRIGGER_SCHEDULE,
        RunRecord.NOTHING_NEW,
        at,
        null,
        null,
        null,
        null,
        List.of(),
        List.of());
  }

  public static WatchEntity.Event recorded(RunRecord record) {
    return new WatchEntity.RunRecorded(record, List.of(), Map.of());
  }

  public static WatchEntity.Event judged(RunRecord record, String channel) {
    return new WatchEntity.RunJudged(record, List.of(), List.of(channel), Map.of());
  }

  /** The deliveries of run {@code runId} to {@code channel} in {@code state}. */
  public static WatchEntity.Event delivered(String runId, String channel, String state) {
    boolean ok = state.equals(RunRecord.DeliveryRecord.DELIVERED);
    return new WatchEntity.AlertDelivered(
        runId,
        List.of(
            new RunRecord.DeliveryRecord(
                channel, null, ok, ok ? null : "refused", state, List.of(), null)),
        42);
  }
}
