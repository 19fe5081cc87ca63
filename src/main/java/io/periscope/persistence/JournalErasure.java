package io.periscope.persistence;

import com.typesafe.config.Config;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.regex.Pattern;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.persistence.jdbc.testkit.javadsl.SchemaUtils;
import org.apache.pekko.persistence.typed.PersistenceId;

/**
 * Erases entities' events and snapshots from the journal for good: what an operator chooses when an
 * account is deleted with its run history. The one place journal rows are deleted; only entities
 * that will never write again (a deleted watch of a deleted account) are erased.
 */
public final class JournalErasure {
  /** Ids are checked ({@code entity.EntityIds}); this is the last word before SQL. */
  private static final Pattern SAFE_ID = Pattern.compile("[A-Za-z0-9._|/:-]{1,300}");

  private final ActorSystem<?> system;
  private final String journal;
  private final String snapshots;

  public JournalErasure(ActorSystem<?> system) {
    this.system = system;
    Config config = system.settings().config();
    this.journal = config.getString("jdbc-journal.tables.event_journal.tableName");
    this.snapshots = config.getString("jdbc-snapshot-store.tables.snapshot.tableName");
  }

  /** Deletes every event and snapshot of these entities of one type. */
  public CompletionStage<Done> erase(String entityType, List<String> entityIds) {
    StringBuilder sql = new StringBuilder();
    for (String entityId : entityIds) {
      String id = PersistenceId.of(entityType, entityId).id();
      if (!SAFE_ID.matcher(id).matches())
        throw new IllegalArgumentException("not an entity id: " + entityId);
      // the event tags go with their events (the schema's foreign key cascades)
      for (String table : List.of(journal, snapshots)) {
        // quoted: the H2 schema's names are lower-case quoted ones
        sql.append("DELETE FROM \"").append(table).append("\" WHERE \"persistence_id\" = '");
        sql.append(id).append("';\n");
      }
    }
    if (sql.isEmpty()) return java.util.concurrent.CompletableFuture.completedFuture(Done.done());
    return SchemaUtils.applyScript(sql.toString(), system);
  }
}
