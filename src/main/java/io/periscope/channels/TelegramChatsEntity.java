package io.periscope.channels;

import io.periscope.entity.JournaledEntity;
import io.periscope.entity.JsonSerializable;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;

/**
 * The Telegram chats administrators opened to users, cluster-wide (one entity, {@link #ID}). The
 * bot's chats are the operator's: without an entry here only administrators' watches may name them
 * ({@code telegram} for {@link #DEFAULT_CHAT}, {@code telegram:<chat id>} for the others).
 */
public final class TelegramChatsEntity
    extends JournaledEntity<
        TelegramChatsEntity.Command, TelegramChatsEntity.Event, TelegramChatsEntity.State> {

  public static final EntityTypeKey<Command> TYPE_KEY =
      EntityTypeKey.create(Command.class, "TelegramChats");

  /**
   * How a service reaches this entity: the Telegram chats administrators opened to users,
   * cluster-wide. Sharded when serving, a local actor for the command line; a service is handed
   * only the lookups of the entities it asks.
   */
  @FunctionalInterface
  public interface Refs {
    RecipientRef<Command> telegramChats();
  }

  /** The one instance's entity id. */
  public static final String ID = "telegram-chats";

  /** The chat of the bare {@code telegram} channel, {@code TELEGRAM_CHAT_ID}. */
  public static final String DEFAULT_CHAT = "default";

  /**
   * Who may name {@code chat}: every account, or the listed ones; who allowed it, when.
   *
   * @param chat {@link #DEFAULT_CHAT} or a chat id as {@code telegram:<chat id>} names it
   */
  public record AllowedChat(
      String chat, boolean everyone, List<String> owners, Instant at, String by)
      implements JsonSerializable {
    public AllowedChat {
      owners = List.copyOf(Set.copyOf(owners)).stream().sorted().toList();
    }

    public boolean allows(String accountId) {
      return everyone || owners.contains(accountId);
    }
  }

  /** The allowed chats by chat. */
  public record State(Map<String, AllowedChat> chats) implements JsonSerializable {
    public State {
      chats = Map.copyOf(chats);
    }
  }

  /** Every allowed chat, by chat. */
  public record Chats(List<AllowedChat> chats) implements JsonSerializable {}

  public sealed interface Command extends JsonSerializable {}

  public record Get(ActorRef<StatusReply<Chats>> replyTo) implements Command {}

  /** Allows a chat (replacing what was allowed for it before). */
  public record Allow(AllowedChat chat, ActorRef<StatusReply<AllowedChat>> replyTo)
      implements Command {}

  /** Closes a chat to users again; refused when it was not open. */
  public record Disallow(String chat, String by, ActorRef<StatusReply<Done>> replyTo)
      implements Command {}

  public sealed interface Event extends JsonSerializable {}

  public record ChatAllowed(AllowedChat chat) implements Event {}

  public record ChatDisallowed(String chat, String by, Instant at) implements Event {}

  public static Behavior<Command> create(String entityId) {
    return new TelegramChatsEntity(entityId);
  }

  private TelegramChatsEntity(String entityId) {
    super(TYPE_KEY, entityId);
  }

  @Override
  public State emptyState() {
    return new State(Map.of());
  }

  @Override
  public CommandHandlerWithReply<Command, Event, State> commandHandler() {
    return newCommandHandlerWithReplyBuilder()
        .forAnyState()
        .onCommand(
            Get.class,
            (state, cmd) ->
                Effect()
                    .reply(
                        cmd.replyTo(),
                        StatusReply.success(
                            new Chats(List.copyOf(new TreeMap<>(state.chats()).values())))))
        .onCommand(
            Allow.class,
            (state, cmd) ->
                Effect()
                    .persist(new ChatAllowed(cmd.chat()))
                    .thenReply(cmd.replyTo(), s -> StatusReply.success(cmd.chat())))
        .onCommand(
            Disallow.class,
            (state, cmd) ->
                state.chats().containsKey(cmd.chat())
                    ? Effect()
                        .persist(new ChatDisallowed(cmd.chat(), cmd.by(), Instant.now()))
                        .thenReply(cmd.replyTo(), s -> StatusReply.ack())
                    : Effect().reply(cmd.replyTo(), StatusReply.error("chat not allowed")))
        .build();
  }

  @Override
  public EventHandler<State, Event> eventHandler() {
    return newEventHandlerBuilder()
        .forAnyState()
        .onEvent(
            ChatAllowed.class,
            (state, e) -> {
              Map<String, AllowedChat> next = new TreeMap<>(state.chats());
              next.put(e.chat().chat(), e.chat());
              return new State(next);
            })
        .onEvent(
            ChatDisallowed.class,
            (state, e) -> {
              Map<String, AllowedChat> next = new TreeMap<>(state.chats());
              next.remove(e.chat());
              return new State(next);
            })
        .build();
  }
}
