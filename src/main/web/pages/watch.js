// One watch: what it is, run it now, test it (a dry run), explain it, what its model calls took this
// month, how often it is right, and its run history with what each run judged and feedback on each
// run, which may mark the judged items.
import { h } from 'preact';
import { useState } from 'preact/hooks';
import { api, del, enc, get, post, put } from '../lib/api.js';
import { describe } from '../lib/cron.js';
import { Outcome, TIERS } from '../lib/outcomes.js';
import { Link } from '../lib/router.js';
import { duration, when } from '../lib/time.js';
import { Button, Empty, ErrorMessage, ExternalLink, issuesAt, Loading, Page, Select, TextArea, TextField, useAction, useLoad } from '../lib/ui.js';
import { qualitySentence } from '../lib/quality.js';
import { spent } from '../lib/usage.js';
import { DryRunReport } from './dryrun.js';
import { WhatWasJudged } from './judged.js';

const tierName = (t) => (TIERS.find(([v]) => v === t) || [t, t])[1];

const FEEDBACK = [
  ['useful', 'Useful'],
  ['wrong', 'Wrong'],
  ['missed', 'Missed something'],
];

function Facts({ items }) {
  return h(
    'dl',
    { class: 'facts' },
    items.filter(([, v]) => v !== null && v !== undefined && v !== '').flatMap(([k, v]) => [h('dt', null, k), h('dd', null, v)]),
  );
}

const MARKS = [
  ['', 'Not marked'],
  ['relevant', 'Relevant'],
  ['irrelevant', 'Irrelevant'],
];

/** The run's judged items, each with a relevant/irrelevant mark; read whole when asked for. */
function ItemMarks({ watchId, runId, marks, onMark, error }) {
  const run = useLoad(() => get(`/watches/${enc(watchId)}/runs/${enc(runId)}`), [watchId, runId]);
  if (run.error) return h(ErrorMessage, { error: run.error });
  if (!run.data) return h(Loading, { what: 'Loading the judged items…' });
  const items = run.data.judged?.items || [];
  return h(
    'section',
    { class: 'item-marks', 'aria-label': 'Mark the judged items' },
    h('h5', null, 'Which of the judged items matter to this watch?'),
    items.length
      ? items.map((item) =>
          h(Select, {
            key: item.key,
            label: item.title || item.url || item.key,
            value: marks[item.key] || '',
            onChange: (label) => onMark(item.key, label),
            options: MARKS,
            issues: item.key in marks ? issuesAt(error, ['items', Object.keys(marks).indexOf(item.key)]) : [],
          }),
        )
      : h('p', { class: 'meta' }, run.data.judged ? 'No item was put before the model.' : 'This run was recorded before the items it judged were kept.'),
  );
}

