package io.periscope.notify;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.After;
import org.junit.Test;

/** The operator's alert budget: gathered per account, limited per account and in all, summed up. */
public class AlertBudgetTest {
  record Sent(AdminAlerts.Kind kind, Optional<String> subject, String detail) {}

  private final List<Sent> sent = new ArrayList<>();
  private final List<AlertBudget> budgets = new ArrayList<>();

  @After
  public void stop() {
    budgets.forEach(AlertBudget::close);
  }

  private AlertBudget budget(Duration gather, int perAccount, int perInstance) {
    AlertBudget budget =
        new AlertBudget(
            new AlertBudget.Settings(gather, perAccount, perInstance),
            (kind, subject, detail) -> {
              synchronized (sent) {
                sent.add(new Sent(kind, subject, detail));
              }
            });
    budgets.add(budget);
    return budget;
  }

  private List<Sent> awaitSent(int n) throws InterruptedException {
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (System.nanoTime() < deadline) {
      synchronized (sent) {
        if (sent.size() >= n) break;
      }
      Thread.sleep(20);
    }
    Thread.sleep(400); // and nothing more after it
    synchronized (sent) {
      return List.copyOf(sent);
    }
  }

  @Test
  public void aStormOfOneAccountBecomesOneAlertNamingTheCount() throws Exception {
    AlertBudget budget = budget(Duration.ofMillis(200), 5, 30);
    for (int i = 1; i <= 25; i++)
      budget.watchAlert(
          i <= 20 ? AdminAlerts.Kind.ALL_SOURCES_FAILED : AdminAlerts.Kind.WATCH_ERRORED,
          "bob",
          "w" + i,
          "1 of 1 sources failed");
    List<Sent> out = awaitSent(1);
    assertEquals(out.toString(), 1, out.size());
    assertEquals(AdminAlerts.Kind.WATCHES_FAILING, out.get(0).kind());
    assertTrue(
        out.get(0).detail(),
        out.get(0)
            .detail()
            .startsWith(
                "bob: 25 watches failing (25 alerts: all-sources-failed 20, watch-errored 5);"
                    + " the latest, bob/w25: "));
  }

  @Test
  public void aLoneAlertGoesAsItIs() throws Exception {
    budget(Duration.ofMillis(100), 5, 30)
        .watchAlert(AdminAlerts.Kind.VERDICT_UNAVAILABLE, "carol", "news", "the model failed");
    assertEquals(
        List.of(
            new Sent(
                AdminAlerts.Kind.VERDICT_UNAVAILABLE,
                Optional.of("carol/news"),
                "the model failed")),
        awaitSent(1));
  }

  @Test
  public void pastTheAccountsOrTheInstancesBudgetAlertsAreHeldForTheHourlySummary()
      throws Exception {
    AlertBudget budget = budget(Duration.ofMillis(50), 1, 2);
    budget.watchAlert(AdminAlerts.Kind.WATCH_ERRORED, "bob", "a", "failed");
    awaitSent(1);
    budget.watchAlert(AdminAlerts.Kind.WATCH_ERRORED, "bob", "b", "failed"); // bob's hour is used
    budget.watchAlert(AdminAlerts.Kind.WATCH_ERRORED, "carol", "c", "failed"); // the last in all
    awaitSent(2);
    budget.watchAlert(AdminAlerts.Kind.WATCH_ERRORED, "dave", "d", "failed");
    budget.serviceAlert(AdminAlerts.Kind.SCHEDULER_TICK_CRASHED, "a tick failed");
    List<Sent> out = awaitSent(3);
    assertEquals(out.toString(), 2, out.size());
    assertEquals(Optional.of("bob/a"), out.get(0).subject());
    assertEquals(Optional.of("carol/c"), out.get(1).subject());

    budget.summarize();
    out = awaitSent(3);
    assertEquals(out.toString(), 3, out.size());
    assertEquals(AdminAlerts.Kind.ALERTS_HELD, out.get(2).kind());
    assertEquals(
        "3 alert(s) held in the last hour past the operator's alert budget: bob 1 (1 watch),"
            + " dave 1 (1 watch), the service 1",
        out.get(2).detail());

    // a new hour: room again
    budget.watchAlert(AdminAlerts.Kind.WATCH_ERRORED, "bob", "e", "failed");
    assertEquals(Optional.of("bob/e"), awaitSent(4).get(3).subject());
  }
}
