package io.periscope.watch;

import com.typesafe.config.Config;
import io.periscope.config.Settings;
import io.periscope.watch.WatchEntity.ScheduleAdvanced;
import io.periscope.watch.WatchEntity.State;
import java.util.Optional;
import org.apache.pekko.persistence.typed.javadsl.RetentionCriteria;

/**
 * A watch's journal retention, as pure functions: snapshots keep recovery short as run records
 * accumulate, and once a snapshot is written the events more than the retained number before it go.
 * The journal keeps at least the newest RUN_HISTORY_RETENTION runs, whatever the mix of events, and
 * at most that many events times {@link #EVENTS_PER_RUN} (plus those since the snapshot). The state
 * is in the snapshot; the wake-up projection is long past them. So that the journal always holds
 * the watch's current due time (an index rebuilt from it finds every watch), a scheduled watch
 * first writes it again ({@link ScheduleAdvanced} without {@code firedFor}).
 */
final class JournalTrim {
  private JournalTrim() {}

  /** Events between two snapshots: a recovery replays at most this many. */
  static final int SNAPSHOT_EVERY = 100;

  /**
   * The most events one run writes when its first attempts are its last: its record ({@link
   * WatchEntity.RunRecorded} or {@link WatchEntity.RunJudged}), the schedule advanced, the wake-up
   * for its deliveries, the deliveries, the schedule written again. Each retry writes two more.
   */
  static final int EVENTS_PER_RUN = 5;

  /**
   * Old events go by RUN_HISTORY_RETENTION ({@link #deleteTo}), not with old snapshots: the two
   * newest snapshots are kept.
   */
  static final RetentionCriteria RETENTION = RetentionCriteria.snapshotEvery(SNAPSHOT_EVERY, 2);

  /**
   * The events kept before the newest snapshot: RUN_HISTORY_RETENTION × {@link #EVENTS_PER_RUN}.
   */
  static long retained(Config config) {
    return (long) Settings.runHistoryRetention(config) * EVENTS_PER_RUN;
  }

  /**
   * The sequence number up to which events go once a snapshot at {@code snapshotAt} is written;
   * nothing goes when it is not positive.
   */
  static long deleteTo(long snapshotAt, long retained) {
    return snapshotAt - retained;
  }

  /** The due time written again before older events go; none for a watch not scheduled. */
  static Optional<ScheduleAdvanced> keepDueTime(State state) {
    return state.nextFireAt() == null
        ? Optional.empty()
        : Optional.of(new ScheduleAdvanced(null, state.nextFireAt()));
  }
}