function FeedbackForm({ watchId, run, given, onChanged }) {
  const [kind, setKind] = useState(given?.kind || '');
  const [note, setNote] = useState(given?.note || '');
  const [marks, setMarks] = useState(() => Object.fromEntries((given?.items || []).map((i) => [i.key, i.label])));
  const [missedUrl, setMissedUrl] = useState(given?.missedItem?.key ? '' : given?.missedItem?.url || '');
  const [marking, setMarking] = useState(false);
  const save = useAction();
  const path = `/watches/${enc(watchId)}/runs/${enc(run.runId)}/feedback`;
  const mark = (key, label) =>
    setMarks((m) => {
      const next = { ...m };
      if (label) next[key] = label;
      else delete next[key];
      return next;
    });
  const body = () => {
    const items = Object.entries(marks).map(([key, label]) => ({ key, label }));
    const missed = kind === 'missed' && missedUrl.trim() ? { url: missedUrl.trim() } : given?.missedItem?.key && kind === 'missed' ? { key: given.missedItem.key } : null;
    return { kind, note: note.trim() || null, ...(items.length ? { items } : {}), ...(missed ? { missed } : {}) };
  };
  const submit = () => save.act(async () => onChanged(await put(path, body())));
  const withdraw = () =>
    save.act(async () => {
      await del(path);
      setKind('');
      setNote('');
      setMarks({});
      setMissedUrl('');
      onChanged(null);
    });
  const group = `feedback-${run.runId}`;
  const counted = ['relevant', 'irrelevant']
    .map((label) => [label, (given?.items || []).filter((i) => i.label === label).length])
    .filter(([, n]) => n)
    .map(([label, n]) => `${plural(n, 'item')} ${label}`);
  const marked = counted.length ? ` · ${counted.join(', ')}` : '';
  const missedSaid = given?.missedItem ? ` · should have alerted on ${given.missedItem.title || given.missedItem.url}` : '';
  return h(
    'form',
    { class: 'form', onSubmit: (e) => (e.preventDefault(), submit()) },
    h(
      'fieldset',
      null,
      h('legend', null, 'Your feedback on this run'),
      given ? h('p', { class: 'meta', role: 'status' }, `You said: ${FEEDBACK.find(([k]) => k === given.kind)?.[1] || given.kind}${given.note ? ` — “${given.note}”` : ''} (${when(given.at)})${marked}${missedSaid}`) : null,
      h(
        'div',
        { class: 'row', role: 'radiogroup', 'aria-label': 'Feedback' },
        FEEDBACK.map(([value, text]) =>
          h('label', { class: 'switch' }, h('input', { type: 'radio', name: group, value, checked: kind === value, onChange: () => setKind(value) }), h('span', null, text)),
        ),
      ),
      h(TextArea, { label: 'Note (optional)', value: note, onInput: setNote, rows: 2 }),
      kind === 'missed'
        ? h(TextField, {
            label: 'What should have alerted (a URL, optional)',
            type: 'url',
            value: missedUrl,
            onInput: setMissedUrl,
            issues: issuesAt(save.error, ['missed']),
          })
        : null,
      marking
        ? h(ItemMarks, { watchId, runId: run.runId, marks, onMark: mark, error: save.error })
        : h(Button, { onClick: () => setMarking(true) }, 'Mark the judged items'),
      h(ErrorMessage, { error: save.error }),
      h(
        'div',
        { class: 'actions' },
        h(Button, { type: 'submit', kind: 'primary', busy: save.busy, disabled: !kind }, 'Save feedback'),
        given ? h(Button, { onClick: withdraw, busy: save.busy }, 'Withdraw feedback') : null,
      ),
    ),
  );
}

const plural = (n, one) => `${n} ${n === 1 ? one : `${one}s`}`;

function RunView({ watchId, run, feedback, onFeedback }) {
  const [open, setOpen] = useState(false);
  return h(
    'li',
    { class: 'card run' },
    h(
      'div',
      { class: 'row' },
      h('div', { class: 'watch-main' }, h('h3', null, h(Outcome, { outcome: run.outcome }), ` ${when(run.startedAt)}`), h('p', { class: 'meta' }, `${run.trigger} run · took ${duration(run.durationMs)}${run.confidence !== undefined ? ` · confidence ${Math.round(run.confidence * 100)}%` : ''}`)),
      h(Button, { onClick: () => setOpen(!open), 'aria-expanded': String(open) }, open ? 'Hide details' : 'Show details'),
    ),
    run.summary ? h('p', { class: 'pre' }, run.summary) : null,
    run.error ? h('p', { class: 'error' }, run.error) : null,
    run.evidence.length
      ? h(
          'div',
          null,
          h('h4', null, 'Evidence', run.trustTier ? ` (corroborated by a source of trust: ${tierName(run.trustTier)})` : ''),
          h(
            'ul',
            null,
            run.evidence.map((e) =>
              h(
                'li',
                null,
                h(ExternalLink, { url: e.url }, e.title || e.url),
                e.quote ? h('blockquote', { class: 'pre' }, e.quote) : null,
              ),
            ),
          ),
        )
      : null,
    open
      ? h(
          'div',
          { class: 'details' },
          run.reasoning ? [h('h4', null, 'The model’s reasoning'), h('p', { class: 'pre' }, run.reasoning)] : null,
          h(Facts, {
            items: [
              ['Items collected', run.collected],
              ['New items', run.fresh],
              ['Pages attempted', run.collection?.attempted],
              ['Pages extracted', run.collection?.extracted],
              ['Pages failed', run.collection?.failed],
              ['Models', run.models?.join(', ')],
              ['Model use', spent(run.usage)],
              ['Alerts sent', run.notificationsSent],
            ],
          }),
          h(WhatWasJudged, { watchId, runId: run.runId }),
          run.sourceErrors.length
            ? [h('h4', null, 'Source errors'), h('ul', null, run.sourceErrors.map((s) => h('li', null, `${s.source}: ${s.message}${s.httpStatus ? ` (HTTP ${s.httpStatus})` : ''}`)))]
            : null,
          run.deliveries.length
            ? [
                h('h4', null, 'Deliveries'),
                h('ul', null, run.deliveries.map((d) => h('li', null, `${d.notice ? `notice (${d.notice}) to ` : ''}${d.channel}${d.device ? ` (${d.device})` : ''}: ${deliveryState(d)}`))),
              ]
            : null,
        )
      : null,
    h(FeedbackForm, { watchId, run, given: feedback, onChanged: onFeedback }),
  );
}

