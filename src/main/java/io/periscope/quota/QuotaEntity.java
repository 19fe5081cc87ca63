package io.periscope.quota;

import io.periscope.entity.GroupCommit;
import io.periscope.entity.JournaledEntity;
import io.periscope.entity.JsonSerializable;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.List;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.ReplyEffect;

/**
 * One account's quotas (entity id = account id): an administrator's overrides of the operator's
 * defaults, and the model calls of the current UTC day, counted one at a time so that a limit holds
 * across nodes. The calls counted at once are written by one persist ({@link GroupCommit}).
 */
public final class QuotaEntity
    extends JournaledEntity<QuotaEntity.Command, QuotaEntity.Event, QuotaEntity.State> {

  public static final EntityTypeKey<Command> TYPE_KEY =
      EntityTypeKey.create(Command.class, "Quota");

  /** How a service reaches this entity: an account's quotas. */
  @FunctionalInterface
  public interface Refs {
    RecipientRef<Command> quota(String accountId);
  }

  /** The refusal of a model call past the day's limit. */
  public static final String USED_UP = "the day's model calls are used up";

  // ---- state
  // -------------------------------------------------------------------------------------

  /**
   * @param day the UTC day {@code modelCalls} counts (null before the first call)
   * @param budgetToldIn the last UTC month whose spent budget the owner was told of (null: never)
   */
  public record State(Quotas overrides, LocalDate day, int modelCalls, YearMonth budgetToldIn)
      implements JsonSerializable {
    /** The model calls of {@code today}. */
    int callsOn(LocalDate today) {
      return today.equals(day) ? modelCalls : 0;
    }
  }

  /** What an account has: its overrides and today's model calls. */
  public record Usage(Quotas overrides, int modelCallsToday) implements JsonSerializable {}

  // ---- commands
  // ----------------------------------------------------------------------------------

  public sealed interface Command extends JsonSerializable {}

  public record Get(LocalDate today, ActorRef<StatusReply<Usage>> replyTo) implements Command {}

  /** Replaces the overrides; {@link Quotas#NONE} goes back to the defaults. */
  public record SetOverrides(
      Quotas overrides, String by, LocalDate today, ActorRef<StatusReply<Usage>> replyTo)
      implements Command {}

  /**
   * Counts a model call of {@code today}; refused with {@link #USED_UP} when {@code limit} calls
   * were already made that day (null: no limit). Answers the calls made that day with this one.
   */
  public record UseModelCall(LocalDate today, Integer limit, ActorRef<StatusReply<Integer>> replyTo)
      implements Command {}

  /**
   * Notes that the owner is told a budget of {@code month} is spent; answers false when the owner
   * was already told that month (so each month's notice goes once, from one node).
   */
  public record TellBudgetSpent(YearMonth month, ActorRef<StatusReply<Boolean>> replyTo)
      implements Command {}

  /** Writes the calls counted since the last write (sent by the entity to itself). */
  record WriteCalls() implements Command {}

  // ---- events
  // ------------------------------------------------------------------------------------

  public sealed interface Event extends JsonSerializable {}

  public record OverridesSet(Quotas overrides, String by, Instant at) implements Event {}

  public record ModelCallUsed(LocalDate day) implements Event {}

  public record BudgetSpentTold(YearMonth month) implements Event {}

  // ---- behaviour
  // ---------------------------------------------------------------------------------

  public static Behavior<Command> create(String accountId) {
    return Behaviors.setup(
        context -> new QuotaEntity(accountId, () -> context.getSelf().tell(new WriteCalls())));
  }

  /** A call counted, not written yet: the calls of its day with it, its answer once written. */
  private record Counted(LocalDate day, int callsThatDay, ActorRef<StatusReply<Integer>> replyTo) {}

  private final GroupCommit<Counted> counted;

  private QuotaEntity(String entityId, Runnable writeSoon) {
    super(TYPE_KEY, entityId);
    this.counted = new GroupCommit<>(writeSoon);
  }

  /** The calls of {@code today}, those counted but not written yet included. */
  private int callsOn(State state, LocalDate today) {
    int pending = 0;
    for (Counted c : counted.pending()) if (c.day().equals(today)) pending++;
    return state.callsOn(today) + pending;
  }

  @Override
  public State emptyState() {
    return new State(Quotas.NONE, null, 0, null);
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
                            new Usage(state.overrides(), callsOn(state, cmd.today())))))
        .onCommand(
            SetOverrides.class,
            (state, cmd) ->
                Effect()
                    .persist(new OverridesSet(cmd.overrides(), cmd.by(), Instant.now()))
                    .thenReply(
                        cmd.replyTo(),
                        s -> StatusReply.success(new Usage(s.overrides(), s.callsOn(cmd.today())))))
        .onCommand(UseModelCall.class, this::onUseModelCall)
        .onCommand(WriteCalls.class, (state, cmd) -> writeCalls())
        .onCommand(
            TellBudgetSpent.class,
            (state, cmd) ->
                cmd.month().equals(state.budgetToldIn())
                    ? Effect().reply(cmd.replyTo(), StatusReply.success(false))
                    : Effect()
                        .persist(new BudgetSpentTold(cmd.month()))
                        .thenReply(cmd.replyTo(), s -> StatusReply.success(true)))
        .build();
  }

  /** Counted now (so the limit holds for the calls behind it), answered once written. */
  private ReplyEffect<Event, State> onUseModelCall(State state, UseModelCall cmd) {
    int calls = callsOn(state, cmd.today());
    if (cmd.limit() != null && calls >= cmd.limit())
      return Effect().reply(cmd.replyTo(), StatusReply.error(USED_UP));
    counted.add(new Counted(cmd.today(), calls + 1, cmd.replyTo()));
    return Effect().noReply();
  }

  private ReplyEffect<Event, State> writeCalls() {
    List<Counted> calls = counted.take();
    if (calls.isEmpty()) return Effect().noReply();
    List<Event> used = calls.stream().<Event>map(c -> new ModelCallUsed(c.day())).toList();
    return Effect()
        .persist(used)
        .thenRun(s -> calls.forEach(c -> c.replyTo().tell(StatusReply.success(c.callsThatDay()))))
        .thenNoReply();
  }

  @Override
  public EventHandler<State, Event> eventHandler() {
    return newEventHandlerBuilder()
        .forAnyState()
        .onEvent(
            OverridesSet.class,
            (state, e) ->
                new State(
                    e.overrides() == null ? Quotas.NONE : e.overrides(),
                    state.day(),
                    state.modelCalls(),
                    state.budgetToldIn()))
        .onEvent(
            ModelCallUsed.class,
            (state, e) ->
                new State(
                    state.overrides(),
                    e.day(),
                    e.day().equals(state.day()) ? state.modelCalls() + 1 : 1,
                    state.budgetToldIn()))
        .onEvent(
            BudgetSpentTold.class,
            (state, e) -> new State(state.overrides(), state.day(), state.modelCalls(), e.month()))
        .build();
  }
}
