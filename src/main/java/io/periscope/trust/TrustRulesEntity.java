package io.periscope.trust;

import io.periscope.entity.JournaledEntity;
import io.periscope.entity.JsonSerializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.ReplyEffect;

/**
 * One owner's trust rules (entity id = account id), keyed by their normalized pattern: setting a
 * pattern again replaces its tier. The rules are checked before they reach the entity ({@link
 * TrustRuleValidator}).
 */
public final class TrustRulesEntity
    extends JournaledEntity<
        TrustRulesEntity.Command, TrustRulesEntity.Event, TrustRulesEntity.State> {

  public static final EntityTypeKey<Command> TYPE_KEY =
      EntityTypeKey.create(Command.class, "TrustRules");

  /**
   * How a service reaches this entity: an owner's trust rules. Sharded when serving, a local actor
   * for the command line; a service is handed only the lookups of the entities it asks.
   */
  @FunctionalInterface
  public interface Refs {
    RecipientRef<Command> trustRules(String accountId);
  }

  /**
   * Rules an owner may have: far more than the domains one person tells apart, few enough to match
   * per item.
   */
  public static final int MAX_RULES = 200;

  // ---- state
  // -------------------------------------------------------------------------------------

  public record State(Map<String, TrustRule> byPattern) implements JsonSerializable {
    public State {
      byPattern = Map.copyOf(byPattern);
    }

    List<TrustRule> sorted() {
      return byPattern.values().stream().sorted(Comparator.comparing(TrustRule::pattern)).toList();
    }

    State with(TrustRule rule) {
      Map<String, TrustRule> next = new LinkedHashMap<>(byPattern);
      next.put(rule.pattern(), rule);
      return new State(next);
    }

    State without(String pattern) {
      Map<String, TrustRule> next = new LinkedHashMap<>(byPattern);
      next.remove(pattern);
      return new State(next);
    }
  }

  /** Every rule of the owner, by pattern. */
  public record Rules(List<TrustRule> rules) implements JsonSerializable {
    public Rules {
      rules = List.copyOf(rules);
    }
  }

  // ---- commands
  // ----------------------------------------------------------------------------------

  public sealed interface Command extends JsonSerializable {}

  /**
   * Adds the rule or replaces the tier of its pattern; refused when a new pattern would pass {@link
   * #MAX_RULES}.
   */
  public record Put(TrustRule rule, ActorRef<StatusReply<TrustRule>> replyTo) implements Command {}

  /**
   * Adds or replaces every rule at once (one atomic write), or none: refused when the new patterns
   * would pass {@link #MAX_RULES}. Answers how many rules the owner has.
   */
  public record PutAll(List<TrustRule> rules, ActorRef<StatusReply<Integer>> replyTo)
      implements Command {}

  /** Refused when the owner has no rule with this pattern. */
  public record Remove(String pattern, ActorRef<StatusReply<Done>> replyTo) implements Command {}

  public record GetRules(ActorRef<StatusReply<Rules>> replyTo) implements Command {}

  // ---- events
  // ------------------------------------------------------------------------------------

  public sealed interface Event extends JsonSerializable {}

  public record RuleSet(TrustRule rule) implements Event {}

  public record RuleRemoved(String pattern) implements Event {}

  // ---- behaviour
  // ---------------------------------------------------------------------------------

  public static Behavior<Command> create(String accountId) {
    return new TrustRulesEntity(accountId);
  }

  private TrustRulesEntity(String entityId) {
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
        .onCommand(Put.class, this::onPut)
        .onCommand(PutAll.class, this::onPutAll)
        .onCommand(Remove.class, this::onRemove)
        .onCommand(
            GetRules.class,
            (state, cmd) ->
                Effect().reply(cmd.replyTo(), StatusReply.success(new Rules(state.sorted()))))
        .build();
  }

  private ReplyEffect<Event, State> onPut(State state, Put cmd) {
    TrustRule rule = cmd.rule();
    if (rule.equals(state.byPattern().get(rule.pattern()))) {
      return Effect().reply(cmd.replyTo(), StatusReply.success(rule));
    }
    if (!state.byPattern().containsKey(rule.pattern()) && state.byPattern().size() >= MAX_RULES) {
      return Effect()
          .reply(
              cmd.replyTo(),
              StatusReply.error("an owner has at most " + MAX_RULES + " trust rules"));
    }
    return Effect()
        .persist(new RuleSet(rule))
        .thenReply(cmd.replyTo(), s -> StatusReply.success(rule));
  }

  private ReplyEffect<Event, State> onPutAll(State state, PutAll cmd) {
    List<Event> changes = new ArrayList<>();
    Set<String> patterns = new HashSet<>(state.byPattern().keySet());
    for (TrustRule rule : cmd.rules()) {
      if (rule.equals(state.byPattern().get(rule.pattern()))) continue;
      patterns.add(rule.pattern());
      changes.add(new RuleSet(rule));
    }
    if (patterns.size() > MAX_RULES) {
      return Effect()
          .reply(
              cmd.replyTo(),
              StatusReply.error("an owner has at most " + MAX_RULES + " trust rules"));
    }
    if (changes.isEmpty())
      return Effect().reply(cmd.replyTo(), StatusReply.success(state.byPattern().size()));
    return Effect()
        .persist(changes)
        .thenReply(cmd.replyTo(), s -> StatusReply.success(s.byPattern().size()));
  }

  private ReplyEffect<Event, State> onRemove(State state, Remove cmd) {
    if (!state.byPattern().containsKey(cmd.pattern())) {
      return Effect().reply(cmd.replyTo(), StatusReply.error("trust rule not found"));
    }
    return Effect()
        .persist(new RuleRemoved(cmd.pattern()))
        .thenReply(cmd.replyTo(), s -> StatusReply.ack());
  }

  @Override
  public EventHandler<State, Event> eventHandler() {
    return newEventHandlerBuilder()
        .forAnyState()
        .onEvent(RuleSet.class, (state, e) -> state.with(e.rule()))
        .onEvent(RuleRemoved.class, (state, e) -> state.without(e.pattern()))
        .build();
  }
}
