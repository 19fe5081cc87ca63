package io.periscope.watch;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.persistence.jdbc.query.javadsl.JdbcReadJournal;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.projection.ProjectionId;
import org.apache.pekko.projection.eventsourced.EventEnvelope;
import org.apache.pekko.projection.eventsourced.javadsl.EventSourcedProvider;
import org.apache.pekko.projection.javadsl.GroupedProjection;
import org.apache.pekko.projection.jdbc.javadsl.JdbcHandler;
import org.apache.pekko.projection.jdbc.javadsl.JdbcProjection;

/**
 * Projects the watches' schedule events (tagged {@link WatchEntity#SCHEDULE_TAG}) into the wake-up
 * index: created, replaced or advanced sets the next fire time, disabled or deleted removes the
 * row, deliveries owed set the time of the watch's next attempt when that comes first. Exactly
 * once: the rows and the projection's offset are written in one transaction, in groups so a busy
 * minute is few commits.
 */
public final class WakeUpProjection
    extends JdbcHandler<List<EventEnvelope<WatchEntity.Event>>, IndexSession> {
  private static final String WATCH_PREFIX =
      WatchEntity.TYPE_KEY.name() + PersistenceId.DefaultSeparator();

  private final Consumer<Instant> scheduled;

  private WakeUpProjection(Consumer<Instant> scheduled) {
    this.scheduled = scheduled;
  }

  /**
   * @param groupWithin how long the projection gathers a group of events before it writes them: its
   *     timer fires this often whether or not an event came
   * @param scheduled told the earliest due time a group wrote, once it is committed: the scheduler
   *     reads the index only when something may be due
   */
  public static GroupedProjection<
          org.apache.pekko.persistence.query.Offset, EventEnvelope<WatchEntity.Event>>
      create(
          ActorSystem<?> system,
          WakeUpIndex index,
          ProjectionHealth<EventEnvelope<WatchEntity.Event>> health,
          Duration groupWithin,
          Consumer<Instant> scheduled) {
    return JdbcProjection.groupedWithin(
            ProjectionId.of("wakeup-index", WatchEntity.SCHEDULE_TAG),
            EventSourcedProvider.<WatchEntity.Event>eventsByTag(
                system, JdbcReadJournal.Identifier(), WatchEntity.SCHEDULE_TAG),
            index::session,
            () -> new WakeUpProjection(scheduled),
            system)
        .withGroup(500, groupWithin)
        .withStatusObserver(health);
  }

  @Override
  public void process(IndexSession session, List<EventEnvelope<WatchEntity.Event>> envelopes)
      throws Exception {
    // The index holds only each watch's latest next fire time: the group's last schedule event per
    // watch decides.
    Map<String, Instant> due = new HashMap<>();
    for (EventEnvelope<WatchEntity.Event> envelope : envelopes) {
      WatchEntity.Event event = envelope.event();
      String entityId = envelope.persistenceId().substring(WATCH_PREFIX.length());
      if (event instanceof WatchEntity.Created e) due.put(entityId, e.nextFireAt());
      else if (event instanceof WatchEntity.Replaced e) due.put(entityId, e.nextFireAt());
      else if (event instanceof WatchEntity.ScheduleAdvanced e) due.put(entityId, e.nextFireAt());
      else if (event instanceof WatchEntity.DeliveriesDue e) due.put(entityId, e.at());
      else if (event instanceof WatchEntity.Deleted) due.put(entityId, null);
    }
    session.withConnection(
        connection -> {
          WakeUpIndex.setAll(connection, due);
          return null;
        });
    due.values().stream()
        .filter(Objects::nonNull)
        .min(Instant::compareTo)
        .ifPresent(earliest -> session.afterCommit(() -> scheduled.accept(earliest)));
  }
}
