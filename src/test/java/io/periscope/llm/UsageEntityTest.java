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
    var adapter = ((UsageEntity) UsageEntity.create("bob")).snapshotAdapter();
    UsageEntity.State snapshot = (UsageEntity.State) adapter.toJournal(state);
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
      done.receiveSeveralMessages(2);
    } finally {
      first.shutdownTestKit();
    }
    ActorTestKit second = ActorTestKit.create("second", TestJournals.postgres());
    try {
      ActorRef<UsageEntity.Command> entity = second.spawn(UsageEntity.create(account));
      TestProbe<StatusReply<UsageEntity.Period>> read = second.createTestProbe();
      entity.tell(new UsageEntity.Get(DAY.minusDays(30), DAY, read.ref()));
      List<UsageEntity.Spent> spent = read.receiveMessage().getValue().spent();
      assertEquals(
          List.of(new UsageEntity.Spent(DAY, "acme", new ModelUsage(2, 1300, 200, 160, null))),
          spent);
    } finally {
      second.shutdownTestKit();
    }
  }
}
