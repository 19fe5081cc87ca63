package io.periscope.entity;

import org.apache.pekko.persistence.typed.javadsl.RetentionCriteria;

/**
 * How long-lived entities (owners, e-mail addresses, trust rules, feedback, devices, the model
 * configuration, the VAPID key, the key pools) keep their recovery short: a snapshot every {@link
 * #EVERY} events, the two newest kept. Events are never deleted on a snapshot: the JDBC journal
 * drops events after a gap (docs/operations.md), and operators replay the journal.
 */
public final class Snapshots {
  public static final int EVERY = 100;
  public static final RetentionCriteria RETENTION = RetentionCriteria.snapshotEvery(EVERY, 2);

  private Snapshots() {}
}
