package io.periscope.llm;

import static org.junit.Assert.assertEquals;

import io.periscope.persistence.JournalSchema;
import io.periscope.testing.EntityTestKits;
import io.periscope.testing.NeedsPostgres;
import io.periscope.testing.TestJournals;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import java.util.UUID;
import org.apache.pekko.Done;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJunitResource;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import org.apache.pekko.persistence.testkit.javadsl.PersistenceTestKit;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * An account's model usage: summed per day and watch through the journal's binding, a year and a
 * month of days kept, and what one node wrote read by the next on PostgreSQL.
 */
public class UsageEntityTest {
  @ClassRule
  public static final TestKitJunitResource testKit =
      new TestKitJunitResource(EntityTestKits.config());

  private static final LocalDate DAY = LocalDate.parse("2026-11-27");
  private static final ModelUsage PRICED =
      new ModelUsage(1, 1000, 200, 100, new BigDecimal("0.0011"));
  private static final ModelUsage UNPRICED = new ModelUsage(1, 300, 0, 60, null);

  @Test
  public void callsAreSummedPerDayAndWatchAndOldDaysAreForgotten() {
    var entity =
        EventSourcedBehaviorTestKit
            .<UsageEntity.Command, UsageEntity.Event, UsageEntity.State>create(
                testKit.system(),
                UsageEntity.create("alice"),
                EventSourcedBehaviorTestKit.enabledSerializationSettings()
                    .withVerifyEquality(true));
    entity.<StatusReply<Done>>runCommand(r -> new UsageEntity.Record(DAY, "acme", PRICED, r));
    entity.<StatusReply<Done>>runCommand(r -> new UsageEntity.Record(DAY, "acme", PRICED, r));
    entity.<StatusReply<Done>>runCommand(r -> new UsageEntity.Record(DAY, null, UNPRICED, r));
    entity.<StatusReply<Done>>runCommand(
        r -> new UsageEntity.Record(DAY.minusDays(1), "acme", UNPRICED, r));
    List<UsageEntity.Spent> spent =
        entity
            .<StatusReply<UsageEntity.Period>>runCommand(r -> new UsageEntity.Get(DAY, DAY, r))
            .reply()
            .getValue()
            .spent();
    assertEquals(2, spent.size());
    UsageEntity.Spent acme =
        spent.stream().filter(s -> s.watchId().equals("acme")).findFirst().orElseThrow();
    assertEquals(new ModelUsage(2, 2000, 400, 200, new BigDecimal("0.0022")), acme.usage());
    UsageEntity.Spent drafts =
        spent.stream()
            .filter(s -> s.watchId().equals(UsageEntity.NO_WATCH))
            .findFirst()
            .orElseThrow();
    assertEquals(UNPRICED, drafts.usage());

    // a call KEPT_DAYS later: every earlier day is past what is kept
    entity.<StatusReply<Done>>runCommand(
        r -> new UsageEntity.Record(DAY.plusDays(UsageEntity.KEPT_DAYS), "acme", PRICED, r));
    assertEquals(
        List.of(DAY.toString(), DAY.plusDays(UsageEntity.KEPT_DAYS).toString()).subList(1, 2),
        List.copyOf(entity.getState().days().keySet()));
  }

  /** How long a busy machine may take to start the entity. */
  private static final java.time.Duration PATIENCE = java.time.Duration.ofSeconds(30);

  /** Calls written together: one event per day and watch, summed as the state sums them. */
  @Test
  public void callsWrittenTogetherAreOneEventPerDayAndWatch() {
    List<UsageEntity.Record> records = new java.util.ArrayList<>();
    for (int i = 0; i < 5; i++) records.add(new UsageEntity.Record(DAY, "acme", PRICED, null));
    records.add(new UsageEntity.Record(DAY, null, UNPRICED, null));
    records.add(new UsageEntity.Record(DAY.minusDays(1), "acme", UNPRICED, null));
    assertEquals(
        List.of(
            new UsageEntity.Used(DAY, "acme", sum(5, PRICED)),
            new UsageEntity.Used(DAY, null, UNPRICED),
            new UsageEntity.Used(DAY.minusDays(1), "acme", UNPRICED)),
        UsageEntity.summed(records));
  }

  private static ModelUsage sum(int times, ModelUsage usage) {
    ModelUsage total = ModelUsage.NONE;
    for (int i = 0; i < times; i++) total = total.plus(usage);
    return total;
  }

