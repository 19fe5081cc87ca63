package io.periscope.persistence;

import com.typesafe.config.ConfigFactory;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.persistence.JournalProtocol;
import org.apache.pekko.persistence.Persistence;
import org.apache.pekko.persistence.typed.PersistenceId;

/**
 * Deletes an event-sourced entity's old events through the journal plugin, as Pekko's own retention
 * does on a snapshot, for an entity whose events are kept by a different rule than its snapshots.
 * The plugin (pekko-persistence-jdbc) deletes the rows up to {@code toSequenceNr} less one, keeps
 * that one marked deleted (so sequence numbers go on from it) and drops their tags with them; reads
 * and replays skip them. The entity is told how it went with the {@code DeleteEventsCompleted} or
 * {@code DeleteEventsFailed} signal.
 */
public final class EventDeletes {
  private EventDeletes() {}

  /** Asks the default journal to delete the events of {@code id} up to {@code toSequenceNr}. */
  public static void deleteTo(ActorContext<?> entity, PersistenceId id, long toSequenceNr) {
    org.apache.pekko.actor.ActorRef journal =
        Persistence.get(Adapter.toClassic(entity.getSystem()))
            .journalFor("", ConfigFactory.empty());
    journal.tell(
        new JournalProtocol.DeleteMessagesTo(
            id.id(), toSequenceNr, Adapter.toClassic(entity.getSelf())),
        org.apache.pekko.actor.ActorRef.noSender());
  }
}
