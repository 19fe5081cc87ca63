package io.periscope.persistence;

import io.periscope.testing.NeedsPostgres;
import io.periscope.testing.TestJournals;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.persistence.CapabilityFlag;
import org.apache.pekko.persistence.japi.journal.JavaJournalSpec;
import org.junit.experimental.categories.Category;
import org.junit.runner.RunWith;
import org.scalatestplus.junit.JUnitRunner;

/**
 * Pekko's journal compatibility kit against the PostgreSQL journal as the service configures it,
 * with {@link PostgresJournalDao} writing: writes and replays, ranges, deletes, highest sequence
 * numbers, rejected and failed writes, atomic multi-event writes and metadata.
 */
@RunWith(JUnitRunner.class)
@Category(NeedsPostgres.class)
public class PostgresJournalTckTest extends JavaJournalSpec {
  public PostgresJournalTckTest() {
    super(TestJournals.postgres());
  }

  @Override
  public void beforeAll() {
    JournalSchema.create(Adapter.toTyped(system()));
    super.beforeAll();
  }

  @Override
  public CapabilityFlag supportsMetadata() {
    return CapabilityFlag.on();
  }
}
