package io.periscope.channels;

import io.periscope.auth.MailedTokens;
import io.periscope.entity.EntityRefusal;
import io.periscope.entity.JournaledEntity;
import io.periscope.entity.JsonSerializable;
import io.periscope.entity.RecentTimes;
import java.time.Duration;
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
    RecipientRef<Command> channelAddresses(String accountId);
  }

  public static final int MAX_ADDRESSES = 20;

  /** An address waiting for its mailbox: the hash of the token mailed to it, until it expires. */
  public record Waiting(String address, String tokenHash, Instant expiresAt)
      implements JsonSerializable {
    boolean accepts(String hash, Instant now) {
      return now.isBefore(expiresAt) && MailedTokens.sameHash(tokenHash, hash);
    }
  }

  /**
   * Normalized addresses, in the order they were asked for; {@code mailed}: when confirmation mails
   * were asked in the last day, {@code changed}: when an address was added or removed in the last
   * day (both absent in snapshots of older versions).
   */
  public record State(
      List<String> confirmed, List<Waiting> waiting, List<Instant> mailed, List<Instant> changed)
      implements JsonSerializable {
    public State {
      confirmed = List.copyOf(confirmed);
      waiting = List.copyOf(waiting);
      mailed = mailed == null ? List.of() : List.copyOf(mailed);
      changed = changed == null ? List.of() : List.copyOf(changed);
    }

    State withAddresses(List<String> confirmed, List<Waiting> waiting) {
      return new State(confirmed, waiting, mailed, changed);
    }

    /** The refusal of a budget that one more mail (and a change, when {@code adds}) would pass. */
    Optional<String> overBudget(Instant now, Budgets budgets, boolean mails, boolean changes) {
      if (mails && !RecentTimes.room(mailed, now, DAY, budgets.mailsPerDay()))
        return Optional.of(MAILS_SPENT);
      if (changes && !RecentTimes.room(changed, now, DAY, budgets.changesPerDay()))
        return Optional.of(CHANGES_SPENT);
      return Optional.empty();
    }

    boolean has(String address) {
      return confirmed.contains(address)
          || waiting.stream().anyMatch(w -> w.address().equals(address));
    }

    List<Waiting> waitingBut(String address) {
      return waiting.stream().filter(w -> !w.address().equals(address)).toList();
    }
  }

  /**
   * An owner's budgets: confirmation mails a day, and addresses added or removed a day (0: no
   * limit).
   */
  public record Budgets(int mailsPerDay, int changesPerDay) implements JsonSerializable {
    public static final Budgets NONE = new Budgets(0, 0);
  }

  public static final Duration DAY = Duration.ofDays(1);
  public static final String MAILS_SPENT = "the owner's confirmation mails of the day are used up";
  public static final String CHANGES_SPENT = "the owner's address changes of the day are used up";

  /** An address and whether its mailbox confirmed it. */
  public record Address(String address, boolean confirmed) implements JsonSerializable {}

  public record Addresses(List<Address> addresses) implements JsonSerializable {}

  public sealed interface Command extends JsonSerializable {}

  public record Get(ActorRef<StatusReply<Addresses>> replyTo) implements Command {}

  /**
   * Keeps the hash of a token mailed to {@code waiting.address}, replacing an earlier one; refused
   * when the address is confirmed already, a new one would pass {@link #MAX_ADDRESSES}, or the
   * owner's {@code budgets} are spent ({@link #MAILS_SPENT}, {@link #CHANGES_SPENT}).
   */
  public record Request(
      Waiting waiting, Instant now, Budgets budgets, ActorRef<StatusReply<Done>> replyTo)
      implements Command {}

  /**
   * Answers, writing nothing, whether a request for {@code address} would fit the budgets: refused
   * as {@link Request} would be for them.
   */
  public record CheckBudgets(
      String address, Instant now, Budgets budgets, ActorRef<StatusReply<Done>> replyTo)
      implements Command {}

  /** Uses a mailed token: answers the address now confirmed; refused for any other token. */
  public record Confirm(String tokenHash, Instant now, ActorRef<StatusReply<String>> replyTo)
      implements Command {}

  /**
   * Forgets an address, confirmed or waiting; refused when there is none, or when the owner's
   * address changes of the day are spent.
   */
  public record Remove(
      String address, Instant now, Budgets budgets, ActorRef<StatusReply<Done>> replyTo)
      implements Command {}

  public static final String CONFIRMED_ALREADY = "the address is confirmed already";

  public sealed interface Event extends JsonSerializable {}

  /** {@code at} is absent in events of older versions. */
  public record AddressRequested(Waiting waiting, Instant at) implements Event {}

  public record AddressConfirmed(String address, Instant at) implements Event {}

  /** {@code at} is absent in events of older versions. */
  public record AddressRemoved(String address, Instant at) implements Event {}

  public static Behavior<Command> create(String accountId) {
    return new ChannelAddressesEntity(accountId);
  }

  private ChannelAddressesEntity(String entityId) {
    super(TYPE_KEY, entityId);
  }

  @Override
  public State emptyState() {
    return new State(List.of(), List.of(), List.of(), List.of());
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
              if (state.confirmed().contains(cmd.waiting().address()))
                return Effect()
                    .reply(
                        cmd.replyTo(),
                        EntityRefusal.reply(
                            EntityRefusal.Code.CONFIRMED_ALREADY, CONFIRMED_ALREADY));
              Optional<String> refusal =
                  refusal(state, cmd.waiting().address(), cmd.now(), cmd.budgets());
              if (refusal.isPresent())
                return Effect().reply(cmd.replyTo(), StatusReply.error(refusal.get()));
              return Effect()
                  .persist(new AddressRequested(cmd.waiting(), cmd.now()))
                  .thenReply(cmd.replyTo(), s -> StatusReply.ack());
            })
        .onCommand(
            CheckBudgets.class,
            (state, cmd) ->
                Effect()
                    .reply(
                        cmd.replyTo(),
                        refusal(state, cmd.address(), cmd.now(), cmd.budgets())
                            .filter(r -> r.equals(MAILS_SPENT) || r.equals(CHANGES_SPENT))
                            .<StatusReply<Done>>map(StatusReply::error)
                            .orElse(StatusReply.ack())))
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
            (state, cmd) -> {
              if (!state.has(cmd.address()))
                return Effect().reply(cmd.replyTo(), StatusReply.error("no such address"));
              Optional<String> spent = state.overBudget(cmd.now(), cmd.budgets(), false, true);
              if (spent.isPresent())
                return Effect().reply(cmd.replyTo(), StatusReply.error(spent.get()));
              return Effect()
                  .persist(new AddressRemoved(cmd.address(), cmd.now()))
                  .thenReply(cmd.replyTo(), s -> StatusReply.ack());
            })
        .build();
  }

  /**
   * Why a request for {@code address} is refused: confirmed already, too many addresses, or a
   * budget spent (a mail always; a change when the address is new).
   */
  private static Optional<String> refusal(
      State state, String address, Instant now, Budgets budgets) {
    if (state.confirmed().contains(address)) return Optional.of(CONFIRMED_ALREADY);
    boolean added = !state.has(address);
    if (added && state.confirmed().size() + state.waiting().size() >= MAX_ADDRESSES)
      return Optional.of("an owner has at most " + MAX_ADDRESSES + " channel addresses");
    return state.overBudget(now, budgets, true, added);
  }

  @Override
  public EventHandler<State, Event> eventHandler() {
    return newEventHandlerBuilder()
        .forAnyState()
        .onEvent(
            AddressRequested.class,
            (state, e) -> {
              boolean added = !state.has(e.waiting().address());
              List<Waiting> waiting = new ArrayList<>(state.waitingBut(e.waiting().address()));
              waiting.add(e.waiting());
              return e.at() == null
                  ? state.withAddresses(state.confirmed(), waiting)
                  : new State(
                      state.confirmed(),
                      waiting,
                      RecentTimes.adding(state.mailed(), e.at(), DAY),
                      added ? RecentTimes.adding(state.changed(), e.at(), DAY) : state.changed());
            })
        .onEvent(
            AddressConfirmed.class,
            (state, e) -> {
              List<String> confirmed = new ArrayList<>(state.confirmed());
              if (!confirmed.contains(e.address())) confirmed.add(e.address());
              return state.withAddresses(confirmed, state.waitingBut(e.address()));
            })
        .onEvent(
            AddressRemoved.class,
            (state, e) -> {
              State removed =
                  state.withAddresses(
                      state.confirmed().stream().filter(a -> !a.equals(e.address())).toList(),
                      state.waitingBut(e.address()));
              return e.at() == null
                  ? removed
                  : new State(
                      removed.confirmed(),
                      removed.waiting(),
                      removed.mailed(),
                      RecentTimes.adding(removed.changed(), e.at(), DAY));
            })
        .build();
  }
}
