// A watch's run history at a glance: its state in one line, then one row per run (outcome, time with
// its zone, one line of summary or reason), filtered by outcome and words, paged by the service's
// cursor; a row opens the run's details, and feedback sits behind a button there.
import { h } from 'preact';
import { useState } from 'preact/hooks';
import { del, enc, get, put } from './api.js';
import { nextTimes } from './cron.js';
import { OUTCOMES, Outcome, TIERS } from './outcomes.js';
import { duration, whenZoned } from './time.js';
import {
  Button,
  Empty,
  ErrorMessage,
  ExternalLink,
  Facts,
  issuesAt,
  Loading,
  Select,
  TextArea,
  TextField,
  useAction,
  useLoad,
} from './ui.js';
import { spent } from './usage.js';
import { WhatWasJudged } from './judged.js';

const PAGE = 20;

const tierName = (t) => (TIERS.find(([v]) => v === t) || [t, t])[1];

const plural = (n, one) => `${n} ${n === 1 ? one : `${one}s`}`;

const FEEDBACK = [
  ['useful', 'Useful'],
  ['wrong', 'Wrong'],
  ['missed', 'Missed something'],
];

const feedbackWord = (kind) => FEEDBACK.find(([k]) => k === kind)?.[1] || kind;

/** The first page of a watch's runs, newest first (the service keeps them after a delete). */
export const loadRuns = (watchId) => get(`/watches/${enc(watchId)}/runs?limit=${PAGE}`);

/** What a run comes to in one line: its summary, else why it failed, else what its outcome means. */
export function runLine(run) {
  const first = (text) =>
    (text || '')
      .split('\n')
      .find((l) => l.trim())
      ?.trim();
  return (
    first(run.summary) ||
    first(run.error) ||
    (run.sourceErrors?.length ? `${run.sourceErrors[0].source}: ${run.sourceErrors[0].message}` : null) ||
    { 'nothing-new': 'No new items since the last run.', 'no-match': 'New items, none meeting the condition.' }[
      run.outcome
    ] ||
    ''
  );
}

/** The watch in one line: enabled or paused, next run, last alert, failing streak. */
export function StateLine({ watch, runs }) {
  const next = watch.enabled ? nextTimes(watch.schedule, 1, new Date(), watch.timeZone || 'UTC')[0] : null;
  const lastAlert = runs?.find((r) => r.outcome === 'alert' || r.outcome === 'weak-alert');
  let failing = 0;
  while (runs && failing < runs.length && runs[failing].outcome === 'error') failing++;
  const parts = [
    watch.enabled ? 'Enabled' : 'Paused',
    next ? `next run ${whenZoned(next)}` : null,
    runs
      ? lastAlert
        ? `last alert ${whenZoned(lastAlert.startedAt)}`
        : runs.length
          ? `no alert in the last ${plural(runs.length, 'run')}`
          : 'not run yet'
      : null,
    failing ? `failing: the last ${plural(failing, 'run')} ended in an error` : null,
  ].filter(Boolean);
  return h('p', { class: `state-line${failing ? ' failing' : ''}`, role: 'status' }, parts.join(' · '));
}

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
      : h(
          'p',
          { class: 'meta' },
          run.data.judged
            ? 'No item was put before the model.'
            : 'This run was recorded before the items it judged were kept.',
        ),
  );
}

const MARKS = [
  ['', 'Not marked'],
  ['relevant', 'Relevant'],
  ['irrelevant', 'Irrelevant'],
];

/** What the person said about a run, in one sentence. */
function said(given) {
  const counted = ['relevant', 'irrelevant']
    .map((label) => [label, (given.items || []).filter((i) => i.label === label).length])
    .filter(([, n]) => n)
    .map(([label, n]) => `${plural(n, 'item')} ${label}`);
  const marked = counted.length ? ` · ${counted.join(', ')}` : '';
  const missed = given.missedItem ? ` · should have alerted on ${given.missedItem.title || given.missedItem.url}` : '';
  return `You said: ${feedbackWord(given.kind)}${given.note ? ` — “${given.note}”` : ''} (${whenZoned(given.at)})${marked}${missed}`;
}

