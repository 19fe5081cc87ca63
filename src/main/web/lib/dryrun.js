// What a dry run concluded: the outcome a run now would have had, its verdict and evidence, what it
// judged and what that took. Nothing of it was sent or recorded, and the report says so.
import { h } from 'preact';
import { Outcome } from './outcomes.js';
import { spent } from './usage.js';
import { JudgedList } from './judged.js';

const WOULD = {
  'nothing-new': 'Nothing new to judge: a run now would not ask the model.',
  'no-match': 'A run now would not alert.',
  'weak-alert': 'A run now would send a weak, unconfirmed alert.',
  alert: 'A run now would alert.',
  error: 'A run now would fail.',
};

/** {@code answer}: the service's {result, judged, usage}. */
export function DryRunReport({ answer }) {
  const r = answer.result;
  return h(
    'section',
    { class: 'report dry-run', role: 'status', 'aria-label': 'Test result' },
    h('h2', null, 'Test result ', h(Outcome, { outcome: r.outcome })),
    h('p', null, WOULD[r.outcome] || r.outcome, ' Nothing was sent, marked seen or recorded.'),
    r.summary ? h('p', { class: 'pre' }, r.summary) : null,
    r.confidence !== undefined
      ? h(
          'p',
          { class: 'meta' },
          `Confidence ${Math.round(r.confidence * 100)}%${r.decision ? ` · ${r.decision}` : ''}`,
        )
      : null,
    r.error ? h('p', { class: 'error' }, r.error) : null,
    r.evidence.length
      ? [
          h('h4', null, 'Evidence'),
          h(
            'ul',
            null,
            r.evidence.map((e) =>
              h(
                'li',
                { key: e.url },
                h('a', { href: e.url, rel: 'noopener noreferrer', target: '_blank' }, e.title || e.url),
                e.quote ? h('blockquote', { class: 'pre' }, e.quote) : null,
              ),
            ),
          ),
        ]
      : null,
    r.sourceErrors.length
      ? [
          h('h4', null, 'Source errors'),
          h(
            'ul',
            null,
            r.sourceErrors.map((s) => h('li', null, `${s.source}: ${s.message}`)),
          ),
        ]
      : null,
    h('h4', null, 'What was judged'),
    h(JudgedList, { judged: answer.judged }),
    h('p', { class: 'meta' }, `Model use: ${spent(answer.usage)}`),
  );
}
