// Create and edit a watch with the full schema; the service's 400 issues appear at their fields, in
// a person's words, summed up at the top of the form (lib/forms.js); channels are picked by kind
// (lib/channels.js). On a wide screen the form is two columns: what to watch, and how to tell.
import { h } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { del, enc, get, post, put } from '../lib/api.js';
import { ChannelFields } from '../lib/channels.js';
import { LOCAL_ZONE, PRESETS, describe, nextTimes, problem, timeZones } from '../lib/cron.js';
import { FormErrors, forPerson } from '../lib/forms.js';
import { TIERS } from '../lib/outcomes.js';
import { navigate, Link } from '../lib/router.js';
import { whenZoned } from '../lib/time.js';
import { Button, ErrorMessage, Field, Loading, Page, Select, TextArea, TextField, issuesAt, useAction, useLoad } from '../lib/ui.js';
import { useWarningGate } from '../lib/warnings.js';
import { thisBrowsersDevice } from './devices.js';
import { DryRunReport } from './dryrun.js';
import { PageSourceFields, pageSourceBody } from './pagesource.js';
import { editable } from './watches.js';

export const BLANK = {
  id: '',
  name: '',
  condition: '',
  sources: [{ type: 'search', value: '' }],
  schedule: '0 */6 * * *',
  timeZone: LOCAL_ZONE,
  threshold: 0.8,
  channels: [],
  enabled: true,
};

const Issues = ({ issues }) =>
  issues.length ? h('ul', { class: 'issues' }, issues.map((i) => h('li', null, i.message))) : null;

/** A number from 0 to 1 as a slider and a number box, both labelled. */
function Slider({ label, value, onInput, hint, issues }) {
  return h(Field, {
    label,
    hint,
    issues,
    render: (a) =>
      h(
        'div',
        { class: 'slider' },
        h('input', { ...a, type: 'range', min: 0, max: 1, step: 0.05, value, onInput: (e) => onInput(Number(e.target.value)) }),
        h('input', {
          type: 'number',
          min: 0,
          max: 1,
          step: 0.01,
          value,
          'aria-label': `${label} (number)`,
          onInput: (e) => e.target.value !== '' && onInput(Number(e.target.value)),
        }),
      ),
  });
}

/** The kinds of source, each with its name and what its value is. */
const SOURCE_KINDS = {
  search: { name: 'Web search', value: 'Search query' },
  rss: { name: 'RSS or Atom feed', value: 'Feed URL', hint: 'A feed, or a site’s address: “Find feeds” shows the feeds its page names.' },
  page: { name: 'Web page (its changes)', value: 'Page URL', hint: 'A page without a feed: each run compares its text with the last run’s, and what changed is judged.' },
};

function SourceFields({ source, index, error, onChange, onRemove, removable }) {
  const set = (k, v) => {
    const next = { ...source, [k]: v };
    if (v === '' || v === undefined) delete next[k];
    onChange(next);
  };
  const at = (k) => issuesAt(error, ['sources', index, k]);
  const kind = SOURCE_KINDS[source.type] || SOURCE_KINDS.search;
  return h(
    'fieldset',
    null,
    h('legend', null, `Source ${index + 1}`),
    h(Select, {
      label: 'Type',
      value: source.type,
      onChange: (v) => set('type', v),
      options: Object.entries(SOURCE_KINDS).map(([type, k]) => [type, k.name]),
      issues: at('type'),
    }),
    h(TextField, { label: kind.value, value: source.value, onInput: (v) => onChange({ ...source, value: v }), issues: at('value'), hint: kind.hint }),
    source.type === 'rss' ? h(FindFeeds, { url: source.value, onUse: (url) => onChange({ ...source, value: url }) }) : null,
    source.type === 'page' ? h(PageSourceFields, { source, index, error, set }) : null,
    h(
      'details',
      { class: 'advanced', open: !!(source.trust || source.recencyDays) },
      h('summary', null, 'Trust and recency'),
      h(
        'div',
        { class: 'row' },
        h(Select, {
          label: 'Trust',
          value: source.trust || '',
          onChange: (v) => set('trust', v),
          options: [['', 'Not set'], ...TIERS],
          issues: at('trust'),
          hint: 'How far you trust this source: one official source is enough to confirm an alert; less trusted ones need others that agree.',
        }),
        h(TextField, {
          label: 'Recency (days)',
          type: 'number',
          min: 1,
          max: 3650,
          value: source.recencyDays ?? '',
          onInput: (v) => set('recencyDays', v === '' ? undefined : Number(v)),
          issues: at('recencyDays'),
          hint: 'Only items from this many last days are judged. Empty: no limit.',
        }),
      ),
    ),
    removable ? h(Button, { onClick: onRemove, kind: 'danger' }, `Remove source ${index + 1}`) : null,
  );
}