function History({ watchId, fresh, onFeedback }) {
  const runs = useLoad(() => get(`/watches/${enc(watchId)}/runs?limit=20`), [watchId, fresh]);
  const given = useLoad(() => get(`/watches/${enc(watchId)}/feedback`), [watchId]);
  const [changed, setChanged] = useState({});
  if (runs.error) return h(ErrorMessage, { error: runs.error });
  if (!runs.data) return h(Loading, { what: 'Loading the run history…' });
  if (!runs.data.runs.length) return h(Empty, null, h('p', null, 'This watch has not run yet. Run it now, or wait for its schedule.'));
  const feedbackOf = (runId) => (runId in changed ? changed[runId] : given.data?.feedback.find((f) => f.runId === runId));
  return h(
    'ul',
    { class: 'plain' },
    runs.data.runs.map((run) =>
      h(RunView, {
        key: run.runId,
        watchId,
        run,
        feedback: feedbackOf(run.runId),
        onFeedback: (f) => {
          setChanged((c) => ({ ...c, [run.runId]: f }));
          onFeedback();
        },
      }),
    ),
  );
}

export function WatchPage({ id }) {
  const watch = useLoad(() => get(`/watches/${enc(id)}`), [id]);
  const [fresh, setFresh] = useState(0);
  const usage = useLoad(() => get(`/watches/${enc(id)}/usage?days=1`), [id, fresh]);
  const [rated, setRated] = useState(0);
  const quality = useLoad(() => get(`/watches/${enc(id)}/quality`), [id, fresh, rated]);
  const run = useAction();
  const explain = useAction();
  const trial = useAction();
  const [explanation, setExplanation] = useState(null);
  const [tested, setTested] = useState(null);
  if (watch.error) return h(Page, { title: 'Watch' }, h(ErrorMessage, { error: watch.error }), h(Link, { href: '/' }, 'Back to your watches'));
  if (!watch.data) return h(Page, { title: 'Watch' }, h(Loading));
  const w = watch.data;
  const runNow = () =>
    run.act(async () => {
      await api('POST', `/watches/${enc(id)}/run`);
      setFresh((n) => n + 1);
    });
  const testNow = () =>
    trial.act(async () => {
      setTested(null);
      setTested(await post(`/watches/${enc(id)}/test`, {}));
      setFresh((n) => n + 1);
    });
  const explainIt = () =>
    explain.act(async () => {
      setExplanation((await post(`/watches/${enc(id)}/explain`)).explanation);
      setFresh((n) => n + 1);
    });
  return h(
    Page,
    {
      title: w.name,
      actions: [
        h(Button, { kind: 'primary', busy: run.busy, onClick: runNow }, run.busy ? 'Running…' : 'Run now'),
        h(Button, { busy: trial.busy, onClick: testNow }, trial.busy ? 'Testing…' : 'Test now'),
        h(Link, { href: `/watch/${enc(id)}/edit`, class: 'button secondary' }, 'Edit'),
        h(Link, { href: `/watch/${enc(id)}/revise`, class: 'button secondary' }, 'Revise with AI'),
        h(Link, { href: `/watch/${enc(id)}/versions`, class: 'button secondary' }, 'Versions'),
        h(Button, { busy: explain.busy, onClick: explainIt }, 'Explain'),
      ],
    },
    run.busy ? h('p', { class: 'progress', role: 'status' }, 'Running: collecting the sources and asking the model…') : null,
    trial.busy ? h('p', { class: 'progress', role: 'status' }, 'Testing: collecting the sources and asking the model, sending nothing…') : null,
    h(ErrorMessage, { error: run.error || explain.error || trial.error }),
    tested ? h(DryRunReport, { answer: tested }) : null,
    explanation ? h('div', { class: 'report', role: 'status' }, h('h2', null, 'In plain words'), h('p', { class: 'pre' }, explanation)) : null,
    h(Facts, {
      items: [
        ['Condition', w.condition],
        ['Schedule', `${describe(w.schedule, w.timeZone)} (${w.schedule})${w.enabled ? '' : ', paused'}`],
        ['Sources', h('ul', null, w.sources.map((s) => h('li', null, `${s.type === 'rss' ? 'Feed' : 'Search'}: ${s.value}${s.trust ? ` · ${tierName(s.trust)}` : ''}${s.recencyDays ? ` · last ${s.recencyDays} days` : ''}`)))],
        ['Threshold', `${Math.round(w.threshold * 100)}%${w.weakThreshold !== undefined ? `, weak alerts from ${Math.round(w.weakThreshold * 100)}%` : ''}`],
        ['Channels', w.channels.length ? w.channels.join(', ') : 'none'],
        ['Quiet hours', w.quietHours ? `${w.quietHours.start}–${w.quietHours.end}${w.quietHours.timeZone ? ` (${w.quietHours.timeZone})` : ''}` : 'none'],
        ['Digest', w.digest ?? 'none'],
        ['Model use this month', usage.data ? spent(usage.data.month) : null],
        ['How often it is right', quality.data ? qualitySentence(quality.data) : null],
      ],
    }),
    h('h2', null, 'Runs'),
    h(History, { watchId: id, fresh, onFeedback: () => setRated((n) => n + 1) }),
  );
}

