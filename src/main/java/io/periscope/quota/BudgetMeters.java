package io.periscope.quota;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Accounts that spent a monthly model budget, by the budget that refused them first ({@code tokens}
 * or {@code cost}): one count per account and UTC month, when its owner is told. Both series exist
 * from the start, so that a rule reading them finds them before anything is spent; the label is the
 * budget, never the account.
 */
final class BudgetMeters {
  private final Counter tokens;
  private final Counter cost;

  BudgetMeters(MeterRegistry registry) {
    this.tokens = counter(registry, "tokens");
    this.cost = counter(registry, "cost");
  }

  private static Counter counter(MeterRegistry registry, String budget) {
    return Counter.builder("periscope.model.budgets.spent")
        .description("Accounts that spent a monthly model budget, once per account and UTC month")
        .tag("budget", budget)
        .register(registry);
  }

  /** An account spent its budget of {@code quota}, for the first time this month. */
  void spent(String quota) {
    (quota.equals(Quotas.MODEL_COST_PER_MONTH) ? cost : tokens).increment();
  }
}