/** "Find feeds": what the service finds at a source's URL, each feed a page names offered to use. */
function FindFeeds({ url, onUse }) {
  const [found, setFound] = useState(null);
  const look = useAction();
  const find = () => look.act(async () => setFound(await post('/sources/discover', { url: url.trim() })));
  const shown = found && found.url === url.trim() ? found : null;
  return h(
    'div',
    { class: 'find-feeds' },
    h(Button, { onClick: find, busy: look.busy, disabled: !url.trim() }, 'Find feeds'),
    h(ErrorMessage, { error: look.error }),
    shown
      ? h(
          'div',
          { 'aria-live': 'polite' },
          !shown.page
            ? h('p', { class: 'meta' }, 'This address is a feed.')
            : !shown.feeds.length
              ? h('p', { class: 'meta' }, 'This page names no feed.')
              : h(
                  'ul',
                  { class: 'found-feeds' },
                  shown.feeds.map((f) =>
                    h('li', { key: f.url }, h(Button, { onClick: () => onUse(f.url) }, `Use ${f.title || f.url}`), ' ', h('span', { class: 'meta' }, `${f.format || 'feed'} · ${f.url}`)),
                  ),
                ),
        )
      : null,
  );
}

/** The most sources a watch holds (the watch schema's bound). */
const MAX_SOURCES = 20;

/** The feeds of {@code listed} by folder, a folder of more than MAX_SOURCES split in numbered parts. */
export function watchesPerFolder(listed) {
  const byFolder = new Map();
  for (const f of listed.feeds) {
    const folder = f.folder || listed.title || 'Imported feeds';
    byFolder.set(folder, [...(byFolder.get(folder) || []), f]);
  }
  const out = [];
  for (const [folder, feeds] of byFolder) {
    const parts = Math.ceil(feeds.length / MAX_SOURCES);
    for (let p = 0; p < parts; p++)
      out.push({ name: parts === 1 ? folder : `${folder} (${p + 1})`, feeds: feeds.slice(p * MAX_SOURCES, (p + 1) * MAX_SOURCES) });
  }
  return out;
}

const slug = (name, length = 50) => name.toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, length);

/** A watch's identifier made from its name: the characters an identifier takes, at most 64. */
const identifierFrom = (name) => slug(name.normalize('NFKD').replace(/[\u0300-\u036f]/g, ''), 64).replace(/-+$/, '');

/**
 * "Import OPML": a reader's export read by the service, its feeds added as this watch's sources (up
 * to the limit; the rest listed), or "One watch per folder", each made with this form's condition,
 * schedule, threshold and channels.
 */
function OpmlImport({ sources, onSources, form }) {
  const [listed, setListed] = useState(null);
  const [left, setLeft] = useState([]);
  const [created, setCreated] = useState([]);
  const read = useAction();
  const bulk = useAction();
  const pick = (ev) => {
    const file = ev.target.files?.[0];
    if (!file) return;
    read.act(async () => {
      const l = await post('/sources/opml', await file.text(), { contentType: 'text/x-opml' });
      const kept = sources.filter((s) => s.value.trim() !== '');
      const known = new Set(kept.map((s) => s.value));
      const fresh = l.feeds.filter((f) => !known.has(f.url));
      const room = Math.max(0, MAX_SOURCES - kept.length);
      onSources([...kept, ...fresh.slice(0, room).map((f) => ({ type: 'rss', value: f.url }))]);
      setLeft(fresh.slice(room));
      setListed(l);
      setCreated([]);
    });
  };
  const perFolder = () =>
    bulk.act(async () => {
      const made = [];
      for (const w of watchesPerFolder(listed)) {
        const body = { ...form, id: `opml-${slug(w.name) || 'feeds'}`, name: w.name, sources: w.feeds.map((f) => ({ type: 'rss', value: f.url })) };
        made.push(await post('/watches', body));
        setCreated([...made]);
      }
    });
  return h(
    'fieldset',
    null,
    h('legend', null, 'Import OPML'),
    h(Field, {
      label: 'OPML file',
      hint: 'A feed reader’s export: its feeds become this watch’s sources, or one watch per folder.',
      render: (a) => h('input', { ...a, type: 'file', accept: '.opml,.xml,text/x-opml,application/xml,text/xml', onChange: pick }),
    }),
    h(ErrorMessage, { error: read.error }),
    listed
      ? h(
          'div',
          { 'aria-live': 'polite' },
          h('p', { class: 'meta' }, `${listed.feeds.length} feed(s) in the file${listed.cut ? ' (cut at its bounds)' : ''}.`),
          left.length
            ? h('div', null, h('p', null, `Not added, past the limit of ${MAX_SOURCES} sources:`), h('ul', { class: 'left-feeds' }, left.map((f) => h('li', { key: f.url }, `${f.title} · ${f.url}`))))
            : null,
          listed.skipped.length
            ? h('div', null, h('p', null, 'Left out:'), h('ul', null, listed.skipped.map((s, i) => h('li', { key: i }, `${s.title || s.url || 'an outline'}: ${s.problem}`))))
            : null,
          h(Button, { onClick: perFolder, busy: bulk.busy }, 'One watch per folder'),
          h(ErrorMessage, { error: bulk.error }),
          created.length ? h('ul', { class: 'created-watches' }, created.map((w) => h('li', { key: w.id }, h(Link, { href: `/watch/${enc(w.id)}` }, w.name)))) : null,
        )
      : null,
  );
}

