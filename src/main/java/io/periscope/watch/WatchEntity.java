package io.periscope.watch;

import io.periscope.entity.JsonSerializable;
import io.periscope.notify.Alert;
import io.periscope.notify.Delivery;
import io.periscope.source.PageSnapshot;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.pattern.StatusReply;

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
public final class WatchEntity {
  private WatchEntity() {}

  public static final EntityTypeKey<Command> TYPE_KEY =
      EntityTypeKey.create(Command.class, "Watch");

  /**
   * How a service reaches this entity: a watch entity, by its owner and the watch's id. Sharded
   * when serving, a local actor for the command line; a service is handed only the lookups of the
   * entities it asks.
   */
  @FunctionalInterface
  public interface Refs {
    RecipientRef<Command> watch(String accountId, String watchId);
  }

  public static String entityId(String accountId, String watchId) {
    return accountId + ":" + watchId;
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
   * hours or a digest ({@link HeldAlerts}), absent from older snapshots. {@code pages}: what the
   * watch last saw of each page source ({@code type:value}), absent from older snapshots.
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
      OwnerNotices.Streak failing,
      Map<String, PageSnapshot> pages,
      List<WatchVersion> versions)
      implements JsonSerializable {
    static final State EMPTY =
        new State(
            null, false, List.of(), List.of(), null, null, Map.of(), null, List.of(), List.of(),
            null, Map.of(), List.of());

    public State {
      seen = SeenKeys.of(seen);
      recentRuns = RecentRuns.of(recentRuns);
      baselines = baselines == null ? Map.of() : Map.copyOf(baselines);
      outbox = outbox == null ? List.of() : List.copyOf(outbox);
      held = held == null ? List.of() : List.copyOf(held);
      failing = failing == null ? OwnerNotices.Streak.NONE : failing;
      pages = pages == null ? Map.of() : Map.copyOf(pages);
      versions = versions == null ? List.of() : List.copyOf(versions);
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
          streak,
          pages,
          versions);
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
      return with(watch, everCreated, nextFireAt, delivering, createdAt, owed, waiting);
    }

    /** This state with these parts as given and the rest as it is. */
    private State with(
        Watch w,
        boolean ever,
        Instant next,
        Delivering d,
        Instant created,
        List<Pending> owed,
        List<HeldAlert> waiting) {
      return new State(
          w,
          ever,
          seen,
          recentRuns,
          next,
          d,
          baselines,
          created,
          owed,
          waiting,
          failing,
          pages,
          versions);
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

    /** What the next run, starting at {@code now}, is told of the past (the seen keys uncopied). */
    RunPipeline.Memory memory(Instant now) {
      boolean firstRun = recentRuns.isEmpty() && baselines.isEmpty();
      return new RunPipeline.Memory(
          ((SeenKeys) seen).asSet(),
          baselines,
          firstRun && createdAt != null ? createdAt : now,
          pages);
    }

    State created(Watch w, Instant at, Instant nextFire) {
      return with(w, true, nextFire, delivering, at, outbox, held);
    }

    public boolean exists() {
      return watch != null;
    }

    /** {@code nextFire} is null for a deleted or disabled watch. */
    State withWatch(Watch w, Instant nextFire) {
      return with(w, everCreated || w != null, nextFire, delivering, createdAt, outbox, held);
    }

    State withNextFire(Instant nextFire) {
      return with(watch, everCreated, nextFire, delivering, createdAt, outbox, held);
    }

    State withDelivering(Delivering d) {
      return with(watch, everCreated, nextFireAt, d, createdAt, outbox, held);
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
          ((RecentRuns) recentRuns).replaced(told, r -> r.withDeliveries(sent, totalMs));
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
              failing,
              pages,
              versions)
          .withAttempts(runId, sent);
    }

    /**
     * {@code pages} (may be null) replaces what the watch saw of those pages; snapshots of pages
     * the watch no longer has are dropped.
     */
    State withRun(
        RunRecord record,
        List<String> newlySeen,
        Map<String, Instant> baselined,
        Map<String, PageSnapshot> seenPages) {
      // A run that marks nothing seen (most find nothing new) leaves the list as it is.
      List<String> bounded = ((SeenKeys) seen).with(newlySeen, SEEN_BOUND);
      // the judged items stay in the journal only (RunPages#whole)
      List<RunRecord> runs = ((RecentRuns) recentRuns).with(record.lean(), RECENT_RUNS);
      // most runs baseline no new source and see no page: the maps stay as they are
      Map<String, Instant> sources = baselines;
      if (baselined != null && !baselines.keySet().containsAll(baselined.keySet())) {
        sources = new HashMap<>(baselines);
        baselined.forEach(sources::putIfAbsent);
      }
      Map<String, PageSnapshot> snapshots = pages;
      if ((seenPages != null && !seenPages.isEmpty())
          || (watch != null
              && !pages.isEmpty()
              && !watch.pageSourceKeys().containsAll(pages.keySet()))) {
        snapshots = new HashMap<>(pages);
        if (seenPages != null) snapshots.putAll(seenPages);
        if (watch != null) snapshots.keySet().retainAll(watch.pageSourceKeys());
      }
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
          failing,
          snapshots,
          versions);
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

