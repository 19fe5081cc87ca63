package io.periscope.watch;

import io.periscope.config.Durations;
import io.periscope.config.Settings;
import io.periscope.entity.Asks;
import io.periscope.entity.EntityRefusal;
import io.periscope.entity.Failures;
import io.periscope.entity.JournalFailures;
import io.periscope.entity.JsonSerializable;
import io.periscope.metrics.Metrics;
import io.periscope.notify.Alert;
import io.periscope.notify.Delivery;
import io.periscope.persistence.EventDeletes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.PreRestart;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.typed.DeleteEventsFailed;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.RecoveryCompleted;
import org.apache.pekko.persistence.typed.SnapshotCompleted;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EffectBuilder;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehaviorWithEnforcedReplies;
import org.apache.pekko.persistence.typed.javadsl.ReplyEffect;
import org.apache.pekko.persistence.typed.javadsl.RetentionCriteria;
import org.apache.pekko.persistence.typed.javadsl.SignalHandler;

/**
 * One watch of one owner, event sourced. The entity id is {@code owner:watchId}, so ids are unique
 * per owner and no owner can address another's watch. It owns the definition, the identities of the
 * items it has judged and its run history. Deleting is an event: the run history outlives the
 * definition, and the id may be created again (its history continues).
 *
 * <p>A watch runs one run at a time: a run requested while one is in flight waits (stashed) and
 * then sees the first run's items as seen, so no item is judged or alerted twice. A run's record,
 * the items it marks seen and the alert it decided are one event, written before the alert goes
 * out: each (channel, alert) delivery is then owed, in the watch's outbox ({@link Pending}), until
 * it is delivered, fails permanently or its retries run out (DELIVERY_RETRY_FOR). Each attempt's
 * outcome is an event ({@link AlertDelivered}); a retryable failure is tried again after a backoff
 * with jitter (or the channel's Retry-After), by a timer while the watch is in memory. Alerts are
 * at least once: a node that stops during an attempt leaves it owed, and the watch's next
 * incarnation makes it again (receivers that keep {@code Alert.id()} tell the repeat). A run waits
 * for the first attempt of each of its channels, not for retries: a dead channel delays neither the
 * others nor the next run. On a hand-over the entity finishes the run in flight and the attempts in
 * flight before it stops.
 *
 * <p>Timers die with the entity (passivation, hand-over, a crash), so the outbox wakes it the way
 * the schedule does: while deliveries are owed, the watch writes its wake-up time — the earliest of
 * its next fire time and its next attempt — to the wake-up index ({@link DeliveriesDue}), and the
 * scheduler's fire for that time starts the entity again, whose recovery resumes what is owed. Once
 * nothing is owed, the next fire time is written again ({@link ScheduleAdvanced} without {@code
 * firedFor}).
 *
 * <p>The watch owns its schedule: the next fire time is state, set when the watch is created or its
 * schedule or enabled flag changes (from the time of the change), and advanced after each scheduled
 * run from the time it was due — to the first due time after now when that is already past, so a
 * watch that missed slots while nothing ran (downtime) runs once, not once per slot. Timers would
 * die with the entity; instead the events that set the next fire time are tagged, projected into
 * the wake-up index, and the scheduler sends {@link Fire} through sharding. A fire for any other
 * time than the current next fire time is ignored, so a due time fires once however often it is
 * sent.
 */