function ScheduleField({ value, onInput, issues, zone, onZone, zoneIssues }) {
  const preset = PRESETS.find(([, cron]) => cron === value.trim());
  const shownZone = zone || 'UTC'; // the service's default when the field is left empty
  const next = nextTimes(value, 3, new Date(), shownZone);
  const wrong = problem(value);
  return h(
    'fieldset',
    null,
    h('legend', null, 'Schedule'),
    h(Select, {
      label: 'How often',
      value: preset ? preset[1] : 'custom',
      onChange: (v) => v !== 'custom' && onInput(v),
      options: [...PRESETS.map(([text, cron]) => [cron, text]), ['custom', 'Custom (cron)']],
    }),
    h(TextField, { label: 'Cron expression', value, onInput, issues, hint: 'minute hour day month weekday, in the time zone below' }),
    h(TextField, { label: 'Time zone', value: zone, onInput: onZone, issues: zoneIssues, list: 'time-zones', autocomplete: 'off', hint: 'An IANA name such as Europe/Berlin or UTC.' }),
    h('datalist', { id: 'time-zones' }, timeZones().map((z) => h('option', { key: z, value: z }))),
    h(
      'div',
      { 'aria-live': 'polite' },
      wrong ? h('p', { class: 'schedule-problem' }, forPerson('The schedule', `is not valid yet: ${wrong}`)) : h('p', { class: 'meta' }, describe(value, shownZone)),
      next.length ? h('p', { class: 'meta' }, 'Next runs: ', next.map(whenZoned).join(' · ')) : null,
    ),
  );
}

/** Quiet hours (held alerts go out when they end) and a digest; both optional. */
function QuietFields({ quietHours, digest, onQuiet, onDigest, error }) {
  const set = (k, v) => onQuiet({ ...quietHours, [k]: v });
  return h(
    'fieldset',
    null,
    h('legend', null, 'Quiet hours and digest'),
    h(
      'label',
      { class: 'switch' },
      h('input', { type: 'checkbox', checked: !!quietHours, onChange: (ev) => onQuiet(ev.target.checked ? { start: '22:00', end: '07:00' } : null) }),
      h('span', null, 'Hold alerts during quiet hours; they go out as one message when the quiet hours end'),
    ),
    quietHours
      ? h(
          'div',
          { class: 'row' },
          h(TextField, { label: 'Quiet from', value: quietHours.start, onInput: (v) => set('start', v), issues: issuesAt(error, ['quietHours', 'start']), hint: 'HH:MM, 24-hour' }),
          h(TextField, { label: 'Quiet until', value: quietHours.end, onInput: (v) => set('end', v), issues: issuesAt(error, ['quietHours', 'end']), hint: 'HH:MM; may be the next morning' }),
          h(TextField, { label: 'Quiet hours time zone', value: quietHours.timeZone ?? '', onInput: (v) => set('timeZone', v), issues: issuesAt(error, ['quietHours', 'timeZone']), list: 'time-zones', autocomplete: 'off', hint: "Empty: the schedule's time zone." }),
        )
      : null,
    h(Issues, { issues: (error?.issues || []).filter((i) => JSON.stringify(i.path) === '["quietHours"]') }),
    h(Select, {
      label: 'Digest',
      value: digest ?? 'none',
      onChange: onDigest,
      options: [['none', 'No digest: each alert as it comes'], ['hourly', 'Hourly: one message at the top of each hour'], ['daily', 'Daily: one message at 08:00']],
      issues: issuesAt(error, ['digest']),
      hint: 'A digest gathers the alerts of an hour or a day into one message.',
    }),
  );
}