  /** Refused when the watch exists; {@code restoring}: the version a restore makes current. */
  public record Create(
      Watch watch, Actor actor, Integer restoring, ActorRef<StatusReply<Watch>> replyTo)
      implements Command {}

  /** Refused when the watch does not exist; the rest as {@link Create}. */
  public record Replace(
      Watch watch, Actor actor, Integer restoring, ActorRef<StatusReply<Watch>> replyTo)
      implements Command {}

  /** The definition's kept versions, oldest first; refused for a watch that never existed. */
  public record GetVersions(ActorRef<StatusReply<WatchVersions.Kept>> replyTo) implements Command {}

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

  /** Refused when the watch does not exist; {@code actor} as {@link Create}. */
  public record Delete(Actor actor, ActorRef<StatusReply<Done>> replyTo) implements Command {}

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
   * Owes the owner a notice of their account on {@code channels} of this watch's (a spent budget of
   * the month): owed in the outbox under {@code noticeId}, which says what it tells, and delivered
   * like an alert, retried until DELIVERY_RETRY_FOR; acknowledged once owed. A channel already
   * owing that notice is not owed it twice. Refused (watch not found) for a watch that does not
   * exist.
   */
  public record OweAccountNotice(
      String noticeId, List<String> channels, String summary, ActorRef<StatusReply<Done>> replyTo)
      implements Command {
    public OweAccountNotice {
      channels = List.copyOf(channels);
    }
  }

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

  /** {@code nextFireAt}: null when disabled; {@code actor}, {@code restoredFrom}: WatchVersion. */
  public record Created(
      Watch watch, Instant at, Instant nextFireAt, Actor actor, Integer restoredFrom)
      implements Event {}

  public record Replaced(
      Watch watch, Instant at, Instant nextFireAt, Actor actor, Integer restoredFrom)
      implements Event {}

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

  public record Deleted(Instant at, Actor actor) implements Event {}

  /**
   * A run's record together with the item keys it marks seen, the sources that took their baseline
   * in it ({@code baselined} is absent from events written before baselines) and what it saw of its
   * page sources ({@code pages}, by {@code type:value}; absent from events written before them).
   */
  public record RunRecorded(
      RunRecord record,
      List<String> newlySeen,
      Map<String, Instant> baselined,
      Map<String, PageSnapshot> pages)
      implements Event {
    public RunRecorded(RunRecord record, List<String> newlySeen, Map<String, Instant> baselined) {
      this(record, newlySeen, baselined, null);
    }
  }

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
      Instant heldUntil,
      Map<String, PageSnapshot> pages)
      implements Event {
    public RunJudged(
        RunRecord record,
        List<String> newlySeen,
        List<String> channels,
        Map<String, Instant> baselined) {
      this(record, newlySeen, channels, baselined, null, null, null, null);
    }

    public RunJudged(
        RunRecord record,
        List<String> newlySeen,
        List<String> channels,
        Map<String, Instant> baselined,
        Alert alert,
        Instant retryUntil) {
      this(record, newlySeen, channels, baselined, alert, retryUntil, null, null);
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
   * RunRecord.DeliveryRecord#NOTICE_RECOVERED}), as run {@code runId} called for, or of their
   * account ({@link RunRecord.DeliveryRecord#NOTICE_ACCOUNT}, {@code runId} the notice's id): each
   * delivery of {@code alert} is owed until {@code retryUntil}, like an alert's ({@link
   * OwnerNotices}).
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

  // ---- the entity
  // --------------------------------------------------------------------------------

  /**
   * A watch that stays in memory once created (a plain actor, a test).
   *
   * @param clock what "now" is for schedules and event times
   */
  public static Behavior<Command> create(String entityId, RunPipeline pipeline, Clock clock) {
    return create(entityId, pipeline, clock, Passivation.NEVER);
  }

  /**
   * @param passivation how the watch leaves memory once it is created ({@link WatchBehavior})
   */
  public static Behavior<Command> create(
      String entityId, RunPipeline pipeline, Clock clock, Passivation passivation) {
    return Behaviors.setup(ctx -> new WatchBehavior(ctx, entityId, pipeline, clock, passivation));
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
}