export function Statistics() {
  const stats = useLoad(() => get('/collection/stats'));
  const s = stats.data;
  return h(
    Page,
    { title: 'Collection statistics' },
    h(ErrorMessage, { error: stats.error }),
    !s
      ? stats.error ? null : h(Loading)
      : h(
          'div',
          null,
          h('p', null, `Your runs since ${when(s.since)}.`),
          h(Facts, {
            items: [
              ['Runs', s.runs],
              ['Items collected', s.collected],
              ['New items', s.fresh],
              ['Pages attempted', s.attempted],
              ['Pages extracted', s.extracted],
              ['Pages failed', s.failed],
              ['Extraction rate', s.extractionRate !== undefined ? `${Math.round(s.extractionRate * 100)}%` : 'no page yet'],
            ],
          }),
        ),
  );
}

/** A delivery the outbox still retries is not failed: say when it is tried next. */
function deliveryState(d) {
  if (d.ok) return 'delivered';
  if (d.state === 'held') return `held — goes out ${d.nextAttemptAt ? when(d.nextAttemptAt) : 'later'} (quiet hours or digest)`;
  const why = d.error || 'unknown error';
  if (d.state === 'pending') {
    return `retrying — ${why}${d.nextAttemptAt ? `; next attempt ${when(d.nextAttemptAt)}` : ''}`;
  }
  return `failed — ${why}`;
}
