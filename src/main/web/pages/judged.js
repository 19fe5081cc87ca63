// What a run put before the model, read whole from the service (or answered by a dry run): the items
// as sent, the cited ones marked, and the items set aside with the reason.
import { h } from 'preact';
import { enc, get } from '../lib/api.js';
import { when } from '../lib/time.js';
import { ErrorMessage, ExternalLink, Loading, useLoad } from '../lib/ui.js';

const REASONS = {
  'old-news': 'old news, seen without being judged',
  'past-bound': 'beyond the items one run judges; the next run judges it',
};

function Item({ item }) {
  return h(
    'li',
    { class: item.cited ? 'judged cited' : 'judged' },
    h(
      'p',
      null,
      item.cited ? [h('span', { class: 'badge cited' }, 'Cited'), ' '] : null,
      item.url ? h(ExternalLink, { url: item.url }, item.title || item.url) : item.title || item.key,
    ),
    h('p', { class: 'meta' }, [item.source, item.trust ? `trust: ${item.trust}` : null, item.published ? `published ${when(item.published)}` : 'undated'].filter(Boolean).join(' · ')),
    item.excerpt ? h('blockquote', { class: 'pre' }, item.excerpt) : null,
  );
}

/** What a run or a dry run put before the model ({items, setAside}), the cited items marked. */
export function JudgedList({ judged }) {
  return [
    judged.items.length
      ? [
          h('p', { class: 'meta' }, `${judged.items.length} ${judged.items.length === 1 ? 'item was' : 'items were'} put before the model; ${judged.items.filter((i) => i.cited).length} cited.`),
          h('ol', { class: 'judged-list' }, judged.items.map((i) => h(Item, { key: i.key, item: i }))),
        ]
      : h('p', { class: 'meta' }, 'No item was put before the model.'),
    judged.setAside.length
      ? [h('h5', null, 'Set aside'), h('ul', null, judged.setAside.map((s) => h('li', { key: s.key, class: 'meta' }, `${s.key}: ${REASONS[s.reason] || s.reason}`)))]
      : null,
  ];
}

export function WhatWasJudged({ watchId, runId }) {
  const run = useLoad(() => get(`/watches/${enc(watchId)}/runs/${enc(runId)}`), [watchId, runId]);
  if (run.error) return h(ErrorMessage, { error: run.error });
  if (!run.data) return h(Loading, { what: 'Loading what was judged…' });
  const judged = run.data.judged;
  return h(
    'section',
    { class: 'judged-items', 'aria-label': 'What was judged' },
    h('h4', null, 'What was judged'),
    !judged ? h('p', { class: 'meta' }, 'This run was recorded before the items it judged were kept.') : h(JudgedList, { judged }),
  );
}
