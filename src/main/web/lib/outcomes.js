// Words, icons and marks for what runs concluded. Their colours are app.css's, one per outcome.
import { h } from 'preact';
import { Icon } from './icons.js';

export const OUTCOMES = {
  'nothing-new': 'Nothing new',
  'no-match': 'No match',
  'weak-alert': 'Weak alert',
  alert: 'Alert',
  error: 'Error',
};

const ICONS = { alert: 'bell', 'weak-alert': 'bell', error: 'warning', 'nothing-new': 'dash', 'no-match': 'no-match' };

export const Outcome = ({ outcome }) =>
  h('span', { class: `badge outcome-${outcome}` }, h(Icon, { name: ICONS[outcome] || 'dash' }), OUTCOMES[outcome] || outcome);

/**
 * A watch's recent runs as small marks, oldest first, the newest at the right: an alert a tall
 * coloured mark, an error a tall red one, nothing new a low grey one. Named in words for those who
 * do not see it.
 */
const COUNTED = ['alert', 'weak-alert', 'error'];

export function Strip({ runs }) {
  if (!runs?.length) return null;
  const oldestFirst = [...runs].reverse();
  const counts = {};
  runs.forEach((r) => (counts[r.outcome] = (counts[r.outcome] || 0) + 1));
  const said = Object.entries(counts)
    .map(([o, n]) => `${n} ${(OUTCOMES[o] || o).toLowerCase()}${n > 1 && COUNTED.includes(o) ? 's' : ''}`)
    .join(', ');
  return h(
    'span',
    { class: 'strip', role: 'img', 'aria-label': `The last ${runs.length === 1 ? 'run' : `${runs.length} runs`}: ${said}` },
    oldestFirst.map((r, i) => h('span', { key: r.runId || i, class: `mark outcome-${r.outcome}`, title: OUTCOMES[r.outcome] || r.outcome })),
  );
}

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