  /**
   * Calls recorded while the entity writes others are written by its next write; each is answered
   * once written, and one not written yet is read all the same.
   */
  @Test
  public void callsRecordedAtOnceAreAnsweredOnceWrittenAndReadBeforeThat() {
    String account = "burst-" + UUID.randomUUID();
    ActorRef<UsageEntity.Command> entity = testKit.spawn(UsageEntity.create(account));
    TestProbe<StatusReply<Done>> done = testKit.createTestProbe();
    for (int i = 0; i < 5; i++)
      entity.tell(new UsageEntity.Record(DAY, "acme", PRICED, done.ref()));
    TestProbe<StatusReply<UsageEntity.Period>> read = testKit.createTestProbe();
    entity.tell(new UsageEntity.Get(DAY, DAY, read.ref()));
    assertEquals(
        List.of(new UsageEntity.Spent(DAY, "acme", sum(5, PRICED))),
        read.receiveMessage(PATIENCE).getValue().spent());
    for (StatusReply<Done> reply : done.receiveSeveralMessages(5, PATIENCE))
      assertEquals(Done.done(), reply.getValue());
    List<Object> written =
        PersistenceTestKit.create(testKit.system())
            .persistedInStorage(UsageEntity.TYPE_KEY.name() + "|" + account);
    assertEquals(
        sum(5, PRICED),
        written.stream()
            .map(e -> ((UsageEntity.Used) e).usage())
            .reduce(ModelUsage.NONE, ModelUsage::plus));
  }

  @Test
  public void aSnapshotIsACopyLaterCallsLeaveAsTakenAndRecoveryReadsTheSame() {
    var entity =
        EventSourcedBehaviorTestKit
            .<UsageEntity.Command, UsageEntity.Event, UsageEntity.State>create(
                testKit.system(),
                UsageEntity.create("bob"),
                EventSourcedBehaviorTestKit.enabledSerializationSettings()
                    .withVerifyEquality(true));
    // past a snapshot (every Snapshots.EVERY events), over several days and watches
    for (int i = 0; i < 250; i++) {
      int call = i;
      entity.<StatusReply<Done>>runCommand(
          r -> new UsageEntity.Record(DAY.plusDays(call % 3), "w" + call % 7, PRICED, r));
    }
    UsageEntity.State state = entity.getState();
    UsageEntity.State snapshot = (UsageEntity.State) UsageEntity.SNAPSHOTS.toJournal(state);
    assertEquals(state, snapshot);
    entity.<StatusReply<Done>>runCommand(r -> new UsageEntity.Record(DAY, "w0", PRICED, r));
    entity.<StatusReply<Done>>runCommand(r -> new UsageEntity.Record(DAY, "new", PRICED, r));
    assertEquals(7, snapshot.days().get(DAY.toString()).size());
    assertEquals(8, entity.getState().days().get(DAY.toString()).size());

    UsageEntity.State before = entity.getState().copy();
    entity.restart();
    assertEquals(before, entity.getState());
    assertEquals(
        new ModelUsage(13, 13_000, 2_600, 1_300, new BigDecimal("0.0143")),
        entity.getState().days().get(DAY.toString()).get("w0"));
  }

  @Test
  @Category(NeedsPostgres.class)
  public void whatOneNodeKeptTheNextReadsOnPostgres() throws Exception {
    String account = "usage-" + UUID.randomUUID();
    ActorTestKit first = ActorTestKit.create("first", TestJournals.postgres());
    try {
      JournalSchema.create(first.system());
      ActorRef<UsageEntity.Command> entity = first.spawn(UsageEntity.create(account));
      TestProbe<StatusReply<Done>> done = first.createTestProbe();
      entity.tell(new UsageEntity.Record(DAY, "acme", PRICED, done.ref()));
      entity.tell(new UsageEntity.Record(DAY, "acme", UNPRICED, done.ref()));
      done.receiveSeveralMessages(2, PATIENCE);
    } finally {
      first.shutdownTestKit();
    }
    ActorTestKit second = ActorTestKit.create("second", TestJournals.postgres());
    try {
      ActorRef<UsageEntity.Command> entity = second.spawn(UsageEntity.create(account));
      TestProbe<StatusReply<UsageEntity.Period>> read = second.createTestProbe();
      entity.tell(new UsageEntity.Get(DAY.minusDays(30), DAY, read.ref()));
      List<UsageEntity.Spent> spent = read.receiveMessage(PATIENCE).getValue().spent();
      assertEquals(
          List.of(new UsageEntity.Spent(DAY, "acme", new ModelUsage(2, 1300, 200, 160, null))),
          spent);
    } finally {
      second.shutdownTestKit();
    }
  }
}