/** The feedback form, filled from what was saved (it is made only once that is known). */
function FeedbackForm({ watchId, run, given, onChanged, onClose }) {
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
    const missed =
      kind === 'missed' && missedUrl.trim()
        ? { url: missedUrl.trim() }
        : given?.missedItem?.key && kind === 'missed'
          ? { key: given.missedItem.key }
          : null;
    return { kind, note: note.trim() || null, ...(items.length ? { items } : {}), ...(missed ? { missed } : {}) };
  };
  const submit = () => save.act(async () => onChanged(await put(path, body())));
  const withdraw = () =>
    save.act(async () => {
      await del(path);
      onChanged(null);
    });
  const group = `feedback-${run.runId}`;
  return h(
    'form',
    { class: 'form feedback', onSubmit: (e) => (e.preventDefault(), submit()) },
    h(
      'fieldset',
      null,
      h('legend', null, 'Your feedback on this run'),
      h(
        'div',
        { class: 'row', role: 'radiogroup', 'aria-label': 'Feedback' },
        FEEDBACK.map(([value, text]) =>
          h(
            'label',
            { class: 'switch' },
            h('input', { type: 'radio', name: group, value, checked: kind === value, onChange: () => setKind(value) }),
            h('span', null, text),
          ),
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
        h(Button, { onClick: onClose }, 'Cancel'),
      ),
    ),
  );
}

/** Feedback behind a button: what was said, and the form only when asked for. */
function Feedback({ watchId, run, given, onChanged, readOnly }) {
  const [open, setOpen] = useState(false);
  return h(
    'section',
    { class: 'run-feedback', 'aria-label': 'Feedback' },
    given ? h('p', { class: 'meta', role: 'status' }, said(given)) : null,
    open
      ? h(FeedbackForm, {
          watchId,
          run,
          given,
          onClose: () => setOpen(false),
          onChanged: (f) => {
            setOpen(false);
            onChanged(f);
          },
        })
      : readOnly
        ? null
        : h(Button, { onClick: () => setOpen(true) }, given ? 'Change feedback' : 'Give feedback'),
  );
}

/** A delivery the outbox still retries is not failed: say when it is tried next. */
function deliveryState(d) {
  if (d.ok) return 'delivered';
  if (d.state === 'held')
    return `held — goes out ${d.nextAttemptAt ? whenZoned(d.nextAttemptAt) : 'later'} (quiet hours or digest)`;
  const why = d.error || 'unknown error';
  if (d.state === 'pending')
    return `retrying — ${why}${d.nextAttemptAt ? `; next attempt ${whenZoned(d.nextAttemptAt)}` : ''}`;
  return `failed — ${why}`;
}

/** A run opened: its verdict, evidence, what it judged, deliveries and feedback. */
function RunDetails({ watchId, run, given, onFeedback, readOnly }) {
  return h(
    'div',
    { class: 'details', id: `run-${run.runId}` },
    h('h4', null, 'Verdict'),
    h(
      'p',
      null,
      h(Outcome, { outcome: run.outcome }),
      ` ${run.trigger} run · took ${duration(run.durationMs)}${run.confidence !== undefined ? ` · confidence ${Math.round(run.confidence * 100)}%` : ''}`,
    ),
    run.summary ? h('p', { class: 'pre' }, run.summary) : null,
    run.error ? h('p', { class: 'error' }, run.error) : null,
    run.reasoning ? [h('h4', null, 'The model’s reasoning'), h('p', { class: 'pre' }, run.reasoning)] : null,
    run.evidence?.length
      ? [
          h(
            'h4',
            null,
            'Evidence',
            run.trustTier ? ` (confirmed by a source you marked ${tierName(run.trustTier)})` : '',
          ),
          h(
            'ul',
            { class: 'evidence' },
            run.evidence.map((e) =>
              h(
                'li',
                null,
                h(ExternalLink, { url: e.url }, e.title || e.url),
                e.quote ? h('blockquote', { class: 'pre' }, e.quote) : null,
              ),
            ),
          ),
        ]
      : null,
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
    run.sourceErrors?.length
      ? [
          h('h4', null, 'Source errors'),
          h(
            'ul',
            null,
            run.sourceErrors.map((s) =>
              h('li', null, `${s.source}: ${s.message}${s.httpStatus ? ` (HTTP ${s.httpStatus})` : ''}`),
            ),
          ),
        ]
      : null,
    run.deliveries?.length
      ? [
          h('h4', null, 'Deliveries'),
          h(
            'ul',
            { class: 'deliveries' },
            run.deliveries.map((d) =>
              h(
                'li',
                null,
                `${d.notice ? `notice (${d.notice}) to ` : ''}${d.channel}${d.device ? ` (${d.device})` : ''}: ${deliveryState(d)}`,
              ),
            ),
          ),
        ]
      : null,
    h(Feedback, { watchId, run, given, onChanged: onFeedback, readOnly }),
  );
}

