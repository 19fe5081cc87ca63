package io.periscope.auth;

import io.periscope.entity.JournaledEntity;
import io.periscope.entity.JsonSerializable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;

/**
 * The administrators' audit log, cluster-wide: one entity ({@link #ID}) that records each admin
 * action on an account (who, what, to whom, when). Every entry is in the journal for good; the
 * entity keeps the newest {@link #KEPT} in memory for {@code GET /admin/audit}.
 */
public final class AuditLogEntity
    extends JournaledEntity<AuditLogEntity.Command, AuditLogEntity.Event, AuditLogEntity.State> {

  public static final EntityTypeKey<Command> TYPE_KEY =
      EntityTypeKey.create(Command.class, "AuditLog");

  /** The one instance's entity id. */
  public static final String ID = "admin";

  /** How many of the newest entries are answered. */
  public static final int KEPT = 1000;

  @FunctionalInterface
  public interface Refs {
    RecipientRef<Command> auditLog();
  }

  /**
   * One admin action.
   *
   * @param by the admin's account id
   * @param action what was done: {@code disable}, {@code enable}, {@code set-role}, {@code
   *     reset-password}, {@code delete}, {@code invite}, {@code create}
   * @param target the account (or, for an invitation, the address) it was done to
   * @param detail what else it took (the new role, what happened to the run history), or null
   */
  public record Entry(Instant at, String by, String action, String target, String detail)
      implements JsonSerializable {}

  public record State(List<Entry> newestLast) implements JsonSerializable {
    public State {
      newestLast = newestLast == null ? List.of() : List.copyOf(newestLast);
    }
  }

  public sealed interface Command extends JsonSerializable {}

  public record Record(Entry entry, ActorRef<StatusReply<Done>> replyTo) implements Command {}

  /** The newest entries first, at most {@code limit}. */
  public record Read(int limit, ActorRef<StatusReply<Entries>> replyTo) implements Command {}

  public record Entries(List<Entry> entries) implements JsonSerializable {}

  public sealed interface Event extends JsonSerializable {}

  public record Recorded(Entry entry) implements Event {}

  public static Behavior<Command> create(String entityId) {
    return new AuditLogEntity(entityId);
  }

  private AuditLogEntity(String entityId) {
    super(TYPE_KEY, entityId);
  }

  @Override
  public State emptyState() {
    return new State(List.of());
  }

  @Override
  public CommandHandlerWithReply<Command, Event, State> commandHandler() {
    return newCommandHandlerWithReplyBuilder()
        .forAnyState()
        .onCommand(
            Record.class,
            (state, cmd) ->
                Effect()
                    .persist(new Recorded(cmd.entry()))
                    .thenReply(cmd.replyTo(), s -> StatusReply.ack()))
        .onCommand(
            Read.class,
            (state, cmd) -> {
              List<Entry> newestFirst = new ArrayList<>(state.newestLast());
              java.util.Collections.reverse(newestFirst);
              int n = Math.max(0, Math.min(cmd.limit(), newestFirst.size()));
              return Effect()
                  .reply(
                      cmd.replyTo(),
                      StatusReply.success(new Entries(List.copyOf(newestFirst.subList(0, n)))));
            })
        .build();
  }

  @Override
  public EventHandler<State, Event> eventHandler() {
    return newEventHandlerBuilder()
        .forAnyState()
        .onEvent(
            Recorded.class,
            (state, e) -> {
              List<Entry> entries = new ArrayList<>(state.newestLast());
              entries.add(e.entry());
              int over = entries.size() - KEPT;
              return new State(over > 0 ? entries.subList(over, entries.size()) : entries);
            })
        .build();
  }
}
