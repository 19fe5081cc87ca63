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