function RunRow({ watchId, run, given, onFeedback, readOnly }) {
  const [open, setOpen] = useState(false);
  return h(
    'li',
    { class: `run${open ? ' open' : ''}` },
    h(
      'button',
      {
        type: 'button',
        class: 'run-line',
        'aria-expanded': String(open),
        'aria-controls': open ? `run-${run.runId}` : undefined,
        onClick: () => setOpen(!open),
      },
      h(Outcome, { outcome: run.outcome }),
      h('time', { dateTime: run.startedAt }, whenZoned(run.startedAt)),
      h('span', { class: 'line' }, runLine(run)),
      given ? h('span', { class: 'rated' }, `Feedback: ${feedbackWord(given.kind)}`) : null,
    ),
    open ? h(RunDetails, { watchId, run, given, onFeedback, readOnly }) : null,
  );
}

const matches = (run, words) =>
  !words ||
  [
    run.summary,
    run.error,
    run.reasoning,
    ...(run.evidence || []).map((e) => `${e.title || ''} ${e.url || ''}`),
    ...(run.sourceErrors || []).map((s) => `${s.source} ${s.message}`),
  ]
    .filter(Boolean)
    .some((t) => t.toLowerCase().includes(words));

/**
 * The rows of a watch's runs from {@code first} (the first page) on, "Older runs" reading the next
 * page at the service's cursor; {@code readOnly} for a deleted watch, whose feedback stays as given.
 */
export function RunHistory({ watchId, first, onFeedback, readOnly = false }) {
  const given = useLoad(() => get(`/watches/${enc(watchId)}/feedback`).catch(() => ({ feedback: [] })), [watchId]);
  const [older, setOlder] = useState([]);
  const [cursor, setCursor] = useState(first.next);
  const [outcome, setOutcome] = useState('');
  const [query, setQuery] = useState('');
  const [changed, setChanged] = useState({});
  const more = useAction();
  if (!first.runs.length)
    return h(Empty, null, h('p', null, 'This watch has not run yet. Run it now, or wait for its schedule.'));
  // the form of a run is filled from its saved feedback, so the rows wait for it
  if (!given.data) return h(Loading, { what: 'Loading the run history…' });
  const runs = [...first.runs, ...older];
  const feedbackOf = (runId) =>
    runId in changed ? changed[runId] : given.data.feedback.find((f) => f.runId === runId);
  const words = query.trim().toLowerCase();
  const shown = runs.filter((r) => (!outcome || r.outcome === outcome) && matches(r, words));
  const loadOlder = () =>
    more.act(async () => {
      const page = await get(`/watches/${enc(watchId)}/runs?limit=${PAGE}&before=${enc(cursor)}`);
      setOlder((o) => [...o, ...page.runs]);
      setCursor(page.runs.length ? page.next : undefined);
    });
  return h(
    'div',
    { class: 'history' },
    h(
      'div',
      { class: 'filters', role: 'search', 'aria-label': 'Filter the runs' },
      h(Select, {
        label: 'Outcome',
        value: outcome,
        onChange: setOutcome,
        options: [['', 'Every outcome'], ...Object.entries(OUTCOMES)],
      }),
      h(TextField, { label: 'Search runs', type: 'search', value: query, onInput: setQuery }),
    ),
    h(
      'p',
      { class: 'meta', 'aria-live': 'polite' },
      outcome || words
        ? `${plural(shown.length, 'run')} of the ${runs.length} shown match.`
        : `The newest ${plural(runs.length, 'run')}.`,
    ),
    shown.length
      ? h(
          'ul',
          { class: 'runs' },
          shown.map((run) =>
            h(RunRow, {
              key: run.runId,
              watchId,
              run,
              readOnly,
              given: feedbackOf(run.runId),
              onFeedback: (f) => {
                setChanged((c) => ({ ...c, [run.runId]: f }));
                onFeedback?.();
              },
            }),
          ),
        )
      : h(Empty, null, h('p', null, 'No run matches these filters.')),
    h(ErrorMessage, { error: more.error }),
    cursor ? h(Button, { onClick: loadOlder, busy: more.busy }, 'Older runs') : null,
  );
}