/** The quiet hours as the service takes them: an empty time zone is the schedule's. */
function quietBody(quietHours) {
  if (!quietHours) return null;
  const { timeZone, ...window } = quietHours;
  return timeZone?.trim() ? { ...window, timeZone: timeZone.trim() } : window;
}

/**
 * The whole form; {@code onSaved} gets the stored watch. "Test" dry-runs the watch as the form holds
 * it: a new one whole, a saved one with the form's condition, thresholds and sources.
 */
export function WatchForm({ initial, creating, onSaved, submitLabel = 'Save watch', extra }) {
  const [w, setW] = useState(initial);
  // a new watch's identifier follows its name until the person writes one
  const [ownId, setOwnId] = useState(!!initial.id);
  const form = useRef(null);
  const save = useAction();
  const gate = useWarningGate();
  const trial = useAction();
  const [tested, setTested] = useState(null);
  const [last, setLast] = useState(null);
  const set = (k, v) => setW((x) => ({ ...x, [k]: v }));
  const setName = (name) => setW((x) => ({ ...x, name, ...(creating && !ownId ? { id: identifierFrom(name) } : {}) }));
  const weak = w.weakThreshold !== undefined && w.weakThreshold !== null;
  const body = () => ({
    ...w,
    sources: w.sources.map(pageSourceBody),
    channels: w.channels.filter((c) => c.trim() !== ''),
    timeZone: w.timeZone?.trim() || null,
    quietHours: quietBody(w.quietHours),
    digest: w.digest ?? null,
  });
  const submit = () => {
    setLast('save');
    save.act(async () => {
      const sent = creating ? body() : editable(body());
      if (!(await gate.cleared(creating ? '/watches/check' : `/watches/${enc(w.id)}/check`, sent))) return;
      const stored = creating ? await post('/watches', sent) : await put(`/watches/${enc(w.id)}`, sent);
      onSaved(stored);
    });
  };
  const test = () => {
    setLast('test');
    setTested(null);
    trial.act(async () => {
      const { condition, threshold, sources } = body();
      setTested(creating ? await post('/watches/test', body()) : await post(`/watches/${enc(w.id)}/test`, { condition, threshold, weakThreshold: w.weakThreshold ?? null, sources }));
    });
  };
  const e = last === 'test' ? trial.error : save.error;
  const not = last === 'test' ? 'tested' : 'saved';
  return h(
    'form',
    { class: 'form editor', noValidate: true, ref: form, onSubmit: (ev) => (ev.preventDefault(), submit()) },
    h(FormErrors, { error: e, form, done: not }),
    h(
      'div',
      { class: 'editor-what' },
      h(TextField, { label: 'Name', value: w.name, onInput: setName, issues: issuesAt(e, ['name']) }),
      creating
        ? h(TextField, {
            label: 'Identifier',
            value: w.id,
            onInput: (v) => (setOwnId(true), set('id', v)),
            issues: issuesAt(e, ['id']),
            spellcheck: false,
            hint: 'Made from the name; change it now if you like: letters, digits, dot, dash and underscore. It is the watch’s address and cannot change once saved.',
          })
        : null,
      h(TextArea, { label: 'Condition', value: w.condition, onInput: (v) => set('condition', v), issues: issuesAt(e, ['condition']), hint: 'In plain English: what must happen for you to be alerted.' }),
      w.sources.map((s, i) =>
        h(SourceFields, {
          key: i,
          source: s,
          index: i,
          error: e,
          removable: w.sources.length > 1,
          onChange: (next) => set('sources', w.sources.map((x, j) => (j === i ? next : x))),
          onRemove: () => set('sources', w.sources.filter((_, j) => j !== i)),
        }),
      ),
      h(Issues, { issues: (e?.issues || []).filter((i) => JSON.stringify(i.path) === '["sources"]') }),
      h(Button, { onClick: () => set('sources', [...w.sources, { type: 'search', value: '' }]) }, 'Add a source'),
      h(OpmlImport, {
        sources: w.sources,
        onSources: (v) => set('sources', v.length ? v : [{ type: 'search', value: '' }]),
        form: { condition: w.condition, schedule: w.schedule, timeZone: w.timeZone?.trim() || null, threshold: w.threshold, channels: w.channels.filter((c) => c.trim() !== ''), enabled: w.enabled },
      }),
    ),
    h(
      'div',
      { class: 'editor-how' },
      h(ScheduleField, {
        value: w.schedule,
        onInput: (v) => set('schedule', v),
        issues: issuesAt(e, ['schedule']),
        zone: w.timeZone ?? '',
        onZone: (v) => set('timeZone', v),
        zoneIssues: issuesAt(e, ['timeZone']),
      }),
      h(Slider, { label: 'Threshold', value: w.threshold, onInput: (v) => set('threshold', v), issues: issuesAt(e, ['threshold']), hint: 'How sure the model must be before you are alerted.' }),
      h(ChannelFields, { channels: w.channels, onChange: (v) => set('channels', v), error: e, watchId: creating ? null : w.id, device: thisBrowsersDevice() }),
      h(
        'details',
        { class: 'advanced', open: !!(weak || w.quietHours || (w.digest && w.digest !== 'none')) },
        h('summary', null, 'Advanced: weak alerts, quiet hours, digest'),
        h(
          'fieldset',
          null,
          h('legend', null, 'Weak alerts'),
          h('p', { class: 'hint' }, 'An alert is confirmed when the model is at least as sure as the threshold and trusted sources agree. A weak alert says “possibly” for less: more alerts, more of them wrong.'),
          h(
            'label',
            { class: 'switch' },
            h('input', {
              type: 'checkbox',
              checked: weak,
              onChange: (ev) =>
                setW((x) => {
                  const { weakThreshold, ...rest } = x;
                  return ev.target.checked ? { ...rest, weakThreshold: Math.max(0, Math.round((x.threshold - 0.3) * 100) / 100) } : rest;
                }),
            }),
            h('span', null, 'Also send weaker, unconfirmed alerts'),
          ),
          weak ? h(Slider, { label: 'Weak threshold', value: w.weakThreshold, onInput: (v) => set('weakThreshold', v), issues: issuesAt(e, ['weakThreshold']), hint: 'From this certainty on, a weak alert is sent.' }) : null,
        ),
        h(QuietFields, { quietHours: w.quietHours, digest: w.digest, onQuiet: (v) => set('quietHours', v), onDigest: (v) => set('digest', v), error: e }),
      ),
      h('label', { class: 'switch' }, h('input', { type: 'checkbox', checked: w.enabled, onChange: (ev) => set('enabled', ev.target.checked) }), h('span', null, 'Enabled: runs on its schedule and in run all')),
    ),
    gate.view,
    h(
      'div',
      { class: 'actions editor-actions' },
      h(Button, { type: 'submit', kind: 'primary', busy: save.busy }, submitLabel),
      h(Button, { busy: trial.busy, onClick: test }, trial.busy ? 'Testing…' : 'Test'),
      extra,
    ),
    trial.busy ? h('p', { class: 'progress', role: 'status' }, 'Testing: collecting the sources and asking the model, sending nothing…') : null,
    tested ? h(DryRunReport, { answer: tested }) : null,
  );
}

export function NewWatch() {
  return h(Page, { title: 'New watch' }, h(WatchForm, { initial: BLANK, creating: true, onSaved: (w) => navigate(`/watch/${enc(w.id)}`) }));
}

export function EditWatch({ id }) {
  const watch = useLoad(() => get(`/watches/${enc(id)}`), [id]);
  const remove = useAction();
  if (watch.error) return h(Page, { title: 'Edit watch' }, h(ErrorMessage, { error: watch.error }), h(Link, { href: '/' }, 'Back to your watches'));
  if (!watch.data) return h(Page, { title: 'Edit watch' }, h(Loading));
  const deleteWatch = () =>
    remove.act(async () => {
      if (!window.confirm(`Delete the watch “${watch.data.name}”? Its run history is kept.`)) return;
      await del(`/watches/${enc(id)}`);
      navigate('/');
    });
  return h(
    Page,
    { title: `Edit ${watch.data.name}` },
    h(WatchForm, {
      initial: editable(watch.data),
      onSaved: (w) => navigate(`/watch/${enc(w.id)}`),
      extra: h(Button, { kind: 'danger', busy: remove.busy, onClick: deleteWatch }, 'Delete watch'),
    }),
    h(ErrorMessage, { error: remove.error }),
  );
}
