// Words for what runs concluded.
import { h } from 'preact';

export const OUTCOMES = {
  'nothing-new': 'Nothing new',
  'no-match': 'No match',
  'weak-alert': 'Weak alert',
  alert: 'Alert',
  error: 'Error',
};

export const Outcome = ({ outcome }) =>
  h('span', { class: `badge outcome-${outcome}` }, OUTCOMES[outcome] || outcome);

/**
 * Why a run failed, in one line: the reason of its first failed source (the root of "every source
 * failed"), else the run's own error; empty for a run that did not fail.
 */
export function failureReason(run) {
  if (run?.outcome !== 'error') return '';
  const failed = run.sourceErrors || [];
  if (failed.length) return `${failed[0].message}${failed.length > 1 ? ` (and ${failed.length - 1} more source${failed.length > 2 ? 's' : ''})` : ''}`;
  return run.error || '';
}

export const TIERS = [
  ['official', 'Official'],
  ['established', 'Established'],
  ['community', 'Community'],
  ['unverified', 'Unverified'],
];