public final class WatchEntity
    extends EventSourcedBehaviorWithEnforcedReplies<
        WatchEntity.Command, WatchEntity.Event, WatchEntity.State> {

  public static final EntityTypeKey<Command> TYPE_KEY =
      EntityTypeKey.create(Command.class, "Watch");

  /**
   * How a service reaches this entity: a watch entity, by its owner and the watch's id. Sharded
   * when serving, a local actor for the command line; a service is handed only the lookups of the
   * entities it asks.
   */
  @FunctionalInterface
  public interface Refs {
    RecipientRef<Command> watch(String owner, String watchId);
  }

  public static String entityId(String owner, String watchId) {
    return owner + ":" + watchId;
  }

  // ---- state
  // -------------------------------------------------------------------------------------

  /**
   * How many item identities a watch remembers; older ones may be judged again if a feed
   * re-publishes them.
   */
  public static final int SEEN_BOUND = 5000;

  /**
   * How many run records the entity keeps at hand; the journal keeps RUN_HISTORY_RETENTION of them
   * at least ({@link RunPages} reads past these).
   */
  public static final int RECENT_RUNS = 100;

  /**
   * {@code watch} is null before the first create and after a delete. {@code seen} holds item keys
   * oldest first; {@code recentRuns} the newest runs, newest first. {@code baselines}: when each
   * source ({@code type:value}) took its baseline; {@code createdAt}: when the watch was last
   * created (both absent from older snapshots). {@code held}: alerts waiting for the end of quiet
   * hours or a digest ({@link HeldAlerts}), absent from older snapshots.
   */
  public record State(
      Watch watch,
      boolean everCreated,
      List<String> seen,
      List<RunRecord> recentRuns,
      Instant nextFireAt,
      Delivering delivering,
      Map<String, Instant> baselines,
      Instant createdAt,
      List<Pending> outbox,
      List<HeldAlert> held,
      OwnerNotices.Streak failing)
      implements JsonSerializable {
    static final State EMPTY =
        new State(
            null, false, List.of(), List.of(), null, null, Map.of(), null, List.of(), List.of(),
            null);

    public State {
      seen = List.copyOf(seen);
      recentRuns = List.copyOf(recentRuns);
      baselines = baselines == null ? Map.of() : Map.copyOf(baselines);
      outbox = outbox == null ? List.of() : List.copyOf(outbox);
      held = held == null ? List.of() : List.copyOf(held);
      failing = failing == null ? OwnerNotices.Streak.NONE : failing;
    }

    /** The watch's failed runs in a row, and whether its owner was told (OwnerNotices). */
    State withFailing(OwnerNotices.Streak streak) {
      return new State(
          watch,
          everCreated,
          seen,
          recentRuns,
          nextFireAt,
          delivering,
          baselines,
          createdAt,
          outbox,
          held,
          streak);
    }

    /**
     * When the wake-up index should start this watch: the earliest of its next fire time, its owed
     * deliveries' next attempts and its held alerts' release; null when nothing is owed or held
     * (the index holds the fire time).
     */
    Instant wakeAt() {
      Instant wake = null;
      for (Pending p : outbox) if (wake == null || p.dueAt().isBefore(wake)) wake = p.dueAt();
      for (HeldAlert h : held)
        if (wake == null || h.releaseAt().isBefore(wake)) wake = h.releaseAt();
      if (wake != null && nextFireAt != null && nextFireAt.isBefore(wake)) wake = nextFireAt;
      return wake;
    }

    Optional<Pending> owed(String runId, String channel) {
      return outbox.stream()
          .filter(p -> p.runId().equals(runId) && p.channel().equals(channel))
          .findFirst();
    }

    State withOutbox(List<Pending> owed) {
      return withOwed(owed, held);
    }

    State withHeld(List<HeldAlert> waiting) {
      return withOwed(outbox, waiting);
    }

    /** This state owing {@code owed} and holding {@code waiting}. */
    private State withOwed(List<Pending> owed, List<HeldAlert> waiting) {
      return new State(
          watch,
          everCreated,
          seen,
          recentRuns,
          nextFireAt,
          delivering,
          baselines,
          createdAt,
          owed,
          waiting,
          failing);
    }

    /**
     * The deliveries of run {@code runId}'s alert or notices as they now stand: each one still owed
     * is updated.
     */
    State withAttempts(String runId, List<RunRecord.DeliveryRecord> records) {
      List<Pending> owed = new ArrayList<>();
      for (Pending p : outbox) {
        List<RunRecord.DeliveryRecord> mine =
            records.stream()
                .filter(r -> r.channel().equals(p.channel()))
                .filter(r -> OwnerNotices.owedId(runId, r.notice()).equals(p.runId()))
                .toList();
        if (mine.isEmpty()) owed.add(p);
        else if (mine.size() == 1 && mine.get(0).pending()) owed.add(p.withRecord(mine.get(0)));
      }
      return withOutbox(owed);
    }

    /** What the next run, starting at {@code now}, is told of the past. */
    RunPipeline.Memory memory(Instant now) {
      boolean firstRun = recentRuns.isEmpty() && baselines.isEmpty();
      return new RunPipeline.Memory(
          new HashSet<>(seen), baselines, firstRun && createdAt != null ? createdAt : now);
    }

    State created(Watch w, Instant at, Instant nextFire) {
      return new State(
          w, true, seen, recentRuns, nextFire, delivering, baselines, at, outbox, held, failing);
    }

    public boolean exists() {
      return watch != null;
    }

    /** {@code nextFire} is null for a deleted or disabled watch. */
    State withWatch(Watch w, Instant nextFire) {
      return new State(
          w,
          everCreated || w != null,
          seen,
          recentRuns,
          nextFire,
          delivering,
          baselines,
          createdAt,
          outbox,
          held,
          failing);
    }

    State withNextFire(Instant nextFire) {
      return new State(
          watch,
          everCreated,
          seen,
          recentRuns,
          nextFire,
          delivering,
          baselines,
          createdAt,
          outbox,
          held,
          failing);
    }

    State withDelivering(Delivering d) {
      return new State(
          watch,
          everCreated,
          seen,
          recentRuns,
          nextFireAt,
          d,
          baselines,
          createdAt,
          outbox,
          held,
          failing);
    }

    /**
     * The run's record with these deliveries in place of its earlier ones on the same channels (and
     * the records of the runs a grouped release carries); an interrupted delivery of an older
     * incarnation ({@link Delivering}) is over.
     */
    State withDelivered(String runId, List<RunRecord.DeliveryRecord> sent, long totalMs) {
      Set<String> told = new HashSet<>(Set.of(runId));
      for (Pending p : outbox) if (p.runId().equals(runId)) told.addAll(p.carries());
      List<RunRecord> runs =
          recentRuns.stream()
              .map(r -> told.contains(r.runId()) ? r.withDeliveries(sent, totalMs) : r)
              .toList();
      Delivering still = delivering != null && delivering.runId().equals(runId) ? null : delivering;
      return new State(
              watch,
              everCreated,
              seen,
              runs,
              nextFireAt,
              still,
              baselines,
              createdAt,
              outbox,
              held,
              failing)
          .withAttempts(runId, sent);
    }

    State withRun(RunRecord record, List<String> newlySeen, Map<String, Instant> baselined) {
      LinkedHashSet<String> ids = new LinkedHashSet<>(seen);
      ids.addAll(newlySeen);
      List<String> bounded = new ArrayList<>(ids);
      if (bounded.size() > SEEN_BOUND)
        bounded = bounded.subList(bounded.size() - SEEN_BOUND, bounded.size());
      List<RunRecord> runs = new ArrayList<>(RECENT_RUNS);
      runs.add(record.lean()); // the judged items stay in the journal only (RunPages#whole)
      recentRuns.stream().limit(RECENT_RUNS - 1).forEach(runs::add);
      Map<String, Instant> sources = new HashMap<>(baselines);
      if (baselined != null) baselined.forEach(sources::putIfAbsent);
      return new State(
          watch,
          everCreated,
          bounded,
          runs,
          nextFireAt,
          delivering,
          sources,
          createdAt,
          outbox,
          held,
          failing);
    }
  }

  /**
   * A run's alert going out to {@code channels} as journals written before the outbox record it (a
   * {@link RunJudged} without its alert): what a node stopping in between left undelivered is
   * recorded as interrupted, since the alert itself was not kept.
   */
  public record Delivering(String runId, List<String> channels) implements JsonSerializable {}

  /**
   * A delivery owed: the alert of run {@code runId} to {@code channel}, tried until {@code
   * retryUntil}. {@code record} is the delivery as it stands (pending, with its attempts and its
   * next one), null before the first attempt, which is due when the alert was decided. {@code
   * carries}: for a release grouping held alerts ({@code runId} is then the release's own id), the
   * runs whose records its deliveries update; empty otherwise (and in older journals).
   */
  public record Pending(
      String runId,
      String channel,
      Alert alert,
      Instant retryUntil,
      RunRecord.DeliveryRecord record,
      List<String> carries)
      implements JsonSerializable {
    public Pending {
      carries = carries == null ? List.of() : List.copyOf(carries);
    }

    Pending(
        String runId,
        String channel,
        Alert alert,
        Instant retryUntil,
        RunRecord.DeliveryRecord record) {
      this(runId, channel, alert, retryUntil, record, List.of());
    }

    Instant dueAt() {
      return record == null || record.nextAttemptAt() == null ? alert.at() : record.nextAttemptAt();
    }

    /** Its record as the attempts so far left it; before the first, a pending one without any. */
    RunRecord.DeliveryRecord recordSoFar() {
      return record != null
          ? record
          : new RunRecord.DeliveryRecord(
              channel, null, false, null, RunRecord.DeliveryRecord.PENDING, List.of(), null);
    }

    Pending withRecord(RunRecord.DeliveryRecord now) {
      return new Pending(runId, channel, alert, retryUntil, now, carries);
    }

    String key() {
      return runId + " " + channel;
    }
  }

  /**
   * Run history, newest first; {@code more} when older kept runs follow, or may follow in the
   * journal (the page reached the end of the runs kept in memory, which were all it keeps there).
   */
  public record Runs(List<RunRecord> runs, boolean more) implements JsonSerializable {}

  // ---- commands
  // ----------------------------------------------------------------------------------

  public sealed interface Command extends JsonSerializable {}

  /** Refused when the watch exists. */
  public record Create(Watch watch, ActorRef<StatusReply<Watch>> replyTo) implements Command {}

  /** Refused when the watch does not exist. */
  public record Replace(Watch watch, ActorRef<StatusReply<Watch>> replyTo) implements Command {}

  /**
   * The watch's channels sealed anew ({@code keys re-encrypt}): the same channels, only while they
   * are still {@code previous}.
   */
  public record ResealChannels(
      List<String> previous, List<String> channels, ActorRef<StatusReply<Done>> replyTo)
      implements Command {}

  /** Refused when the watch does not exist. */
  public record Get(ActorRef<StatusReply<Watch>> replyTo) implements Command {}

  /**
   * The watch and what a run starting now would be told of its past, for a dry run, which records
   * nothing. Refused when the watch does not exist.
   */
  public record Recall(ActorRef<StatusReply<Recalled>> replyTo) implements Command {}

  /** The answer to {@link Recall}. */
  public record Recalled(Watch watch, RunPipeline.Memory memory) implements JsonSerializable {}

  /** Refused when the watch does not exist. */
  public record Delete(ActorRef<StatusReply<Done>> replyTo) implements Command {}

  /** Runs the watch now (schedule ignored). Refused when the watch does not exist. */
  public record Run(String trigger, ActorRef<StatusReply<RunRecord>> replyTo) implements Command {}

  /**
   * Whether this incarnation still owes {@code asker} the answer to its {@link Run}: a new
   * incarnation (after its node died) owes nothing. Answered at once, even mid-run.
   */
  public record OwesRun(
      ActorRef<StatusReply<RunRecord>> asker, ActorRef<StatusReply<Boolean>> replyTo)
      implements Command {}

  /**
   * Asks {@code watch} for a run, waiting at most {@code patience}; fails with {@link
   * #RUN_INTERRUPTED} when the incarnation that took the run is gone, whether it ended here (it
   * says so as it stops) or its node died (a probe finds the watch no longer owes the answer).
   */
  public static CompletionStage<RunRecord> askRun(
      Asks asks, RecipientRef<Command> watch, String trigger, Duration patience) {
    return asks.askWhileOwed(
        watch,
        replyTo -> new Run(trigger, replyTo),
        patience,
        asker ->
            asks.<Command, Boolean>ask(watch, replyTo -> new OwesRun(asker, replyTo))
                .exceptionally(failure -> null),
        () -> new EntityRefusal(RUN_INTERRUPTED));
  }

  /**
   * The newest {@code limit} kept runs, or with {@code before} the {@code limit} kept runs older
   * than that run; refused for a watch that never existed ({@code watch not found}), and for a
   * {@code before} that is not a kept run ({@link #NO_SUCH_RUN}).
   */
  public record GetRuns(int limit, String before, ActorRef<StatusReply<Runs>> replyTo)
      implements Command {
    public GetRuns(int limit, ActorRef<StatusReply<Runs>> replyTo) {
      this(limit, null, replyTo);
    }
  }

  public static final String NO_SUCH_RUN = "run not found";

  /** What a command to a watch that does not exist is refused with. */
  public static final String WATCH_NOT_FOUND = "watch not found";

  /**
   * What a {@link Run} is answered when the watch stopped or restarted before its run was recorded
   * (a crash, a journal failure): whether the run is in the history is not known.
   */
  public static final String RUN_INTERRUPTED =
      "the watch stopped or restarted during the run; its outcome is not known (see its run"
          + " history), try again";

  /** Whether a run was refused with {@link #RUN_INTERRUPTED}. */
  public static boolean interrupted(Throwable failure) {
    return Failures.isRefusal(failure)
        && RUN_INTERRUPTED.equals(Failures.unwrap(failure).getMessage());
  }

  /**
   * One of the {@link #RECENT_RUNS} newest runs, by id: what feedback may be given on. Refused
   * (watch not found) when the watch does not exist now, and (run not found) when the run is not
   * among them.
   */
  public record GetRun(String runId, ActorRef<StatusReply<RunRecord>> replyTo) implements Command {}

  /**
   * The scheduler's wake-up for the due time {@code due}; ignored unless it is the watch's next
   * fire time.
   */
  public record Fire(Instant due) implements Command {}

  /**
   * Sharding's stop message (passivation, hand-over): the entity stops once the run in flight, if
   * any, is recorded and delivered.
   */
  public record Stop() implements Command {}

  /**
   * The pipeline finished (sent by the entity to itself). {@code scheduledFor} is the due time of a
   * scheduled run, {@code replyTo} who asked for a run now; each null otherwise.
   */
  record RunFinished(
      RunPipeline.Outcome outcome,
      Throwable failure,
      String trigger,
      Instant startedAt,
      Instant scheduledFor,
      ActorRef<StatusReply<RunRecord>> replyTo)
      implements Command {}

  /**
   * A snapshot at {@code snapshotAt} was written: the events past the retention go (sent by the
   * entity to itself).
   */
  record TrimJournal(long snapshotAt) implements Command {}

  /**
   * Attempts to deliver run {@code runId}'s alert to {@code channels}, made at {@code at}, ended
   * with {@code results} (per channel; per device for {@code push}); {@code first} for the run's
   * first attempts, which the run waits for (sent by the entity to itself). Another channel's
   * attempt of the same run may still be in flight.
   */
  record Attempted(
      String runId, List<String> channels, List<Delivery> results, Instant at, boolean first)
      implements Command {}

  /**
   * The owed delivery of run {@code runId} to {@code channel} that was due at {@code dueAt} is to
   * be tried now; stale when the delivery has moved on (sent by the entity to itself, by a timer).
   */
  record RetryDue(String runId, String channel, Instant dueAt) implements Command {}

  /**
   * Recovery found a run whose deliveries a previous incarnation never recorded (sent by the entity
   * to itself).
   */
  record DeliveryInterrupted(String runId) implements Command {}

  /**
   * Held alerts may be due for release (sent by the entity to itself, by a timer; a {@link Fire}
   * releases them too, as the wake-up index starts the watch for them).
   */
  record ReleaseDue() implements Command {}

  // ---- events
  // ------------------------------------------------------------------------------------

  public sealed interface Event extends JsonSerializable {}

  /** {@code nextFireAt} is null when the watch is disabled. */
  public record Created(Watch watch, Instant at, Instant nextFireAt) implements Event {}

  public record Replaced(Watch watch, Instant at, Instant nextFireAt) implements Event {}

  /** The watch's channels, sealed anew under the newest key. */
  public record ChannelsResealed(List<String> channels) implements Event {}

  /**
   * The scheduled run due at {@code firedFor} was recorded; the watch is next due at {@code
   * nextFireAt}. Without {@code firedFor}: the due time written again before older events are
   * deleted.
   */
  public record ScheduleAdvanced(Instant firedFor, Instant nextFireAt) implements Event {}

  /** The tag of the events that set a watch's next fire time, which the wake-up index projects. */
  public static final String SCHEDULE_TAG = "watch-schedule";

  /**
   * The tag of the events that record runs and their deliveries, which {@code history --follow}
   * reads as they are written (events written before the tag existed carry none: past runs are read
   * by watch, not by tag).
   */
  public static final String RUN_TAG = "watch-run";

  public record Deleted(Instant at) implements Event {}

  /**
   * A run's record together with the item keys it marks seen and the sources that took their
   * baseline in it ({@code baselined} is absent from events written before baselines).
   */
  public record RunRecorded(
      RunRecord record, List<String> newlySeen, Map<String, Instant> baselined) implements Event {}

  /**
   * A run with an alert to send, recorded with the items it marks seen (and its baselines, as
   * {@link RunRecorded}) before the alert goes out to {@code channels}: each (channel, alert)
   * delivery is owed until {@code retryUntil}; its attempts follow in {@link AlertDelivered}.
   * Events written before the outbox have neither {@code alert} nor {@code retryUntil}. With {@code
   * heldUntil} (quiet hours, a digest) the alert is held until then instead ({@link HeldAlert}, no
   * {@code retryUntil}) and goes out in a {@link HeldReleased}.
   */
  public record RunJudged(
      RunRecord record,
      List<String> newlySeen,
      List<String> channels,
      Map<String, Instant> baselined,
      Alert alert,
      Instant retryUntil,
      Instant heldUntil)
      implements Event {
    public RunJudged(
        RunRecord record,
        List<String> newlySeen,
        List<String> channels,
        Map<String, Instant> baselined) {
      this(record, newlySeen, channels, baselined, null, null, null);
    }

    public RunJudged(
        RunRecord record,
        List<String> newlySeen,
        List<String> channels,
        Map<String, Instant> baselined,
        Alert alert,
        Instant retryUntil) {
      this(record, newlySeen, channels, baselined, alert, retryUntil, null);
    }
  }

  /**
   * The held alerts of {@code runIds} were released: they are owed as {@code owed}, one delivery
   * per channel ({@link HeldAlerts}).
   */
  public record HeldReleased(List<String> runIds, List<Pending> owed) implements Event {}

  /**
   * Deliveries of the run {@code runId} as they stand after an attempt (or an interruption): each
   * replaces the run's earlier one on the same channel. {@code totalMs} is how long the run took
   * through its first attempts; negative (retries) leaves the run's duration as it was.
   */
  public record AlertDelivered(
      String runId, List<RunRecord.DeliveryRecord> deliveries, long totalMs) implements Event {}

  /**
   * The watch's owner is told, on {@code channels}, that it keeps failing or that it recovered
   * ({@code notice}: {@link RunRecord.DeliveryRecord#NOTICE_FAILING} or {@link
   * RunRecord.DeliveryRecord#NOTICE_RECOVERED}), as run {@code runId} called for: each delivery of
   * {@code alert} is owed until {@code retryUntil}, like an alert's ({@link OwnerNotices}).
   */
  public record OwnerNoticed(
      String notice, String runId, List<String> channels, Alert alert, Instant retryUntil)
      implements Event {}

  /**
   * Deliveries are owed: the wake-up index is to start the watch at {@code at} (the earliest of its
   * next attempt and its next fire time), since timers die with the entity.
   */
  public record DeliveriesDue(Instant at) implements Event {}

  /** What an interrupted delivery says: whether that channel got the alert is not known. */
  public static final String INTERRUPTED =
      "interrupted: the node stopped while the alert was being sent; " + "it may not have arrived";

  // ---- behaviour
  // ---------------------------------------------------------------------------------

  private final ActorContext<Command> context;
  private final RunPipeline pipeline;
  private final Clock clock;
  private final Passivation passivation;
  private final RunMeters meters;

  /**
   * The events kept before the newest snapshot: RUN_HISTORY_RETENTION × {@link #EVENTS_PER_RUN}.
   */
  private final long retainedEvents;

  /** In memory only: a crash loses the run in flight, whose items then stay unseen. */
  private boolean running;

  private final Settings.DeliveryRetry retry;

  /** WATCH_FAILING_AFTER: failed runs in a row after which the owner is told (0: never). */
  private final int failingAfter;

  /** The owed deliveries ({@link Pending#key()}) with an attempt in flight. */
  private final Set<String> attempting = new HashSet<>();

  /** The run whose first attempts are in flight, and who asked for it (null for a schedule). */
  private record FirstAttempts(String runId, ActorRef<StatusReply<RunRecord>> replyTo) {}

  private FirstAttempts firstAttempts;

  /**
   * Who waits for a run of this incarnation: the asker of the run in flight and those of the runs
   * stashed behind it. Told {@link #RUN_INTERRUPTED} when the incarnation ends before it answered
   * them, so no asker waits for its timeout.
   */
  private final Set<ActorRef<StatusReply<RunRecord>>> waiting = new LinkedHashSet<>();

  /**
   * How a watch asks whatever hosts it to stop it, with its next message starting it again
   * (sharding's Passivate).
   */
  @FunctionalInterface
  public interface Passivation {
    void passivate(ActorRef<Command> self);

    /** Where nothing would start the entity again (a plain actor), it stays. */
    Passivation NEVER = self -> {};
  }

  /**
   * A watch that stays in memory once created (a plain actor, a test).
   *
   * @param clock what "now" is for schedules and event times
   */
  public static Behavior<Command> create(String entityId, RunPipeline pipeline, Clock clock) {
    return create(entityId, pipeline, clock, Passivation.NEVER);
  }

  /**
   * @param passivation how the watch leaves memory once it is created (see {@link #onCreate})
   */
  public static Behavior<Command> create(
      String entityId, RunPipeline pipeline, Clock clock, Passivation passivation) {
    return Behaviors.setup(
        ctx ->
            new WatchEntity(
                ctx, PersistenceId.of(TYPE_KEY.name(), entityId), pipeline, clock, passivation));
  }

  private WatchEntity(
      ActorContext<Command> context,
      PersistenceId persistenceId,
      RunPipeline pipeline,
      Clock clock,
      Passivation passivation) {
    super(persistenceId, JournalFailures.RESTART_WITH_BACKOFF);
    this.context = context;
    this.pipeline = pipeline;
    this.clock = clock;
    this.passivation = passivation;
    this.retainedEvents =
        (long) Settings.runHistoryRetention(context.getSystem().settings().config())
            * EVENTS_PER_RUN;
    this.meters = new RunMeters(Metrics.get(context.getSystem()).registry());
    this.retry = Settings.deliveryRetry(context.getSystem().settings().config());
    this.failingAfter = Settings.watchFailingAfter(context.getSystem().settings().config());
  }

  @Override
  public Set<String> tagsFor(Event event) {
    return tagsOf(event);
  }

  /**
   * The tags of an event: {@link #SCHEDULE_TAG} for the wake-up index, {@link #RUN_TAG} for the
   * operator's {@code history --follow}.
   */
  public static Set<String> tagsOf(Event event) {
    if (event instanceof Created
        || event instanceof Replaced
        || event instanceof Deleted
        || event instanceof ScheduleAdvanced
        || event instanceof DeliveriesDue) return Set.of(SCHEDULE_TAG);
    if (event instanceof RunRecorded
        || event instanceof RunJudged
        || event instanceof AlertDelivered) return Set.of(RUN_TAG);
    return Set.of();
  }

  /** Events between two snapshots: a recovery replays at most this many. */
  static final int SNAPSHOT_EVERY = 100;

  /**
   * The most events one run writes when its first attempts are its last: its record ({@link
   * RunRecorded} or {@link RunJudged}), the schedule advanced, the wake-up for its deliveries, the
   * deliveries, the schedule written again. Each retry writes two more.
   */
  static final int EVENTS_PER_RUN = 5;

  // Snapshots keep recovery short as run records accumulate; old events go by RUN_HISTORY_RETENTION
  // (deleteOldEvents), not with old snapshots.
  @Override
  public RetentionCriteria retentionCriteria() {
    return RetentionCriteria.snapshotEvery(SNAPSHOT_EVERY, 2);
  }

  /**
   * Once a snapshot at {@code sequenceNr} is written, the events more than {@code retainedEvents}
   * before it go: the journal keeps at least the newest RUN_HISTORY_RETENTION runs, whatever the
   * mix of events, and at most that many events times {@link #EVENTS_PER_RUN} (plus those since the
   * snapshot). The state is in the snapshot; the wake-up projection is long past them. So that the
   * journal always holds the watch's current due time (an index rebuilt from it finds every watch),
   * a scheduled watch first writes it again ({@link ScheduleAdvanced} without {@code firedFor}).
   */
  private ReplyEffect<Event, State> onTrimJournal(State state, TrimJournal cmd) {
    long to = cmd.snapshotAt() - retainedEvents;
    if (to <= 0) return Effect().noReply();
    if (state.nextFireAt() == null) {
      EventDeletes.deleteTo(context, persistenceId(), to);
      return Effect().noReply();
    }
    return persistAll(state, List.of(new ScheduleAdvanced(null, state.nextFireAt())))
        .thenRun(s -> EventDeletes.deleteTo(context, persistenceId(), to))
        .thenNoReply();
  }

  /**
   * Persists {@code events}, followed by what keeps the wake-up index right while deliveries are
   * owed: a {@link DeliveriesDue} when the wake-up time moved or a schedule event would have set
   * the index to the next fire time alone, and the next fire time written again once nothing is
   * owed any more; and the notice to the watch's owner that these events call for, if any ({@link
   * OwnerNotices}), whose deliveries are then attempted.
   */
  private EffectBuilder<Event, State> persistAll(State state, List<Event> events) {
    List<Event> all = new ArrayList<>(events);
    State after = state;
    for (Event e : events) after = apply(after, e);
    Optional<OwnerNoticed> notice =
        OwnerNotices.due(after, failingAfter, clock.instant(), retry.retryFor());
    if (notice.isPresent()) {
      all.add(notice.get());
      after = apply(after, notice.get());
    }
    boolean scheduleWritten = events.stream().anyMatch(e -> tagsOf(e).contains(SCHEDULE_TAG));
    Instant wake = after.wakeAt();
    if (wake != null && (scheduleWritten || !wake.equals(state.wakeAt())))
      all.add(new DeliveriesDue(wake));
    else if (wake == null && state.wakeAt() != null)
      all.add(new ScheduleAdvanced(null, after.nextFireAt()));
    if (notice.isEmpty()) return Effect().persist(all);
    String owed = notice.get().alert().runId();
    return Effect()
        .persist(all)
        .thenRun(
            s ->
                s.outbox().stream()
                    .filter(p -> p.runId().equals(owed))
                    .forEach(this::scheduleAttempt));
  }

  @Override
  public State emptyState() {
    return State.EMPTY;
  }

  /*
   * The handlers dispatch by hand instead of through the handler builders: a builder's cases
   * (objects, lambdas and lists) are built anew for every live entity (docs/performance.md, "A live
   * watch carried its handlers").
   */
  @Override
  public CommandHandlerWithReply<Command, Event, State> commandHandler() {
    return this::onCommand;
  }

  private ReplyEffect<Event, State> onCommand(State state, Command command) {
    if (command instanceof Get get) return onGet(state, get);
    if (command instanceof Recall recall)
      return Effect()
          .reply(
              recall.replyTo(),
              state.exists()
                  ? StatusReply.success(new Recalled(state.watch(), state.memory(clock.instant())))
                  : notFound());
    if (command instanceof Fire fire) return onFire(state, fire);
    if (command instanceof Create create) return onCreate(state, create);
    if (command instanceof Replace replace) return onReplace(state, replace);
    if (command instanceof ResealChannels reseal)
      // channels changed meanwhile are left as they are
      return state.exists() && state.watch().channels().equals(reseal.previous())
          ? persistAll(state, List.of(new ChannelsResealed(reseal.channels())))
              .thenReply(reseal.replyTo(), s -> StatusReply.ack())
          : Effect().reply(reseal.replyTo(), StatusReply.ack());
    if (command instanceof Delete delete) return onDelete(state, delete);
    if (command instanceof Run run) return onRun(state, run);
    if (command instanceof OwesRun owes)
      return Effect().reply(owes.replyTo(), StatusReply.success(waiting.contains(owes.asker())));
    if (command instanceof RunFinished done) return onRunFinished(state, done);
    if (command instanceof Attempted attempted) return onAttempted(state, attempted);
    if (command instanceof RetryDue due) return onRetryDue(state, due);
    if (command instanceof ReleaseDue) return release(state).thenNoReply();
    if (command instanceof DeliveryInterrupted interrupted)
      return onDeliveryInterrupted(state, interrupted);
    if (command instanceof GetRuns getRuns) return onGetRuns(state, getRuns);
    if (command instanceof TrimJournal trim) return onTrimJournal(state, trim);
    if (command instanceof GetRun getRun) return onGetRun(state, getRun);
    if (command instanceof Stop)
      return running || !attempting.isEmpty() ? Effect().stash() : Effect().stop().thenNoReply();
    throw new IllegalArgumentException("unknown watch command " + command.getClass().getName());
  }

  private ReplyEffect<Event, State> onGetRuns(State state, GetRuns cmd) {
    if (!state.everCreated()) return Effect().reply(cmd.replyTo(), notFound());
    List<RunRecord> kept = state.recentRuns();
    int from = 0;
    if (cmd.before() != null) {
      int at = 0;
      while (at < kept.size() && !kept.get(at).runId().equals(cmd.before())) at++;
      if (at == kept.size()) return Effect().reply(cmd.replyTo(), StatusReply.error(NO_SUCH_RUN));
      from = at + 1;
    }
    int to = Math.min(kept.size(), from + cmd.limit());
    // With as many runs in memory as it keeps there, older ones may be in the journal.
    boolean more = to < kept.size() || kept.size() >= RECENT_RUNS;
    return Effect()
        .reply(
            cmd.replyTo(),
            StatusReply.success(new Runs(List.copyOf(kept.subList(from, to)), more)));
  }

  private ReplyEffect<Event, State> onGetRun(State state, GetRun cmd) {
    return Effect()
        .reply(
            cmd.replyTo(),
            !state.exists()
                ? notFound()
                : state.recentRuns().stream()
                    .filter(r -> r.runId().equals(cmd.runId()))
                    .findFirst()
                    .map(StatusReply::success)
                    .orElseGet(() -> StatusReply.error(NO_SUCH_RUN)));
  }

  private ReplyEffect<Event, State> onRun(State state, Run cmd) {
    waiting.add(cmd.replyTo());
    if (running) return Effect().stash();
    if (!state.exists()) {
      waiting.remove(cmd.replyTo());
      return Effect().reply(cmd.replyTo(), notFound());
    }
    startRun(state, cmd.trigger(), null, cmd.replyTo());
    return Effect().noReply();
  }

  private ReplyEffect<Event, State> onFire(State state, Fire fire) {
    if (running)
      return Effect().stash(); // after the run in flight, this fire is judged against the new state
    if (HeldAlerts.release(state.held(), clock.instant(), retry.retryFor()).isPresent())
      return release(state).thenRun(s -> context.getSelf().tell(fire)).thenNoReply();
    if (state.nextFireAt() == null || !state.nextFireAt().equals(fire.due())) {
      context
          .getLog()
          .debug(
              "event=fire-ignored watch={} due={} next={}",
              persistenceId().id(),
              fire.due(),
              state.nextFireAt());
      return Effect().noReply();
    }
    startRun(state, RunRecord.TRIGGER_SCHEDULE, fire.due(), null);
    return Effect().noReply();
  }

  private void startRun(
      State state, String trigger, Instant scheduledFor, ActorRef<StatusReply<RunRecord>> replyTo) {
    running = true;
    Instant startedAt = clock.instant();
    if (scheduledFor != null) meters.started(scheduledFor, startedAt);
    context.pipeToSelf(
        pipeline.run(state.watch(), state.memory(startedAt), trigger, startedAt),
        (outcome, failure) ->
            new RunFinished(outcome, failure, trigger, startedAt, scheduledFor, replyTo));
  }

  private ReplyEffect<Event, State> onRunFinished(State state, RunFinished done) {
    RunPipeline.Outcome outcome =
        done.failure() == null
            ? done.outcome()
            : new RunPipeline.Outcome(
                RunRecords.crashed(done.trigger(), done.startedAt(), done.failure()), List.of());
    if (done.failure() != null) {
      context.getLog().error("event=run-crashed watch={}", persistenceId().id(), done.failure());
      pipeline.runCrashed(state.watch(), outcome.record());
    }
    meters.recorded(outcome.record(), done.scheduledFor(), clock.instant());
    RunPipeline.PendingAlert alert = outcome.alert();
    Instant heldUntil =
        alert == null || state.watch() == null
            ? null
            : state.watch().alertsHeldUntil(clock.instant()).orElse(null);
    List<Event> events = new ArrayList<>();
    events.add(
        alert == null
            ? new RunRecorded(outcome.record(), outcome.newlySeen(), outcome.baselined())
            : heldUntil != null
                ? held(outcome, alert, heldUntil)
                : new RunJudged(
                    outcome.record(),
                    outcome.newlySeen(),
                    alert.channels(),
                    outcome.baselined(),
                    alert.alert(),
                    alert.alert().at().plus(retry.retryFor())));
    // Unless the schedule changed during the run (then the change already set the next fire time).
    if (done.scheduledFor() != null && done.scheduledFor().equals(state.nextFireAt())) {
      events.add(
          new ScheduleAdvanced(
              done.scheduledFor(),
              CronExpressions.nextFireAfter(
                  state.watch().schedule(),
                  state.watch().scheduleZone(),
                  done.scheduledFor(),
                  clock.instant())));
    }
    if (alert != null && heldUntil == null) {
      // Still running: the next run waits until the first attempts are recorded too.
      String runId = outcome.record().runId();
      return persistAll(state, events)
          .thenRun(
              s -> {
                firstAttempts = new FirstAttempts(runId, done.replyTo());
                attemptFirst(s, runId);
              })
          .thenNoReply();
    }
    running = false;
    // persistAll: a schedule advanced while deliveries are owed or alerts held keeps their wake-up
    // the record as written: a held alert's shows its deliveries held
    RunRecord recorded = events.get(0) instanceof RunJudged held ? held.record() : outcome.record();
    var persisted = persistAll(state, events);
    if (heldUntil != null) persisted = persisted.thenRun(s -> scheduleRelease(heldUntil));
    return (done.replyTo() == null
            ? persisted.thenNoReply()
            : persisted
                .thenRun(s -> waiting.remove(done.replyTo()))
                .thenReply(done.replyTo(), s -> StatusReply.success(recorded)))
        .thenUnstashAll();
  }

  // ---- held alerts
  // -------------------------------------------------------------------------------

  /** The run's alert held until {@code until}: its record shows each channel's delivery held. */
  private static RunJudged held(
      RunPipeline.Outcome outcome, RunPipeline.PendingAlert alert, Instant until) {
    RunRecord record =
        outcome
            .record()
            .withDeliveries(
                alert.channels().stream()
                    .map(c -> RunRecord.DeliveryRecord.held(c, until))
                    .toList(),
                -1);
    return new RunJudged(
        record,
        outcome.newlySeen(),
        alert.channels(),
        outcome.baselined(),
        alert.alert(),
        null,
        until);
  }

  /** A timer for the release at {@code at}, while the watch stays in memory. */
  private void scheduleRelease(Instant at) {
    tellSelfAt(at, new ReleaseDue());
  }

  /** Sends {@code command} to this incarnation at {@code at}, at once when it is past. */
  private void tellSelfAt(Instant at, Command command) {
    Duration wait = Duration.between(clock.instant(), at);
    context.scheduleOnce(wait.isNegative() ? Duration.ZERO : wait, context.getSelf(), command);
  }

  /** Releases the held alerts due now into the outbox, and schedules their attempts. */
  private EffectBuilder<Event, State> release(State state) {
    HeldReleased released =
        HeldAlerts.release(state.held(), clock.instant(), retry.retryFor()).orElse(null);
    if (released == null) return Effect().none();
    context
        .getLog()
        .info(
            "event=held-alerts-released watch={} runs={}",
            persistenceId().id(),
            released.runIds().size());
    return persistAll(state, List.of(released))
        .thenRun(s -> released.owed().forEach(this::scheduleAttempt));
  }

  // ---- the outbox
  // --------------------------------------------------------------------------------

  /** What an attempt that ended unexpectedly (a sender broke its promise) records. */
  static final String ATTEMPT_FAILED = "the delivery failed unexpectedly";

  /** The first attempt of each channel of run {@code runId}, at once; one answer for all. */
  private void attemptFirst(State state, String runId) {
    Instant at = clock.instant();
    List<Pending> owed = state.outbox().stream().filter(p -> p.runId().equals(runId)).toList();
    List<CompletableFuture<List<Delivery>>> sends = new ArrayList<>();
    for (Pending p : owed) sends.add(send(p));
    context.pipeToSelf(
        CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new))
            .thenApply(all -> sends.stream().flatMap(f -> f.join().stream()).toList()),
        (results, failure) ->
            new Attempted(
                runId,
                owed.stream().map(Pending::channel).toList(),
                results == null ? List.of() : results,
                at,
                true));
  }

  /** One attempt of one owed delivery; never fails (a failure is an unexpected, retryable one). */
  private CompletableFuture<List<Delivery>> send(Pending p) {
    attempting.add(p.key());
    List<Delivery> broke = List.of(Delivery.retryable(p.channel(), ATTEMPT_FAILED, null));
    try {
      return pipeline
          .deliver(p.channel(), p.alert())
          .toCompletableFuture()
          .exceptionally(e -> broke)
          .thenApply(ds -> ds == null || ds.isEmpty() ? broke : ds);
    } catch (RuntimeException e) {
      return CompletableFuture.completedFuture(broke);
    }
  }

  /** Schedules the attempt of an owed delivery at its due time (at once when it is past). */
  private void scheduleAttempt(Pending p) {
    tellSelfAt(p.dueAt(), new RetryDue(p.runId(), p.channel(), p.dueAt()));
  }

  private ReplyEffect<Event, State> onRetryDue(State state, RetryDue due) {
    Pending p = state.owed(due.runId(), due.channel()).orElse(null);
    if (p == null || !p.dueAt().equals(due.dueAt()) || attempting.contains(p.key()))
      return Effect().noReply(); // delivered, ended, moved on or in flight meanwhile
    Instant now = clock.instant();
    if (now.isAfter(p.retryUntil())) {
      // Out of time before the attempt (the watch was not running when it was due): ended.
      RunRecord.DeliveryRecord before = p.recordSoFar();
      return recordAttempts(
          state,
          p.runId(),
          List.of(before.failedForGood(gaveUp(before.error()))),
          -1,
          List.of(p),
          null);
    }
    context.pipeToSelf(
        send(p),
        (results, failure) ->
            new Attempted(
                p.runId(),
                List.of(p.channel()),
                results == null ? List.of() : results,
                now,
                false));
    return Effect().noReply();
  }

  private ReplyEffect<Event, State> onAttempted(State state, Attempted cmd) {
    List<RunRecord.DeliveryRecord> records = new ArrayList<>();
    List<Pending> ended = new ArrayList<>();
    for (Pending p : state.outbox()) {
      if (!p.runId().equals(cmd.runId())
          || !cmd.channels().contains(p.channel())
          || !attempting.remove(p.key())) continue;
      List<Delivery> mine =
          cmd.results().stream().filter(d -> d.channel().equals(p.channel())).toList();
      List<RunRecord.DeliveryRecord> now = afterAttempt(p, mine, cmd.at());
      records.addAll(now);
      if (now.stream().noneMatch(RunRecord.DeliveryRecord::pending)
          && now.stream().noneMatch(RunRecord.DeliveryRecord::ok)) ended.add(p);
    }
    long totalMs =
        cmd.first()
            ? state.recentRuns().stream()
                .filter(r -> r.runId().equals(cmd.runId()))
                .findFirst()
                .map(r -> Duration.between(r.startedAt(), clock.instant()).toMillis())
                .orElse(-1L)
            : -1;
    FirstAttempts first =
        cmd.first() && firstAttempts != null && firstAttempts.runId().equals(cmd.runId())
            ? firstAttempts
            : null;
    if (records.isEmpty() && first == null) return Effect().noReply();
    return recordAttempts(state, cmd.runId(), records, totalMs, ended, first);
  }

  /**
   * Persists the deliveries of run {@code runId} as they now stand; then tells the operator of each
   * delivery that {@code ended} in failure (once: the event is written once), schedules the
   * retries, and answers the run's asker when these were its first attempts.
   */
  private ReplyEffect<Event, State> recordAttempts(
      State state,
      String runId,
      List<RunRecord.DeliveryRecord> records,
      long totalMs,
      List<Pending> ended,
      FirstAttempts first) {
    var persisted =
        persistAll(state, List.of(new AlertDelivered(OwnerNotices.runOf(runId), records, totalMs)))
            .thenRun(
                s -> {
                  for (Pending p : ended) {
                    String reason =
                        records.stream()
                            .filter(r -> r.channel().equals(p.channel()))
                            .map(RunRecord.DeliveryRecord::error)
                            .findFirst()
                            .orElse(null);
                    context
                        .getLog()
                        .warn("event=delivery-failed watch={} run={}", persistenceId().id(), runId);
                    pipeline.deliveryFailed(p.alert(), p.channel(), reason);
                  }
                  s.outbox().stream()
                      .filter(p -> p.runId().equals(runId) && !attempting.contains(p.key()))
                      .forEach(this::scheduleAttempt);
                  if (first != null) {
                    firstAttempts = null;
                    running = false;
                  }
                });
    if (first == null || first.replyTo() == null) return persisted.thenNoReply().thenUnstashAll();
    return persisted
        .thenRun(s -> waiting.remove(first.replyTo()))
        .thenReply(
            first.replyTo(),
            s ->
                s.recentRuns().stream()
                    .filter(r -> r.runId().equals(runId))
                    .findFirst()
                    .map(StatusReply::success)
                    .orElseGet(() -> StatusReply.error(NO_SUCH_RUN)))
        .thenUnstashAll();
  }

  /**
   * The delivery records after one attempt of {@code p} ended with {@code results}: delivered,
   * failed for good, or pending with its next attempt after a backoff. Only a single delivery is
   * retried; {@code push}'s per-device deliveries are final (a device that got it must not get it
   * twice).
   */
  List<RunRecord.DeliveryRecord> afterAttempt(Pending p, List<Delivery> results, Instant at) {
    if (results.isEmpty()) results = List.of(Delivery.retryable(p.channel(), ATTEMPT_FAILED, null));
    RunRecord.DeliveryRecord before = p.recordSoFar();
    if (results.size() > 1 || results.get(0).device() != null) {
      return results.stream()
          .map(
              d ->
                  new RunRecord.DeliveryRecord(d.channel(), d.device(), false, null)
                      .asNotice(before.notice())
                      .after(
                          new RunRecord.Attempt(at, d.ok(), d.error()),
                          d.ok()
                              ? RunRecord.DeliveryRecord.DELIVERED
                              : RunRecord.DeliveryRecord.FAILED,
                          null))
          .toList();
    }
    Delivery d = results.get(0);
    RunRecord.Attempt attempt = new RunRecord.Attempt(at, d.ok(), d.error());
    if (d.ok()) return List.of(before.after(attempt, RunRecord.DeliveryRecord.DELIVERED, null));
    if (!d.retryable())
      return List.of(before.after(attempt, RunRecord.DeliveryRecord.FAILED, null));
    Instant next = clock.instant().plus(backoff(before.attempts().size() + 1, d.retryAfter()));
    if (next.isAfter(p.retryUntil()))
      return List.of(
          before
              .after(attempt, RunRecord.DeliveryRecord.FAILED, null)
              .failedForGood(gaveUp(d.error())));
    return List.of(before.after(attempt, RunRecord.DeliveryRecord.PENDING, next));
  }

  /** What a delivery that ran out of retries says, after its last attempt's reason. */
  private String gaveUp(String reason) {
    return (reason == null ? "" : reason + "; ")
        + "gave up: not delivered within "
        + Durations.spelled(retry.retryFor())
        + " (DELIVERY_RETRY_FOR)";
  }

  /**
   * The wait before attempt {@code attempts + 1}: what the channel asked (Retry-After), else the
   * first backoff doubled per attempt made, up to the longest, with jitter (half to all of it) so
   * the deliveries failing together do not all come back together.
   */
  Duration backoff(int attempts, Duration retryAfter) {
    if (retryAfter != null)
      return retryAfter.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : retryAfter;
    long first = retry.firstBackoff().toMillis();
    long most = retry.maxBackoff().toMillis();
    long wait = first;
    for (int i = 1; i < attempts && wait < most; i++) wait *= 2;
    wait = Math.min(wait, most);
    return Duration.ofMillis(wait / 2 + ThreadLocalRandom.current().nextLong(wait / 2 + 1));
  }

  private ReplyEffect<Event, State> onDeliveryInterrupted(State state, DeliveryInterrupted cmd) {
    Delivering d = state.delivering();
    if (d == null || !d.runId().equals(cmd.runId())) return Effect().noReply();
    context
        .getLog()
        .error("event=alert-delivery-interrupted watch={} run={}", persistenceId().id(), d.runId());
    if (state.watch() != null) pipeline.alertInterrupted(state.watch(), d.runId(), d.channels());
    long totalMs =
        state.recentRuns().stream()
            .filter(r -> r.runId().equals(d.runId()))
            .mapToLong(RunRecord::durationMs)
            .findFirst()
            .orElse(0);
    return Effect()
        .persist(
            new AlertDelivered(
                d.runId(),
                d.channels().stream()
                    .map(c -> new RunRecord.DeliveryRecord(c, null, false, INTERRUPTED))
                    .toList(),
                totalMs))
        .thenNoReply();
  }

  @Override
  public SignalHandler<State> signalHandler() {
    return newSignalHandlerBuilder()
        .onSignal(
            RecoveryCompleted.instance(),
            state -> {
              if (state.delivering() != null)
                context.getSelf().tell(new DeliveryInterrupted(state.delivering().runId()));
              // what a previous incarnation owed, it owes still: each at its due time
              state.outbox().forEach(this::scheduleAttempt);
              state.held().stream()
                  .map(HeldAlert::releaseAt)
                  .distinct()
                  .forEach(this::scheduleRelease);
            })
        .onSignal(
            SnapshotCompleted.class,
            (state, done) -> context.getSelf().tell(new TrimJournal(done.metadata().sequenceNr())))
        .onSignal(
            DeleteEventsFailed.class,
            (state, failed) ->
                context
                    .getLog()
                    .warn(
                        "event=old-events-not-deleted watch={} to={} problem={}",
                        persistenceId().id(),
                        failed.toSequenceNr(),
                        failed.getFailure().getClass().getSimpleName()))
        .onSignal(PostStop.instance(), state -> answerWaiting())
        .onSignal(PreRestart.instance(), state -> answerWaiting())
        .build();
  }

  /** The incarnation ends: whoever still waits for a run of it is told so. */
  private void answerWaiting() {
    if (waiting.isEmpty()) return;
    context
        .getLog()
        .warn("event=run-interrupted watch={} askers={}", persistenceId().id(), waiting.size());
    waiting.forEach(asker -> asker.tell(StatusReply.error(RUN_INTERRUPTED)));
    waiting.clear();
  }

  /*
   * A new watch leaves memory as soon as it is written: what needs it next is its first due time
   * or its owner opening it, both usually much later, and its next message starts it again from
   * the journal. Kept until the idle timeout, created watches filled the young collections under a
   * burst of creates (docs/performance.md, "created watches passivate at once").
   */
  private ReplyEffect<Event, State> onCreate(State state, Create cmd) {
    if (state.exists()) {
      return Effect()
          .reply(
              cmd.replyTo(),
              StatusReply.error("a watch with id '" + cmd.watch().id() + "' already exists"));
    }
    Instant now = clock.instant();
    return persistAll(state, List.of(new Created(cmd.watch(), now, firstFire(cmd.watch(), now))))
        .thenRun(s -> passivation.passivate(context.getSelf()))
        .thenReply(cmd.replyTo(), s -> StatusReply.success(s.watch()));
  }

  private ReplyEffect<Event, State> onReplace(State state, Replace cmd) {
    if (!state.exists()) return Effect().reply(cmd.replyTo(), notFound());
    Instant now = clock.instant();
    Watch before = state.watch();
    // An unchanged schedule keeps its due time: replacing a watch must not postpone (or repeat) a
    // due run.
    boolean sameSchedule =
        before.enabled()
            && cmd.watch().enabled()
            && before.schedule().equals(cmd.watch().schedule())
            && before.timeZone().equals(cmd.watch().timeZone())
            && state.nextFireAt() != null;
    return persistAll(
            state,
            List.of(
                new Replaced(
                    cmd.watch(),
                    now,
                    sameSchedule ? state.nextFireAt() : firstFire(cmd.watch(), now))))
        .thenReply(cmd.replyTo(), s -> StatusReply.success(s.watch()));
  }

  private ReplyEffect<Event, State> onGet(State state, Get cmd) {
    return Effect()
        .reply(cmd.replyTo(), state.exists() ? StatusReply.success(state.watch()) : notFound());
  }

  private ReplyEffect<Event, State> onDelete(State state, Delete cmd) {
    if (!state.exists()) return Effect().reply(cmd.replyTo(), notFound());
    // deliveries already owed go on: the alert was decided while the watch existed
    return persistAll(state, List.of(new Deleted(clock.instant())))
        .thenReply(cmd.replyTo(), s -> StatusReply.ack());
  }

  /** The first due time after {@code now}; none for a disabled watch. */
  private static Instant firstFire(Watch watch, Instant now) {
    return watch.enabled()
        ? CronExpressions.nextFireAfter(watch.schedule(), watch.scheduleZone(), now, now)
        : null;
  }

  private static <T> StatusReply<T> notFound() {
    return StatusReply.error(WATCH_NOT_FOUND);
  }

  /** One for all watches: applying an event needs nothing of the entity. */
  private static final EventHandler<State, Event> EVENTS = WatchEntity::apply;

  @Override
  public EventHandler<State, Event> eventHandler() {
    return EVENTS;
  }

  private static State apply(State state, Event event) {
    return OwnerNotices.follow(state, applyOwn(state, event), event);
  }

  private static State applyOwn(State state, Event event) {
    if (event instanceof Created e) return state.created(e.watch(), e.at(), e.nextFireAt());
    if (event instanceof Replaced e) return state.withWatch(e.watch(), e.nextFireAt());
    if (event instanceof ChannelsResealed e)
      return state.withWatch(state.watch().withChannels(e.channels()), state.nextFireAt());
    if (event instanceof Deleted) return state.withWatch(null, null);
    if (event instanceof ScheduleAdvanced e) return state.withNextFire(e.nextFireAt());
    if (event instanceof RunRecorded e)
      return state.withRun(e.record(), e.newlySeen(), e.baselined());
    if (event instanceof RunJudged e) {
      State judged = state.withRun(e.record(), e.newlySeen(), e.baselined());
      if (e.alert() == null)
        return judged.withDelivering(new Delivering(e.record().runId(), e.channels()));
      if (e.heldUntil() != null) {
        List<HeldAlert> held = new ArrayList<>(state.held());
        held.add(new HeldAlert(e.record().runId(), e.channels(), e.alert(), e.heldUntil()));
        return judged.withHeld(held);
      }
      List<Pending> owed = new ArrayList<>(state.outbox());
      for (String channel : e.channels())
        owed.add(new Pending(e.record().runId(), channel, e.alert(), e.retryUntil(), null));
      return judged.withOutbox(owed);
    }
    if (event instanceof DeliveriesDue) return state;
    if (event instanceof HeldReleased e) {
      List<Pending> owed = new ArrayList<>(state.outbox());
      owed.addAll(e.owed());
      return state
          .withOutbox(owed)
          .withHeld(state.held().stream().filter(h -> !e.runIds().contains(h.runId())).toList());
    }
    if (event instanceof AlertDelivered e)
      return state.withDelivered(e.runId(), e.deliveries(), e.totalMs());
    if (event instanceof OwnerNoticed e) return OwnerNotices.noticed(state, e);
    throw new IllegalArgumentException("unknown watch event " + event.getClass().getName());
  }
}
