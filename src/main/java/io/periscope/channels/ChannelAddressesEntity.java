package io.periscope.channels;

import io.periscope.account.MailedTokens;
import io.periscope.entity.EntityRefusal;
import io.periscope.entity.JournaledEntity;
import io.periscope.entity.JsonSerializable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;

/**
 * The addresses an owner's {@code email:} channels may mail besides the account's own verified one
 * (entity id = owner): each confirmed by its mailbox through a mailed link, so the service cannot
 * be made to mail anyone who did not agree. At most {@link #MAX_ADDRESSES}, confirmed or waiting.
 */
public final class ChannelAddressesEntity
    extends JournaledEntity<
        ChannelAddressesEntity.Command,
        ChannelAddressesEntity.Event,
        ChannelAddressesEntity.State> {

  public static final EntityTypeKey<Command> TYPE_KEY =
      EntityTypeKey.create(Command.class, "ChannelAddresses");

  /**
   * How a service reaches this entity: the addresses an owner's {@code email:} channels may mail.
   * Sharded when serving, a local actor for the command line; a service is handed only the lookups
   * of the entities it asks.
   */
  @FunctionalInterface
  public interface Refs {
    RecipientRef<Command> channelAddresses(String owner);
  }

  public static final int MAX_ADDRESSES = 20;

  /** An address waiting for its mailbox: the hash of the token mailed to it, until it expires. */
  public record Waiting(String address, String tokenHash, Instant expiresAt)
      implements JsonSerializable {
    boolean accepts(String hash, Instant now) {
      return now.isBefore(expiresAt) && MailedTokens.sameHash(tokenHash, hash);
    }
  }

  /** Normalized addresses, in the order they were asked for. */
  public record State(List<String> confirmed, List<Waiting> waiting) implements JsonSerializable {
    public State {
      confirmed = List.copyOf(confirmed);
      waiting = List.copyOf(waiting);
    }

    boolean has(String address) {
      return confirmed.contains(address)
          || waiting.stream().anyMatch(w -> w.address().equals(address));
    }

    List<Waiting> waitingBut(String address) {
      return waiting.stream().filter(w -> !w.address().equals(address)).toList();
    }
  }

  /** An address and whether its mailbox confirmed it. */
  public record Address(String address, boolean confirmed) implements JsonSerializable {}

  public record Addresses(List<Address> addresses) implements JsonSerializable {}

  public sealed interface Command extends JsonSerializable {}

  public record Get(ActorRef<StatusReply<Addresses>> replyTo) implements Command {}

  /**
   * Keeps the hash of a token mailed to {@code waiting.address}, replacing an earlier one; refused
   * when the address is confirmed already, or a new one would pass {@link #MAX_ADDRESSES}.
   */
  public record Request(Waiting waiting, ActorRef<StatusReply<Done>> replyTo) implements Command {}

  /** Uses a mailed token: answers the address now confirmed; refused for any other token. */
  public record Confirm(String tokenHash, Instant now, ActorRef<StatusReply<String>> replyTo)
      implements Command {}

  /** Forgets an address, confirmed or waiting; refused when there is none. */
  public record Remove(String address, ActorRef<StatusReply<Done>> replyTo) implements Command {}

  public static final String CONFIRMED_ALREADY = "the address is confirmed already";

  public sealed interface Event extends JsonSerializable {}

  public record AddressRequested(Waiting waiting) implements Event {}

  public record AddressConfirmed(String address, Instant at) implements Event {}

  public record AddressRemoved(String address) implements Event {}

  public static Behavior<Command> create(String owner) {
    return new ChannelAddressesEntity(owner);
  }

  private ChannelAddressesEntity(String entityId) {
    super(TYPE_KEY, entityId);
  }

  @Override
  public State emptyState() {
    return new State(List.of(), List.of());
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
                            new Addresses(
                                Stream.concat(
                                        state.confirmed().stream().map(a -> new Address(a, true)),
                                        state.waiting().stream()
                                            .map(w -> new Address(w.address(), false)))
                                    .toList()))))
        .onCommand(
            Request.class,
            (state, cmd) -> {
              String address = cmd.waiting().address();
              if (state.confirmed().contains(address))
                return Effect()
                    .reply(
                        cmd.replyTo(),
                        EntityRefusal.reply(
                            EntityRefusal.Code.CONFIRMED_ALREADY, CONFIRMED_ALREADY));
              if (!state.has(address)
                  && state.confirmed().size() + state.waiting().size() >= MAX_ADDRESSES) {
                return Effect()
                    .reply(
                        cmd.replyTo(),
                        StatusReply.error(
                            "an owner has at most " + MAX_ADDRESSES + " channel addresses"));
              }
              return Effect()
                  .persist(new AddressRequested(cmd.waiting()))
                  .thenReply(cmd.replyTo(), s -> StatusReply.ack());
            })
        .onCommand(
            Confirm.class,
            (state, cmd) -> {
              Optional<Waiting> match =
                  state.waiting().stream()
                      .filter(w -> w.accepts(cmd.tokenHash(), cmd.now()))
                      .findFirst();
              return match.isEmpty()
                  ? Effect()
                      .reply(cmd.replyTo(), StatusReply.error("the token is invalid or expired"))
                  : Effect()
                      .persist(new AddressConfirmed(match.get().address(), cmd.now()))
                      .thenReply(cmd.replyTo(), s -> StatusReply.success(match.get().address()));
            })
        .onCommand(
            Remove.class,
            (state, cmd) ->
                state.has(cmd.address())
                    ? Effect()
                        .persist(new AddressRemoved(cmd.address()))
                        .thenReply(cmd.replyTo(), s -> StatusReply.ack())
                    : Effect().reply(cmd.replyTo(), StatusReply.error("no such address")))
        .build();
  }

  @Override
  public EventHandler<State, Event> eventHandler() {
    return newEventHandlerBuilder()
        .forAnyState()
        .onEvent(
            AddressRequested.class,
            (state, e) -> {
              List<Waiting> waiting = new ArrayList<>(state.waitingBut(e.waiting().address()));
              waiting.add(e.waiting());
              return new State(state.confirmed(), waiting);
            })
        .onEvent(
            AddressConfirmed.class,
            (state, e) -> {
              List<String> confirmed = new ArrayList<>(state.confirmed());
              if (!confirmed.contains(e.address())) confirmed.add(e.address());
              return new State(confirmed, state.waitingBut(e.address()));
            })
        .onEvent(
            AddressRemoved.class,
            (state, e) ->
                new State(
                    state.confirmed().stream().filter(a -> !a.equals(e.address())).toList(),
                    state.waitingBut(e.address())))
        .build();
  }
}
