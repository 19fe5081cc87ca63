// Tokens and cost as a person reads them. A cost is in the unit the administrator priced the model
// in; null means a call's model has no price, which is said, never guessed.
const count = new Intl.NumberFormat();
const money = new Intl.NumberFormat(undefined, { maximumFractionDigits: 6 });

export const tokens = (n) => count.format(n || 0);

export const cost = (c) => (c === null || c === undefined ? 'no price set' : money.format(Number(c)));

/** "12,345 tokens (11,000 in, 1,345 out) · cost 0.0123" */
export function spent(u) {
  if (!u) return null;
  return `${tokens(u.inputTokens + u.outputTokens)} tokens (${tokens(u.inputTokens)} in, ${tokens(u.outputTokens)} out) in ${u.calls} ${u.calls === 1 ? 'call' : 'calls'} · cost ${cost(u.cost)}`;
}

const resetDay = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

/** The first moment of the next UTC month, when the month's budgets start again. */
export function budgetReset(now = new Date()) {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

/**
 * The month's budgets of GET /quotas as a person reads them: for each budget set, the use against
 * it. A budget not set is no limit (null or absent); a cost of the month that is null had a call of
 * a model without a price, so its share is not known.
 */
export function budgets(report, now = new Date()) {
  const limits = report?.quotas || {};
  const used = report?.usage || {};
  const resets = resetDay.format(budgetReset(now));
  const rows = [];
  if (limits.modelTokensPerMonth != null) {
    const limit = Number(limits.modelTokensPerMonth);
    const use = Number(used.modelTokensThisMonth || 0);
    rows.push({ key: 'tokens', name: 'Tokens', use, limit, text: `${tokens(use)} of ${tokens(limit)} tokens`, resets });
  }
  if (limits.modelCostPerMonth != null) {
    const limit = Number(limits.modelCostPerMonth);
    const known = used.modelCostThisMonth != null;
    const use = known ? Number(used.modelCostThisMonth) : null;
    rows.push({
      key: 'cost',
      name: 'Cost',
      use,
      limit,
      text: known
        ? `${cost(use)} of ${cost(limit)}`
        : `of ${cost(limit)}: not known, a model used this month has no price`,
      resets,
    });
  }
  return rows.map((b) => ({
    ...b,
    spent: b.use != null && b.use >= b.limit,
    share: b.use == null ? null : Math.min(1, b.use / b.limit),
  }));
}
