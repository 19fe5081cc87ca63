package io.periscope.entity;

import java.time.Duration;
import org.apache.pekko.actor.typed.BackoffSupervisorStrategy;
import org.apache.pekko.actor.typed.SupervisorStrategy;

/**
 * How every event-sourced entity meets a journal that fails (a write or a recovery the database
 * refused).
 */
public final class JournalFailures {
  private JournalFailures() {}

  /**
   * Restart with backoff: the entity stops on a failed write (its state is what the journal holds),
   * and comes back once the database answers again, without hammering it meanwhile.
   */
  public static final BackoffSupervisorStrategy RESTART_WITH_BACKOFF =
      SupervisorStrategy.restartWithBackoff(Duration.ofMillis(200), Duration.ofSeconds(5), 0.1);
}
