// AI assistance: describe → draft → refine (as many rounds as wanted) → preview searches and check
// domains → save as a watch; and revise a watch as a field-by-field diff applied only on approval.
import { h } from 'preact';
import { useState } from 'preact/hooks';
import { enc, get, post, put } from '../lib/api.js';
import { describe } from '../lib/cron.js';
import { TIERS } from '../lib/outcomes.js';
import { Link, navigate } from '../lib/router.js';
import { when } from '../lib/time.js';
import { Button, ErrorMessage, ExternalLink, Loading, Page, Table, TextArea, useAction, useLoad } from '../lib/ui.js';
import { sourceKind, sourceNamed, sourceWhat } from '../lib/sources.js';
import { WarningList } from '../lib/warnings.js';
import { Backtest } from '../lib/backtest.js';
import { WatchForm, editable } from '../lib/watchform.js';

const tierName = (t) => (TIERS.find(([v]) => v === t) || [t, t])[1];

/** "Preview results" of a drafted search; on an instance without a usable search key, why not. */
function Preview({ source, searchReady }) {
  const preview = useAction();
  const [candidates, setCandidates] = useState(null);
  const run = () =>
    preview.act(async () => {
      const hints = source.recencyDays ? { recencyDays: source.recencyDays } : undefined;
      setCandidates((await post('/watches/draft/preview', { value: source.value, hints })).candidates);
    });
  if (!searchReady)
    return h(
      'p',
      { class: 'meta no-preview' },
      'No preview: this instance has no usable search key, so this search cannot run. An administrator adds one under Keys.',
    );
  return h(
    'div',
    null,
    h(
      Button,
      { busy: preview.busy, onClick: run, 'aria-label': `Preview results of the search ${source.value}` },
      'Preview results',
    ),
    h(ErrorMessage, { error: preview.error }),
    candidates
      ? candidates.length
        ? h(
            'ol',
            { class: 'candidates' },
            candidates.map((c) =>
              h(
                'li',
                null,
                h(ExternalLink, { url: c.url }, c.title),
                c.publishedAt ? ` · ${when(c.publishedAt)}` : '',
                c.snippet ? h('p', { class: 'meta' }, c.snippet) : null,
              ),
            ),
          )
        : h('p', { class: 'meta' }, 'The search found nothing right now.')
      : null,
  );
}

function domainOf(url) {
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
}

function DraftView({ draft, searchReady }) {
  return h(
    'div',
    { class: 'card draft' },
    h('h2', null, draft.name),
    h('p', null, h('strong', null, 'Condition: '), draft.condition),
    h('p', null, h('strong', null, 'Schedule: '), `${describe(draft.schedule, draft.timeZone)} (${draft.schedule})`),
    h('p', null, h('strong', null, 'Threshold: '), `${Math.round(draft.threshold * 100)}%`),
    h('h3', null, 'Sources'),
    h(
      'ul',
      { class: 'plain' },
      draft.sources.map((s) =>
        h(
          'li',
          { class: 'card' },
          h(
            'p',
            null,
            h('strong', null, `${sourceKind(s)}: `),
            sourceNamed(s),
            s.trust ? ` · ${tierName(s.trust)}` : '',
            s.recencyDays ? ` · last ${s.recencyDays} days` : '',
          ),
          s.rationale ? h('p', { class: 'meta' }, s.rationale) : null,
          s.type === 'search' ? h(Preview, { key: s.value, source: s, searchReady }) : null,
        ),
      ),
    ),
    draft.notes ? [h('h3', null, 'Notes'), h('p', { class: 'pre' }, draft.notes)] : null,
  );
}

function DomainCheck({ draft }) {
  const check = useAction();
  const [liveness, setLiveness] = useState(null);
  const domains = [
    ...new Set(
      draft.sources
        .filter((s) => s.type === 'rss')
        .map((s) => domainOf(s.value))
        .filter(Boolean),
    ),
  ];
  if (!domains.length) return null;
  const run = () =>
    check.act(async () => setLiveness((await post('/watches/draft/check-domains', { domains })).liveness));
  return h(
    'div',
    null,
    h(Button, { busy: check.busy, onClick: run }, 'Check the feeds’ domains'),
    h(ErrorMessage, { error: check.error }),
    liveness
      ? h(
          'div',
          { role: 'status' },
          h(
            'ul',
            null,
            domains.map((d) => h('li', null, `${d}: ${liveness[d] ? 'reachable' : 'not reachable'}`)),
          ),
        )
      : null,
  );
}

