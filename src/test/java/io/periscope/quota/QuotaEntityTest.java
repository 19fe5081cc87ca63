package io.periscope.quota;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.periscope.testing.EntityTestKits;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.List;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJunitResource;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import org.apache.pekko.persistence.testkit.javadsl.PersistenceTestKit;
import org.junit.Before;
import org.junit.ClassRule;
import org.junit.Test;

/** An account's quota entity: overrides, and model calls counted per UTC day against a limit. */
public class QuotaEntityTest {
  @ClassRule
  public static final TestKitJunitResource testKit =
      new TestKitJunitResource(EntityTestKits.config());

  private static final LocalDate MONDAY = LocalDate.parse("2026-11-23");
  private static final LocalDate TUESDAY = MONDAY.plusDays(1);

  private EventSourcedBehaviorTestKit<QuotaEntity.Command, QuotaEntity.Event, QuotaEntity.State>
      entity;

  @Before
  public void setUp() {
    entity =
        EventSourcedBehaviorTestKit.create(
            testKit.system(),
            QuotaEntity.create("alice"),
            EventSourcedBehaviorTestKit.enabledSerializationSettings().withVerifyEquality(true));
  }

  private StatusReply<Integer> use(LocalDate day, Integer limit) {
    return entity
        .<StatusReply<Integer>>runCommand(r -> new QuotaEntity.UseModelCall(day, limit, r))
        .reply();
  }

  private QuotaEntity.Usage usage(LocalDate day) {
    return entity
        .<StatusReply<QuotaEntity.Usage>>runCommand(r -> new QuotaEntity.Get(day, r))
        .reply()
        .getValue();
  }

  @Test
  public void modelCallsAreCountedPerDayUpToTheLimitAndSurviveARestart() {
    assertEquals(Integer.valueOf(1), use(MONDAY, 2).getValue());
    assertEquals(Integer.valueOf(2), use(MONDAY, 2).getValue());
    StatusReply<Integer> third = use(MONDAY, 2);
    assertTrue(third.isError());
    assertEquals(QuotaEntity.USED_UP, third.getError().getMessage());
    entity.restart();
    assertEquals(2, usage(MONDAY).modelCallsToday());
    assertTrue("still used up after a restart", use(MONDAY, 2).isError());
    assertEquals("a new day starts from nothing", 0, usage(TUESDAY).modelCallsToday());
    assertEquals(Integer.valueOf(1), use(TUESDAY, 2).getValue());
    assertEquals(
        "no limit: counted all the same", Integer.valueOf(2), use(TUESDAY, null).getValue());
    assertEquals(Integer.valueOf(3), use(TUESDAY, null).getValue());
  }

  /**
   * Calls asked for at once are counted one by one against the limit (those not written yet
   * included), each answered once written, and the count survives a restart.
   */
  @Test
  public void callsAskedForAtOnceAreCountedInTurnAndWrittenTogether() {
    java.time.Duration patience = java.time.Duration.ofSeconds(30);
    String account = "burst-" + java.util.UUID.randomUUID();
    var pid = QuotaEntity.TYPE_KEY.name() + "|" + account;
    var quota = testKit.spawn(QuotaEntity.create(account));
    var answers = testKit.<StatusReply<Integer>>createTestProbe();
    for (int i = 0; i < 4; i++) quota.tell(new QuotaEntity.UseModelCall(MONDAY, 3, answers.ref()));
    List<StatusReply<Integer>> replies = answers.receiveSeveralMessages(4, patience);
    assertEquals(
        List.of(QuotaEntity.USED_UP),
        replies.stream().filter(StatusReply::isError).map(r -> r.getError().getMessage()).toList());
    assertEquals(
        List.of(1, 2, 3),
        replies.stream()
            .filter(StatusReply::isSuccess)
            .map(StatusReply::getValue)
            .sorted()
            .toList());
    assertEquals(3, PersistenceTestKit.create(testKit.system()).persistedInStorage(pid).size());
    testKit.stop(quota);
    var again = testKit.spawn(QuotaEntity.create(account));
    var usage = testKit.<StatusReply<QuotaEntity.Usage>>createTestProbe();
    again.tell(new QuotaEntity.Get(MONDAY, usage.ref()));
    assertEquals(3, usage.receiveMessage(patience).getValue().modelCallsToday());
  }

  @Test
  public void overridesAreKeptAndReplaced() {
    Quotas some = new Quotas(3, null, 60, null, null, null);
    QuotaEntity.Usage set =
        entity
            .<StatusReply<QuotaEntity.Usage>>runCommand(
                r -> new QuotaEntity.SetOverrides(some, "root", MONDAY, r))
            .reply()
            .getValue();
    assertEquals(some, set.overrides());
    entity.restart();
    assertEquals(some, usage(MONDAY).overrides());
    assertEquals(
        new Quotas(3, 20, 60, null, null, null),
        usage(MONDAY).overrides().over(new Quotas(10, 20, 1, null, null, null)));
    entity.<StatusReply<QuotaEntity.Usage>>runCommand(
        r -> new QuotaEntity.SetOverrides(Quotas.NONE, "root", MONDAY, r));
    assertEquals(Quotas.NONE, usage(MONDAY).overrides());
  }

  private boolean tell(YearMonth month) {
    return entity
        .<StatusReply<Boolean>>runCommand(r -> new QuotaEntity.TellBudgetSpent(month, r))
        .reply()
        .getValue();
  }

  @Test
  public void aSpentBudgetIsToldOnceAMonthAcrossARestart() {
    YearMonth november = YearMonth.from(MONDAY);
    assertTrue("the first refusal of the month tells", tell(november));
    assertTrue("once", !tell(november));
    entity.restart();
    assertTrue("still once after a restart", !tell(november));
    assertTrue("a new month tells again", tell(november.plusMonths(1)));
  }
}
