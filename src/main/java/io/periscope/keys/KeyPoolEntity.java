package io.periscope.keys;

import io.periscope.entity.JournaledEntity;
import io.periscope.entity.JsonSerializable;
import io.periscope.provider.ProviderFailure;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.ReplyEffect;
import org.apache.pekko.persistence.typed.javadsl.RetentionCriteria;

/**
 * One pool of provider keys (entity id {@code model} or {@code search}), cluster-wide. Each key is
 * active, cooling down (rate limited or out of quota, until a time) or dead (rejected as invalid),
 * and meters today's (UTC) use against an optional daily limit. Key material is stored encrypted
 * ({@link KeyCipher}); replies carry the ciphertext, so plaintext never enters the journal or a
 * cluster message.
 *
 * <p>Keys come from the environment (seeded on every start) and from admins. A key an admin removed
 * is remembered (by its fingerprint, never the material), so seeding does not bring it back; adding
 * it again does.
 */
public final class KeyPoolEntity
    extends JournaledEntity<KeyPoolEntity.Command, KeyPoolEntity.Event, KeyPoolEntity.State> {

  public static final EntityTypeKey<Command> TYPE_KEY =
      EntityTypeKey.create(Command.class, "KeyPool");

  /**
   * How a service reaches this entity: a key pool, by its name. Sharded when serving, a local actor
   * for the command line; a service is handed only the lookups of the entities it asks.
   */
  @FunctionalInterface
  public interface Refs {
    RecipientRef<Command> keyPool(String pool);
  }

  public static final String MODEL = "model";
  public static final String SEARCH = "search";

  // ---- state
  // -------------------------------------------------------------------------------------

  /** A key as the pool keeps it. {@code cooldownUntil} and {@code dailyLimit} may be null. */
  public record PoolKey(
      String id,
      String ciphertext,
      String label,
      boolean dead,
      Instant cooldownUntil,
      LocalDate usageDay,
      long usedOnUsageDay,
      Long dailyLimit,
      String lastProblem)
      implements JsonSerializable {

    /** {@code uses} more on {@code day}; a day before the one counted is too old to matter. */
    PoolKey withUses(LocalDate day, long uses) {
      if (usageDay != null && day.isBefore(usageDay)) return this;
      return new PoolKey(
          id,
          ciphertext,
          label,
          dead,
          cooldownUntil,
          day,
          usedOn(day) + uses,
          dailyLimit,
          lastProblem);
    }

    PoolKey withHealth(boolean dead, Instant cooldownUntil, String lastProblem) {
      return new PoolKey(
          id,
          ciphertext,
          label,
          dead,
          cooldownUntil,
          usageDay,
          usedOnUsageDay,
          dailyLimit,
          lastProblem);
    }

    PoolKey withCiphertext(String sealed) {
      return new PoolKey(
          id,
          sealed,
          label,
          dead,
          cooldownUntil,
          usageDay,
          usedOnUsageDay,
          dailyLimit,
          lastProblem);
    }

    PoolKey withDailyLimit(Long limit) {
      return new PoolKey(
          id, ciphertext, label, dead, cooldownUntil, usageDay, usedOnUsageDay, limit, lastProblem);
    }

    long usedOn(LocalDate day) {
      return day.equals(usageDay) ? usedOnUsageDay : 0;
    }

    String status(Instant now) {
      if (dead) return "dead";
      return cooldownUntil != null && cooldownUntil.isAfter(now) ? "cooldown" : "active";
    }

    /**
     * @param leasedMore uses leased but not yet written, which count against the daily limit too
     */
    boolean usable(Instant now, long leasedMore) {
      LocalDate today = now.atZone(ZoneOffset.UTC).toLocalDate();
      return status(now).equals("active")
          && (dailyLimit == null || usedOn(today) + leasedMore < dailyLimit);
    }
  }

  /**
   * {@code removed}: the ids of keys an admin removed, which seeding skips (absent from older
   * snapshots).
   */
  public record State(Map<String, PoolKey> keys, Set<String> removed) implements JsonSerializable {
    public State {
      keys = Map.copyOf(keys);
      removed = removed == null ? Set.of() : Set.copyOf(removed);
    }

    State with(PoolKey key) {
      Map<String, PoolKey> next = new LinkedHashMap<>(keys);
      next.put(key.id(), key);
      Set<String> stillRemoved = new HashSet<>(removed);
      stillRemoved.remove(key.id());
      return new State(next, stillRemoved);
    }

    /**
     * A key's change; none for a key the pool no longer holds. Such an event is legitimate: a lease
     * picked before an admin removed its key is written after the removal, and a handler that threw
     * on it would fail every recovery of the pool from then on.
     */
    State withUpdated(String keyId, UnaryOperator<PoolKey> change) {
      PoolKey key = keys.get(keyId);
      return key == null ? this : with(change.apply(key));
    }

    State without(String keyId) {
      Map<String, PoolKey> next = new LinkedHashMap<>(keys);
      next.remove(keyId);
      Set<String> nowRemoved = new HashSet<>(removed);
      nowRemoved.add(keyId);
      return new State(next, nowRemoved);
    }
  }

  // ---- commands and replies
  // ----------------------------------------------------------------------

  public sealed interface Command extends JsonSerializable {}

  /** A key to add when absent, already encrypted; {@code id} is {@link KeyCipher#fingerprint}. */
  public record NewKey(String id, String ciphertext, String label) implements JsonSerializable {}

  /**
   * Adds the keys the pool does not hold yet and no admin removed (seeding from the environment is
   * idempotent, and does not undo a removal).
   */
  public record Seed(List<NewKey> keys, ActorRef<StatusReply<Done>> replyTo) implements Command {}

  /**
   * Adds a key an admin gave (and its provider accepted); refused when the pool holds it already.
   */
  public record Add(NewKey key, ActorRef<StatusReply<Done>> replyTo) implements Command {}

  /** Removes a key and remembers the removal; refused for an id the pool does not hold. */
  public record Remove(String keyId, ActorRef<StatusReply<Done>> replyTo) implements Command {}

  /**
   * Sets a key's daily limit ({@code null}: unlimited); refused for an id the pool does not hold.
   */
  public record SetDailyLimit(String keyId, Long dailyLimit, ActorRef<StatusReply<Done>> replyTo)
      implements Command {}

  /**
   * The provider accepted the key when it was probed again: it is alive and not cooling down any
   * more. Refused for an id the pool does not hold.
   */
  public record Accept(String keyId, ActorRef<StatusReply<Done>> replyTo) implements Command {}

  /**
   * The key, still encrypted, for a probe (not metered); refused for an id the pool does not hold.
   */
  public record GetSealed(String keyId, ActorRef<StatusReply<Lease>> replyTo) implements Command {}

  /**
   * Picks the usable key least used today and meters one use; an error when none is usable.
   * Answered at once: the use is counted in memory and written with the others of its key and day
   * within {@link #WRITE_USES_AFTER} or once {@link #WRITE_USES_AT} are pending, so a provider call
   * adds no event of its own.
   */
  public record Acquire(Instant now, ActorRef<StatusReply<Lease>> replyTo) implements Command {}

  /** Writes the uses counted so far (sent by the entity to itself). */
  record WriteUses() implements Command {}

  /** Writes the uses counted so far and answers once they are in the journal. */
  public record Flush(ActorRef<StatusReply<Done>> replyTo) implements Command {}

  /** Sharding's stop message: the uses counted so far are written before the pool stops. */
  public record Stop() implements Command {}

  /** How a call with a key went, when it went wrong in a way that concerns the key. */
  public record Report(
      String keyId,
      ProviderFailure.Kind kind,
      Instant until,
      String problem,
      ActorRef<StatusReply<Done>> replyTo)
      implements Command {}

  public record GetStatus(Instant now, ActorRef<StatusReply<PoolStatus>> replyTo)
      implements Command {}

  /**
   * Replaces a key's ciphertext with the same key sealed under the newest encryption key, unless it
   * changed since {@code previous} was read; refused for an id the pool does not hold.
   */
  public record Reseal(
      String keyId, String previous, String ciphertext, ActorRef<StatusReply<Done>> replyTo)
      implements Command {}

  public record Lease(String keyId, String ciphertext) implements JsonSerializable {}

  /**
   * What an admin sees of one key: never the material, only a masked label. {@code usable}: a lease
   * could pick it now (active and under its daily limit).
   */
  public record KeyView(
      String id,
      String label,
      String status,
      long usedToday,
      Long dailyLimit,
      Instant cooldownUntil,
      String lastProblem,
      boolean usable)
      implements JsonSerializable {}

  public record PoolStatus(List<KeyView> keys) implements JsonSerializable {}

  // ---- events
  // ------------------------------------------------------------------------------------

  public sealed interface Event extends JsonSerializable {}

  public record KeyAdded(String keyId, String ciphertext, String label) implements Event {}

  /** One use: what the pool wrote per call before uses were counted ({@link KeyUsesCounted}). */
  public record KeyUsed(String keyId, LocalDate day) implements Event {}

  /** {@code uses} more uses of the key on {@code day} (UTC), counted since the last such event. */
  public record KeyUsesCounted(String keyId, LocalDate day, long uses) implements Event {}

  public record KeyCooledDown(String keyId, Instant until, String problem) implements Event {}

  public record KeyDied(String keyId, String problem) implements Event {}

  public record KeyRemoved(String keyId) implements Event {}

  public record DailyLimitSet(String keyId, Long dailyLimit) implements Event {}

  /** A probe found the key accepted: it lives again, and whatever cooled it down is over. */
  public record KeyAccepted(String keyId) implements Event {}

  /** The key sealed anew (a re-encryption under the newest encryption key). */
  public record KeyResealed(String keyId, String ciphertext) implements Event {}

  // ---- behaviour
  // ---------------------------------------------------------------------------------

  /** How long a rate-limited key rests when the provider did not say. */
  static final Duration DEFAULT_COOLDOWN = Duration.ofSeconds(60);

  public static Behavior<Command> create(String pool) {
    return Behaviors.setup(ctx -> new KeyPoolEntity(ctx, pool));
  }

  /**
   * Uses are written at most this long after they were leased: after a crash (the counts in memory
   * are lost), a day's count falls short by at most the uses of this long, or of {@link
   * #WRITE_USES_AT}, whichever is fewer (docs/journal.md).
   */
  static final Duration WRITE_USES_AFTER = Duration.ofSeconds(5);

  /** This many uses pending are written at once, whatever the time. */
  static final int WRITE_USES_AT = 50;

  /** A key's uses on a day (UTC). */
  private record Use(String keyId, LocalDate day) {}

  /** Uses leased but not written yet, by key and day. In memory: a crash loses them. */
  private final Map<Use, Long> pending = new LinkedHashMap<>();

  private final ActorContext<Command> context;

  private KeyPoolEntity(ActorContext<Command> context, String entityId) {
    super(TYPE_KEY, entityId);
    this.context = context;
  }

  @Override
  public State emptyState() {
    return new State(Map.of(), Set.of());
  }

  /** Events between two snapshots; the journal keeps the last two snapshots' worth. */
  static final int SNAPSHOT_EVERY = 200;

  /*
   * Uses are folded into one event per key and day every few seconds ({@link #WRITE_USES_AFTER}),
   * not one per call, and the use counters are state, kept in snapshots; the events older than the
   * second newest snapshot are deleted (docs/journal.md). The pool is never read by tag, so the
   * gaps this leaves concern no projection.
   */
  @Override
  public RetentionCriteria retentionCriteria() {
    return RetentionCriteria.snapshotEvery(SNAPSHOT_EVERY, 2).withDeleteEventsOnSnapshot();
  }

  @Override
  public CommandHandlerWithReply<Command, Event, State> commandHandler() {
    return newCommandHandlerWithReplyBuilder()
        .forAnyState()
        .onCommand(Seed.class, this::onSeed)
        .onCommand(Acquire.class, this::onAcquire)
        .onCommand(WriteUses.class, (state, cmd) -> writeUses().thenNoReply())
        .onCommand(
            Flush.class,
            (state, cmd) -> writeUses().thenReply(cmd.replyTo(), s -> StatusReply.ack()))
        .onCommand(Stop.class, (state, cmd) -> writeUses().thenStop().thenNoReply())
        .onCommand(Report.class, this::onReport)
        .onCommand(Add.class, this::onAdd)
        .onCommand(
            Remove.class,
            (state, cmd) ->
                ifHeld(
                    state,
                    cmd.keyId(),
                    cmd.replyTo(),
                    () ->
                        Effect()
                            .persist(new KeyRemoved(cmd.keyId()))
                            .thenReply(cmd.replyTo(), s -> StatusReply.ack())))
        .onCommand(
            SetDailyLimit.class,
            (state, cmd) ->
                ifHeld(
                    state,
                    cmd.keyId(),
                    cmd.replyTo(),
                    () ->
                        Effect()
                            .persist(new DailyLimitSet(cmd.keyId(), cmd.dailyLimit()))
                            .thenReply(cmd.replyTo(), s -> StatusReply.ack())))
        .onCommand(
            Accept.class,
            (state, cmd) ->
                ifHeld(
                    state,
                    cmd.keyId(),
                    cmd.replyTo(),
                    () ->
                        Effect()
                            .persist(new KeyAccepted(cmd.keyId()))
                            .thenReply(cmd.replyTo(), s -> StatusReply.ack())))
        .onCommand(
            GetSealed.class,
            (state, cmd) ->
                ifHeld(
                    state,
                    cmd.keyId(),
                    cmd.replyTo(),
                    () ->
                        Effect()
                            .reply(
                                cmd.replyTo(),
                                StatusReply.success(
                                    new Lease(
                                        cmd.keyId(), state.keys().get(cmd.keyId()).ciphertext())))))
        .onCommand(
            Reseal.class,
            (state, cmd) ->
                ifHeld(
                    state,
                    cmd.keyId(),
                    cmd.replyTo(),
                    () ->
                        state.keys().get(cmd.keyId()).ciphertext().equals(cmd.previous())
                            ? Effect()
                                .persist(new KeyResealed(cmd.keyId(), cmd.ciphertext()))
                                .thenReply(cmd.replyTo(), s -> StatusReply.ack())
                            : Effect().reply(cmd.replyTo(), StatusReply.ack())))
        .onCommand(
            GetStatus.class,
            (state, cmd) ->
                Effect().reply(cmd.replyTo(), StatusReply.success(status(state, cmd.now()))))
        .build();
  }

  private ReplyEffect<Event, State> onSeed(State state, Seed cmd) {
    List<Event> added = new ArrayList<>();
    for (NewKey k : cmd.keys()) {
      boolean known =
          state.keys().containsKey(k.id())
              || state.removed().contains(k.id())
              || added.stream().anyMatch(e -> ((KeyAdded) e).keyId().equals(k.id()));
      if (!known) added.add(new KeyAdded(k.id(), k.ciphertext(), k.label()));
    }
    return Effect().persist(added).thenReply(cmd.replyTo(), s -> StatusReply.ack());
  }

  private ReplyEffect<Event, State> onAdd(State state, Add cmd) {
    NewKey k = cmd.key();
    if (state.keys().containsKey(k.id())) {
      return Effect().reply(cmd.replyTo(), StatusReply.error("the key is in the pool already"));
    }
    return Effect()
        .persist(new KeyAdded(k.id(), k.ciphertext(), k.label()))
        .thenReply(cmd.replyTo(), s -> StatusReply.ack());
  }

  /**
   * {@code effect} when the pool holds {@code keyId}, else the refusal every command about one key
   * shares.
   */
  private <R> ReplyEffect<Event, State> ifHeld(
      State state,
      String keyId,
      ActorRef<StatusReply<R>> replyTo,
      Supplier<ReplyEffect<Event, State>> effect) {
    return state.keys().containsKey(keyId)
        ? effect.get()
        : Effect().reply(replyTo, StatusReply.error("no such key"));
  }

  private ReplyEffect<Event, State> onAcquire(State state, Acquire cmd) {
    LocalDate today = cmd.now().atZone(ZoneOffset.UTC).toLocalDate();
    Optional<PoolKey> pick =
        state.keys().values().stream()
            .filter(k -> k.usable(cmd.now(), leasedOf(k.id(), today)))
            .min(
                Comparator.<PoolKey>comparingLong(k -> k.usedOn(today) + leasedOf(k.id(), today))
                    .thenComparing(PoolKey::id));
    if (pick.isEmpty())
      return Effect().reply(cmd.replyTo(), StatusReply.error("no usable key in the pool"));
    PoolKey key = pick.get();
    long total = pending.values().stream().mapToLong(Long::longValue).sum();
    if (total == 0) context.scheduleOnce(WRITE_USES_AFTER, context.getSelf(), new WriteUses());
    pending.merge(new Use(key.id(), today), 1L, Long::sum);
    if (total + 1 == WRITE_USES_AT) context.getSelf().tell(new WriteUses());
    return Effect()
        .reply(cmd.replyTo(), StatusReply.success(new Lease(key.id(), key.ciphertext())));
  }

  private long leasedOf(String keyId, LocalDate day) {
    return pending.getOrDefault(new Use(keyId, day), 0L);
  }

  /**
   * One event per key and day with uses pending. A write scheduled for uses written already finds
   * none and writes nothing.
   */
  private org.apache.pekko.persistence.typed.javadsl.EffectBuilder<Event, State> writeUses() {
    List<Event> counted =
        pending.entrySet().stream()
            .<Event>map(e -> new KeyUsesCounted(e.getKey().keyId(), e.getKey().day(), e.getValue()))
            .toList();
    pending.clear();
    return Effect().persist(counted);
  }

  private ReplyEffect<Event, State> onReport(State state, Report cmd) {
    if (!state.keys().containsKey(cmd.keyId()))
      return Effect().reply(cmd.replyTo(), StatusReply.ack());
    Event event =
        switch (cmd.kind()) {
          case INVALID_KEY -> new KeyDied(cmd.keyId(), cmd.problem());
          case RATE_LIMITED, QUOTA_EXHAUSTED ->
              new KeyCooledDown(cmd.keyId(), cmd.until(), cmd.problem());
          case TRANSIENT, REJECTED ->
              null; // the provider's trouble or the request's, not the key's
        };
    if (event == null) return Effect().reply(cmd.replyTo(), StatusReply.ack());
    return Effect().persist(event).thenReply(cmd.replyTo(), s -> StatusReply.ack());
  }

  /** The keys as an admin sees them, today's uses counted whether written yet or not. */
  private PoolStatus status(State state, Instant now) {
    LocalDate today = now.atZone(ZoneOffset.UTC).toLocalDate();
    return new PoolStatus(
        state.keys().values().stream()
            .sorted(Comparator.comparing(PoolKey::label))
            .map(
                k ->
                    new KeyView(
                        k.id(),
                        k.label(),
                        k.status(now),
                        k.usedOn(today) + leasedOf(k.id(), today),
                        k.dailyLimit(),
                        k.status(now).equals("cooldown") ? k.cooldownUntil() : null,
                        k.lastProblem(),
                        k.usable(now, leasedOf(k.id(), today))))
            .toList());
  }

  @Override
  public EventHandler<State, Event> eventHandler() {
    return newEventHandlerBuilder()
        .forAnyState()
        .onEvent(
            KeyAdded.class,
            (state, e) ->
                state.with(
                    new PoolKey(
                        e.keyId(), e.ciphertext(), e.label(), false, null, null, 0, null, null)))
        .onEvent(
            KeyUsed.class, (state, e) -> state.withUpdated(e.keyId(), k -> k.withUses(e.day(), 1)))
        .onEvent(
            KeyUsesCounted.class,
            (state, e) -> state.withUpdated(e.keyId(), k -> k.withUses(e.day(), e.uses())))
        .onEvent(
            KeyCooledDown.class,
            (state, e) ->
                state.withUpdated(e.keyId(), k -> k.withHealth(k.dead(), e.until(), e.problem())))
        .onEvent(
            KeyDied.class,
            (state, e) -> state.withUpdated(e.keyId(), k -> k.withHealth(true, null, e.problem())))
        .onEvent(
            KeyAccepted.class,
            (state, e) -> state.withUpdated(e.keyId(), k -> k.withHealth(false, null, null)))
        .onEvent(
            DailyLimitSet.class,
            (state, e) -> state.withUpdated(e.keyId(), k -> k.withDailyLimit(e.dailyLimit())))
        .onEvent(KeyRemoved.class, (state, e) -> state.without(e.keyId()))
        .onEvent(
            KeyResealed.class,
            (state, e) -> state.withUpdated(e.keyId(), k -> k.withCiphertext(e.ciphertext())))
        .build();
  }
}