const slug = (name) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64) || 'watch';

export function Assist() {
  const [description, setDescription] = useState('');
  const [instruction, setInstruction] = useState('');
  const [rounds, setRounds] = useState([]);
  const [saving, setSaving] = useState(false);
  const ask = useAction();
  // whether searches can run here, for "Preview results" (unknown: offered, and a refusal says why)
  const status = useLoad(() => get('/config/status', { anonymous: true }).catch(() => null));
  const draft = rounds.length ? rounds[rounds.length - 1].draft : null;
  const start = () =>
    ask.act(async () => {
      const r = await post('/watches/draft', { description });
      setRounds([{ instruction: null, draft: r.draft, warnings: r.warnings }]);
    });
  const refine = () =>
    ask.act(async () => {
      const r = await post('/watches/draft', { description: '', refine: { previousDraft: draft, instruction } });
      setRounds([...rounds, { instruction, draft: r.draft, warnings: r.warnings }]);
      setInstruction('');
    });
  if (saving && draft) {
    const initial = {
      id: slug(draft.name),
      name: draft.name,
      condition: draft.condition,
      sources: draft.sources.map(({ rationale, ...s }) =>
        Object.fromEntries(Object.entries(s).filter(([, v]) => v !== null)),
      ),
      schedule: draft.schedule,
      timeZone: draft.timeZone,
      threshold: draft.threshold,
      channels: [],
      enabled: true,
    };
    return h(
      Page,
      { title: 'Save the draft as a watch' },
      h('p', null, 'Check the fields, add where alerts go, and save.'),
      h(WatchForm, {
        initial,
        creating: true,
        onSaved: (w) => navigate(`/watch/${enc(w.id)}`),
        extra: h(Button, { onClick: () => setSaving(false) }, 'Back to the draft'),
      }),
    );
  }
  return h(
    Page,
    { title: 'Draft a watch with AI' },
    h(
      'form',
      { class: 'form', onSubmit: (e) => (e.preventDefault(), start()) },
      h(TextArea, {
        label: 'What should Periscope watch for you?',
        value: description,
        onInput: setDescription,
        rows: 3,
        hint: 'For example: tell me when Acme announces the date of its first rocket launch.',
      }),
      h(
        Button,
        {
          type: 'submit',
          kind: draft ? 'secondary' : 'primary',
          busy: ask.busy && !draft,
          disabled: !description.trim(),
        },
        draft ? 'Start over' : 'Draft it',
      ),
    ),
    ask.busy ? h('p', { class: 'progress', role: 'status' }, 'The assistant is writing…') : null,
    h(ErrorMessage, { error: ask.error }),
    draft
      ? [
          rounds.length > 1
            ? h(
                'p',
                { class: 'meta' },
                `Round ${rounds.length}: `,
                rounds
                  .slice(1)
                  .map((r) => `“${r.instruction}”`)
                  .join(', then '),
              )
            : null,
          h(WarningList, {
            warnings: rounds[rounds.length - 1].warnings,
            sources: draft.sources,
            title: 'This instance cannot serve all of this draft',
          }),
          h(DraftView, { draft, searchReady: status.data?.search !== false }),
          h(DomainCheck, { draft }),
          h(
            'form',
            { class: 'form', onSubmit: (e) => (e.preventDefault(), refine()) },
            h(TextArea, {
              label: 'Change the draft',
              value: instruction,
              onInput: setInstruction,
              rows: 2,
              hint: 'For example: also follow Acme’s own news feed.',
            }),
            h(
              'div',
              { class: 'actions' },
              h(Button, { type: 'submit', busy: ask.busy, disabled: !instruction.trim() }, 'Refine'),
              h(Button, { kind: 'primary', onClick: () => setSaving(true) }, 'Use this draft'),
            ),
          ),
        ]
      : null,
  );
}

