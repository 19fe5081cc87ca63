package io.periscope.keys;

import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehaviorWithEnforcedReplies;
import org.apache.pekko.persistence.typed.javadsl.ReplyEffect;
import org.apache.pekko.persistence.typed.javadsl.RetentionCriteria;
import io.periscope.serialization.JsonSerializable;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One pool of provider keys (entity id {@code model} or {@code search}), cluster-wide. Each key is active,
 * cooling down (rate limited or out of quota, until a time) or dead (rejected as invalid), and meters today's
 * (UTC) use against an optional daily limit. Key material is stored encrypted ({@link KeyCipher}); replies carry
 * the ciphertext, so plaintext never enters the journal or a cluster message.
 */
public final class KeyPoolEntity
    extends EventSourcedBehaviorWithEnforcedReplies<KeyPoolEntity.Command, KeyPoolEntity.Event, KeyPoolEntity.State> {

  public static final EntityTypeKey<Command> TYPE_KEY = EntityTypeKey.create(Command.class, "KeyPool");
  public static final String MODEL = "model";
  public static final String SEARCH = "search";

  // ---- state -------------------------------------------------------------------------------------

  /** A key as the pool keeps it. {@code cooldownUntil} and {@code dailyLimit} may be null. */
  public record PoolKey(String id, String ciphertext, String label, boolean dead, Instant cooldownUntil,
                        LocalDate usageDay, long usedOnUsageDay, Long dailyLimit, String lastProblem)
      implements JsonSerializable {

    long usedOn(LocalDate day) {
      return day.equals(usageDay) ? usedOnUsageDay : 0;
    }

    String status(Instant now) {
      if (dead) return "dead";
      return cooldownUntil != null && cooldownUntil.isAfter(now) ? "cooldown" : "active";
    }

    /** @param leasedMore uses leased but not yet written, which count against the daily limit too */
    boolean usable(Instant now, long leasedMore) {
      LocalDate today = now.atZone(ZoneOffset.UTC).toLocalDate();
      return status(now).equals("active") && (dailyLimit == null || usedOn(today) + leasedMore < dailyLimit);
    }
  }

  public record State(Map<String, PoolKey> keys) implements JsonSerializable {
    public State {
      keys = Map.copyOf(keys);
    }

    State with(PoolKey key) {
      Map<String, PoolKey> next = new LinkedHashMap<>(keys);
      next.put(key.id(), key);
      return new State(next);
    }
  }

  // ---- commands and replies ----------------------------------------------------------------------

  public sealed interface Command extends JsonSerializable {}

  /** A key to add when absent, already encrypted; {@code id} is {@link KeyCipher#fingerprint}. */
  public record NewKey(String id, String ciphertext, String label) implements JsonSerializable {}

  /** Adds the keys the pool does not hold yet (seeding from the environment is idempotent). */
  public record Seed(List<NewKey> keys, ActorRef<StatusReply<Done>> replyTo) implements Command {}

  /**
   * Picks the usable key least used today and meters one use; an error when none is usable. Answered once the
   * use is in the journal; the uses leased while one write is under way go together in the next, so concurrent
   * runs do not queue one journal write each on the pool.
   */
  public record Acquire(Instant now, ActorRef<StatusReply<Lease>> replyTo) implements Command {}

  /** Writes the uses leased so far (sent by the entity to itself). */
  record WriteUses() implements Command {}

  /** How a call with a key went, when it went wrong in a way that concerns the key. */
  public record Report(String keyId, ProviderFailure.Kind kind, Instant until, String problem,
                       ActorRef<StatusReply<Done>> replyTo) implements Command {}

  public record GetStatus(Instant now, ActorRef<StatusReply<PoolStatus>> replyTo) implements Command {}

  public record Lease(String keyId, String ciphertext) implements JsonSerializable {}

  /**
   * What an admin sees of one key: never the material, only a masked label. {@code usable}: a lease could pick it
   * now (active and under its daily limit).
   */
  public record KeyView(String id, String label, String status, long usedToday, Long dailyLimit,
                        Instant cooldownUntil, String lastProblem, boolean usable) implements JsonSerializable {}

  public record PoolStatus(List<KeyView> keys) implements JsonSerializable {}

  // ---- events ------------------------------------------------------------------------------------

  public sealed interface Event extends JsonSerializable {}

  public record KeyAdded(String keyId, String ciphertext, String label) implements Event {}

  public record KeyUsed(String keyId, LocalDate day) implements Event {}

  public record KeyCooledDown(String keyId, Instant until, String problem) implements Event {}

  public record KeyDied(String keyId, String problem) implements Event {}

  // ---- behaviour ---------------------------------------------------------------------------------

  /** How long a rate-limited key rests when the provider did not say. */
  static final Duration DEFAULT_COOLDOWN = Duration.ofSeconds(60);

  public static Behavior<Command> create(String pool) {
    return Behaviors.setup(ctx -> new KeyPoolEntity(ctx, PersistenceId.of(TYPE_KEY.name(), pool)));
  }

  /** A use picked but not written yet, and who waits for its lease. In memory: a crash answers none of them. */
  private record Leased(KeyUsed use, Lease lease, ActorRef<StatusReply<Lease>> replyTo) {}

  private final List<Leased> leased = new ArrayList<>();
  private final ActorContext<Command> context;

  private KeyPoolEntity(ActorContext<Command> context, PersistenceId persistenceId) {
    super(persistenceId, SupervisorStrategy.restartWithBackoff(Duration.ofMillis(200), Duration.ofSeconds(5), 0.1));
    this.context = context;
  }

  @Override
  public State emptyState() {
    return new State(Map.of());
  }

  // Every use is an event; snapshots keep recovery short. Events are never deleted (see design.md's traps).
  @Override
  public RetentionCriteria retentionCriteria() {
    return RetentionCriteria.snapshotEvery(200, 2);
  }

  @Override
  public CommandHandlerWithReply<Command, Event, State> commandHandler() {
    return newCommandHandlerWithReplyBuilder().forAnyState()
        .onCommand(Seed.class, this::onSeed)
        .onCommand(Acquire.class, this::onAcquire)
        .onCommand(WriteUses.class, this::onWriteUses)
        .onCommand(Report.class, this::onReport)
        .onCommand(GetStatus.class, (state, cmd) -> Effect().reply(cmd.replyTo(),
            StatusReply.success(status(state, cmd.now()))))
        .build();
  }

  private ReplyEffect<Event, State> onSeed(State state, Seed cmd) {
    List<Event> added = new ArrayList<>();
    for (NewKey k : cmd.keys()) {
      boolean known = state.keys().containsKey(k.id()) || added.stream()
          .anyMatch(e -> ((KeyAdded) e).keyId().equals(k.id()));
      if (!known) added.add(new KeyAdded(k.id(), k.ciphertext(), k.label()));
    }
    return Effect().persist(added).thenReply(cmd.replyTo(), s -> StatusReply.ack());
  }

  private ReplyEffect<Event, State> onAcquire(State state, Acquire cmd) {
    LocalDate today = cmd.now().atZone(ZoneOffset.UTC).toLocalDate();
    Optional<PoolKey> pick = state.keys().values().stream()
        .filter(k -> k.usable(cmd.now(), leasedOf(k.id(), today)))
        .min(Comparator.<PoolKey>comparingLong(k -> k.usedOn(today) + leasedOf(k.id(), today))
            .thenComparing(PoolKey::id));
    if (pick.isEmpty()) return Effect().reply(cmd.replyTo(), StatusReply.error("no usable key in the pool"));
    PoolKey key = pick.get();
    if (leased.isEmpty()) context.getSelf().tell(new WriteUses());
    leased.add(new Leased(new KeyUsed(key.id(), today), new Lease(key.id(), key.ciphertext()), cmd.replyTo()));
    return Effect().noReply();
  }

  private long leasedOf(String keyId, LocalDate day) {
    return leased.stream().filter(l -> l.use().keyId().equals(keyId) && l.use().day().equals(day)).count();
  }

  private ReplyEffect<Event, State> onWriteUses(State state, WriteUses cmd) {
    List<Leased> batch = List.copyOf(leased);
    leased.clear();
    return Effect().persist(batch.stream().<Event>map(Leased::use).toList())
        .thenRun(s -> batch.forEach(l -> l.replyTo().tell(StatusReply.success(l.lease()))))
        .thenNoReply();
  }

  private ReplyEffect<Event, State> onReport(State state, Report cmd) {
    if (!state.keys().containsKey(cmd.keyId())) return Effect().reply(cmd.replyTo(), StatusReply.ack());
    Event event = switch (cmd.kind()) {
      case INVALID_KEY -> new KeyDied(cmd.keyId(), cmd.problem());
      case RATE_LIMITED, QUOTA_EXHAUSTED -> new KeyCooledDown(cmd.keyId(), cmd.until(), cmd.problem());
      case TRANSIENT, REJECTED -> null; // the provider's trouble or the request's, not the key's
    };
    if (event == null) return Effect().reply(cmd.replyTo(), StatusReply.ack());
    return Effect().persist(event).thenReply(cmd.replyTo(), s -> StatusReply.ack());
  }

  static PoolStatus status(State state, Instant now) {
    LocalDate today = now.atZone(ZoneOffset.UTC).toLocalDate();
    return new PoolStatus(state.keys().values().stream()
        .sorted(Comparator.comparing(PoolKey::label))
        .map(k -> new KeyView(k.id(), k.label(), k.status(now), k.usedOn(today), k.dailyLimit(),
            k.status(now).equals("cooldown") ? k.cooldownUntil() : null, k.lastProblem(), k.usable(now, 0)))
        .toList());
  }

  @Override
  public EventHandler<State, Event> eventHandler() {
    return newEventHandlerBuilder().forAnyState()
        .onEvent(KeyAdded.class, (state, e) ->
            state.with(new PoolKey(e.keyId(), e.ciphertext(), e.label(), false, null, null, 0, null, null)))
        .onEvent(KeyUsed.class, (state, e) -> {
          PoolKey k = state.keys().get(e.keyId());
          return state.with(new PoolKey(k.id(), k.ciphertext(), k.label(), k.dead(), k.cooldownUntil(), e.day(),
              k.usedOn(e.day()) + 1, k.dailyLimit(), k.lastProblem()));
        })
        .onEvent(KeyCooledDown.class, (state, e) -> {
          PoolKey k = state.keys().get(e.keyId());
          return state.with(new PoolKey(k.id(), k.ciphertext(), k.label(), k.dead(), e.until(), k.usageDay(),
              k.usedOnUsageDay(), k.dailyLimit(), e.problem()));
        })
        .onEvent(KeyDied.class, (state, e) -> {
          PoolKey k = state.keys().get(e.keyId());
          return state.with(new PoolKey(k.id(), k.ciphertext(), k.label(), true, null, k.usageDay(),
              k.usedOnUsageDay(), k.dailyLimit(), e.problem()));
        })
        .build();
  }
}
