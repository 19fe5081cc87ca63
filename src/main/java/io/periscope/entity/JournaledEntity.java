package io.periscope.entity;

import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehaviorWithEnforcedReplies;
import org.apache.pekko.persistence.typed.javadsl.RetentionCriteria;

/**
 * What every event-sourced entity of the service shares: its persistence id is its type and id, it
 * restarts with backoff when the journal fails ({@link JournalFailures}), and it keeps recovery
 * short with {@link Snapshots#RETENTION} unless it says otherwise.
 */
public abstract class JournaledEntity<C, E, S>
    extends EventSourcedBehaviorWithEnforcedReplies<C, E, S> {

  protected JournaledEntity(EntityTypeKey<C> type, String entityId) {
    super(PersistenceId.of(type.name(), entityId), JournalFailures.RESTART_WITH_BACKOFF);
  }

  @Override
  public RetentionCriteria retentionCriteria() {
    return Snapshots.RETENTION;
  }
}
