package io.periscope.schedule;

import io.periscope.watch.WatchEntity;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
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
 * Projects the watches' schedule events (tagged {@link WatchEntity#SCHEDULE_TAG}) into the wake-up index:
 * created, replaced or advanced sets the next fire time, disabled or deleted removes the row. Exactly once: the
 * rows and the projection's offset are written in one transaction, in groups so a busy minute is few commits.
 */
public final class WakeUpProjection extends JdbcHandler<List<EventEnvelope<WatchEntity.Event>>, IndexSession> {
  private static final String WATCH_PREFIX = WatchEntity.TYPE_KEY.name() + PersistenceId.DefaultSeparator();

  public static GroupedProjection<org.apache.pekko.persistence.query.Offset, EventEnvelope<WatchEntity.Event>> create(
      ActorSystem<?> system, WakeUpIndex index) {
    return JdbcProjection.groupedWithin(
            ProjectionId.of("wakeup-index", WatchEntity.SCHEDULE_TAG),
            EventSourcedProvider.<WatchEntity.Event>eventsByTag(system, JdbcReadJournal.Identifier(),
                WatchEntity.SCHEDULE_TAG),
            index::session,
            WakeUpProjection::new,
            system)
        .withGroup(500, Duration.ofMillis(100));
  }

  @Override
  public void process(IndexSession session, List<EventEnvelope<WatchEntity.Event>> envelopes) throws Exception {
    session.withConnection(connection -> {
      for (EventEnvelope<WatchEntity.Event> envelope : envelopes) apply(connection, envelope);
      return null;
    });
  }

  private static void apply(Connection connection, EventEnvelope<WatchEntity.Event> envelope) throws Exception {
    String entityId = envelope.persistenceId().substring(WATCH_PREFIX.length());
    WatchEntity.Event event = envelope.event();
    if (event instanceof WatchEntity.Created e) WakeUpIndex.set(connection, entityId, e.nextFireAt());
    else if (event instanceof WatchEntity.Replaced e) WakeUpIndex.set(connection, entityId, e.nextFireAt());
    else if (event instanceof WatchEntity.ScheduleAdvanced e) WakeUpIndex.set(connection, entityId, e.nextFireAt());
    else if (event instanceof WatchEntity.Deleted) WakeUpIndex.set(connection, entityId, null);
  }
}