const FIELD_NAMES = {
  name: 'Name',
  condition: 'Condition',
  sources: 'Sources',
  schedule: 'Schedule',
  threshold: 'Threshold',
  weakThreshold: 'Weak threshold',
  enabled: 'Enabled',
};

function shown(field, value, zone) {
  if (value === undefined || value === null) return 'none';
  if (field === 'sources')
    return value
      .map((s) => `${sourceWhat(s)}${s.trust ? ` (${s.trust})` : ''}${s.recencyDays ? `, ${s.recencyDays} days` : ''}`)
      .join('\n');
  if (field === 'schedule') return `${value} (${describe(value, zone)})`;
  if (field === 'enabled') return value ? 'yes' : 'no';
  return String(value);
}

/** The watch after the revision: a field absent stays, null removes it. */
export function applyRevision(watch, revision) {
  const next = { ...watch };
  for (const [field, value] of Object.entries(revision)) {
    if (field === 'reasons') continue;
    if (value === null) delete next[field];
    else next[field] = value;
  }
  return next;
}

/** What a backtest tries of a revised watch: how it judges. */
const judgement = (w) => ({ condition: w.condition, threshold: w.threshold, weakThreshold: w.weakThreshold ?? null });

export function Revise({ id }) {
  const watch = useLoad(() => get(`/watches/${enc(id)}`), [id]);
  const [instruction, setInstruction] = useState('');
  const [revision, setRevision] = useState(null);
  const [warnings, setWarnings] = useState([]);
  const ask = useAction();
  const apply = useAction();
  if (watch.error) return h(Page, { title: 'Revise with AI' }, h(ErrorMessage, { error: watch.error }));
  if (!watch.data) return h(Page, { title: 'Revise with AI' }, h(Loading));
  const current = editable(watch.data);
  const propose = () =>
    ask.act(async () => {
      const r = await post(`/watches/${enc(id)}/revise`, { instruction, base: current });
      setRevision(r.revision);
      setWarnings(r.warnings || []);
    });
  const approve = () =>
    apply.act(async () => {
      await put(`/watches/${enc(id)}`, applyRevision(current, revision));
      navigate(`/watch/${enc(id)}`);
    });
  const changes = revision ? Object.keys(revision).filter((f) => f !== 'reasons') : [];
  return h(
    Page,
    { title: `Revise ${watch.data.name}` },
    h(
      'form',
      { class: 'form', onSubmit: (e) => (e.preventDefault(), propose()) },
      h(TextArea, {
        label: 'What should change?',
        value: instruction,
        onInput: setInstruction,
        rows: 2,
        hint: 'For example: check twice a day.',
      }),
      h(
        Button,
        { type: 'submit', kind: revision ? 'secondary' : 'primary', busy: ask.busy, disabled: !instruction.trim() },
        'Propose changes',
      ),
    ),
    h(ErrorMessage, { error: ask.error }),
    revision
      ? changes.length === 0
        ? h('p', { role: 'status' }, 'The assistant proposes no change.')
        : [
            h('h2', null, 'Proposed changes'),
            h(Table, {
              class: 'diff',
              rows: changes,
              columns: [
                { header: 'Field', heading: true, cell: (f) => FIELD_NAMES[f] || f },
                {
                  header: 'Now',
                  class: 'pre',
                  cell: (f) => h('del', null, shown(f, current[f], current.timeZone)),
                },
                {
                  header: 'Proposed',
                  class: 'pre',
                  cell: (f) => h('ins', null, shown(f, revision[f], current.timeZone)),
                },
                {
                  header: 'Why',
                  cell: (f) =>
                    revision.reasons
                      .filter((r) => r.field === f)
                      .map((r) => r.why)
                      .join(' '),
                },
              ],
            }),
            h(WarningList, {
              warnings,
              sources: revision.sources,
              title: 'This instance cannot serve all of these changes',
            }),
            h(Backtest, { id, candidate: judgement(applyRevision(current, revision)) }),
            h(ErrorMessage, { error: apply.error }),
            h(
              'div',
              { class: 'actions' },
              h(Button, { kind: 'primary', busy: apply.busy, onClick: approve }, 'Apply these changes'),
              h(Link, { href: `/watch/${enc(id)}`, class: 'button secondary' }, 'Keep the watch as it is'),
            ),
          ]
      : null,
  );
}
