// The home: the account at a glance. Each watch with its last outcome and a strip of its recent
// runs, failing watches first, the alerts of the last days above them; run one or all of them now.
import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, enc, events, get, put } from '../lib/api.js';
import { describe, nextTimes } from '../lib/cron.js';
import { Icon } from '../lib/icons.js';
import { Outcome, Strip, failureReason } from '../lib/outcomes.js';
import { Link } from '../lib/router.js';
import { ago, when, whenZoned, duration } from '../lib/time.js';
import { Button, Empty, ErrorMessage, Loading, Page, explain, useAction, useLoad } from '../lib/ui.js';

/** A watch as PUT takes it: the schema's fields, never the owner. */
export function editable(watch) {
  const { owner, ...fields } = watch;
  return fields;
}

function Elapsed({ since }) {
  const [, tick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, []);
  return h('span', null, ` (${Math.round((Date.now() - since) / 1000)} s)`);
}

/** How many of each watch's newest runs the home reads: its strip, and where its alerts are found. */
const RECENT_RUNS = 12;
const ALERT_DAYS = 7;
const isAlert = (run) => run.outcome === 'alert' || run.outcome === 'weak-alert';
const failing = (runs) => runs?.[0]?.outcome === 'error';
const prepend = (runs, run) => [run, ...(runs || [])].slice(0, RECENT_RUNS);

function WatchRow({ watch, runs, onChanged, onRan }) {
  const toggle = useAction();
  const run = useAction();
  const [running, setRunning] = useState(null);
  // the switch shows the person's choice while the service takes it, and goes back only if refused
  const [pending, setPending] = useState(null);
  const next = watch.enabled ? nextTimes(watch.schedule, 1, new Date(), watch.timeZone)[0] : null;
  const shown = runs?.[0];
  const setEnabled = (enabled) => {
    setPending(enabled);
    toggle
      .act(async () => {
        onChanged(await put(`/watches/${enc(watch.id)}`, { ...editable(watch), enabled }));
      })
      .finally(() => setPending(null));
  };
  const runNow = () =>
    run.act(async () => {
      setRunning(Date.now());
      try {
        const r = await api('POST', `/watches/${enc(watch.id)}/run`);
        onRan(r.body.result);
      } finally {
        setRunning(null);
      }
    });
  return h(
    'li',
    { class: `watch${shown?.outcome === 'error' ? ' failing' : ''}${watch.enabled ? '' : ' paused'}` },
    h(
      'div',
      { class: 'watch-main' },
      h('h3', null, h(Link, { href: `/watch/${enc(watch.id)}` }, watch.name)),
      h(
        'p',
        { class: 'last' },
        shown
          ? [
              h(Outcome, { outcome: shown.outcome }),
              h('span', { class: 'meta' }, shown.startedAt ? h('time', { dateTime: shown.startedAt, title: whenZoned(shown.startedAt) }, ago(shown.startedAt)) : null, shown.durationMs !== undefined ? ` · took ${duration(shown.durationMs)}` : ''),
              h(Strip, { runs }),
            ]
          : h('span', { class: 'meta' }, 'Not run yet'),
      ),
      h('p', { class: 'meta' }, describe(watch.schedule, watch.timeZone), next ? ` · next run ${when(next)}` : watch.enabled ? '' : ' · paused'),
      failureReason(shown) ? h('p', { class: 'run-reason' }, failureReason(shown)) : null,
      running ? h('p', { role: 'status', class: 'progress' }, 'Running…', h(Elapsed, { since: running })) : null,
      h(ErrorMessage, { error: toggle.error || run.error }),
    ),
    h(
      'div',
      { class: 'watch-actions' },
      h(
        'label',
        { class: 'switch' },
        h('input', {
          type: 'checkbox',
          role: 'switch',
          checked: pending ?? watch.enabled,
          'aria-busy': pending !== null ? 'true' : undefined,
          onChange: (e) => pending === null && setEnabled(e.target.checked),
        }),
        h('span', null, 'Enabled', h('span', { class: 'visually-hidden' }, `: ${watch.name}`)),
        pending !== null ? h('span', { class: 'meta', role: 'status' }, 'Saving…') : null,
      ),
      // the visible words begin the accessible name (WCAG 2.5.3), the watch's name follows them
      h(Button, { busy: run.busy, onClick: runNow }, h(Icon, { name: 'play' }), run.busy ? 'Running…' : 'Run now', h('span', { class: 'visually-hidden' }, `: ${watch.name}`)),
      h(Link, { href: `/watch/${enc(watch.id)}/edit`, class: 'button secondary', 'aria-label': `Edit ${watch.name}` }, h(Icon, { name: 'pencil' }), 'Edit'),
    ),
  );
}

/** Run-all: the asynchronous job when the service has it, else the synchronous call. */
async function runAll(onOutcome) {
  let started;
  try {
    started = await api('POST', '/watches/run-all?async=true');
  } catch (e) {
    if (e.status !== 404 && e.status !== 400) throw e;
    started = await api('POST', '/watches/run-all');
  }
  if (started.status !== 202) return started.body;
  const job = started.body.job;
  const jobPath = `/watches/run-all/jobs/${enc(job.id)}`;
  try {
    await events(`${jobPath}/events`, (event, data) => {
      if (event === 'outcome' && data) onOutcome(data);
      return event !== 'done';
    });
  } catch {
    // no stream: ask for the job until it ends
    for (;;) {
      const { job: now } = await get(jobPath);
      now.outcomes.forEach(onOutcome);
      if (now.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  const { job: finished } = await get(jobPath);
  if (finished.status === 'failed') throw new Error(finished.error || 'the run-all failed');
  return { summary: finished.summary, outcomes: finished.outcomes };
}

function RunAllReport({ result, names }) {
  const s = result.summary;
  return h(
    'div',
    { class: 'report', role: 'status' },
    h('h2', null, 'Run all finished'),
    s ? h('p', null, `${s.total} watches: ${s.ran} ran, ${s.skipped} skipped, ${s.failed} failed, ${s.notified} sent alerts.`) : null,
    h(
      'ul',
      null,
      result.outcomes.map((o) =>
        h(
          'li',
          null,
          h('strong', null, names[o.watchId] || o.watchId),
          ': ',
          // a run that failed is an error, in the words the history uses
          o.status === 'ran' && o.result ? h(Outcome, { outcome: o.result.outcome }) : o.status === 'failed' ? h(Outcome, { outcome: 'error' }) : o.status,
          o.error ? ` — ${o.error}` : '',
        ),
      ),
    ),
  );
}

/** The alerts of the last days among the runs read, newest first, each with its watch. */
function RecentAlerts({ watches, runs }) {
  const since = Date.now() - ALERT_DAYS * 86400000;
  const alerts = watches
    .flatMap((w) => (runs[w.id] || []).filter((r) => isAlert(r) && new Date(r.startedAt).getTime() >= since).map((r) => ({ watch: w, run: r })))
    .sort((a, b) => new Date(b.run.startedAt) - new Date(a.run.startedAt));
  return h(
    'section',
    { class: 'recent-alerts', 'aria-labelledby': 'recent-alerts' },
    h('h2', { id: 'recent-alerts' }, `Alerts of the last ${ALERT_DAYS} days`),
    alerts.length
      ? h(
          'ul',
          { class: 'alerts' },
          alerts.slice(0, 6).map(({ watch, run }) =>
            h(
              'li',
              { key: `${watch.id}-${run.runId || run.startedAt}` },
              h(Outcome, { outcome: run.outcome }),
              h(Link, { href: `/watch/${enc(watch.id)}`, class: 'alert-watch' }, watch.name),
              h('time', { dateTime: run.startedAt, title: whenZoned(run.startedAt) }, ago(run.startedAt)),
              run.summary ? h('span', { class: 'line' }, run.summary) : null,
            ),
          ),
        )
      : h('p', { class: 'meta' }, `No alert in the last ${ALERT_DAYS} days.`),
  );
}

/** The account in one line: how many watches, how many of them fail or are paused. */
function Glance({ watches, runs }) {
  const failingCount = watches.filter((w) => failing(runs[w.id])).length;
  const paused = watches.filter((w) => !w.enabled).length;
  const parts = [
    `${watches.length} ${watches.length === 1 ? 'watch' : 'watches'}`,
    failingCount ? `${failingCount} failing` : 'none failing',
    paused ? `${paused} paused` : null,
  ].filter(Boolean);
  return h('p', { class: `glance${failingCount ? ' failing' : ''}` }, parts.join(' · '));
}

export function WatchList() {
  const list = useLoad(() => get('/watches'));
  const [watches, setWatches] = useState(null);
  // each watch's newest runs, newest first
  const [runs, setRuns] = useState({});
  const [query, setQuery] = useState('');
  const all = useAction();
  const [progress, setProgress] = useState(null);
  const [report, setReport] = useState(null);

  useEffect(() => {
    if (!list.data) return;
    setWatches(list.data.watches);
    list.data.watches.forEach((w) =>
      get(`/watches/${enc(w.id)}/runs?limit=${RECENT_RUNS}`).then(
        (r) => setRuns((known) => ({ ...known, [w.id]: r.runs })),
        () => {},
      ),
    );
  }, [list.data]);

  const ran = (watchId, result) => setRuns((known) => ({ ...known, [watchId]: prepend(known[watchId], result) }));
  const names = Object.fromEntries((watches || []).map((w) => [w.id, w.name]));
  const startAll = () =>
    all.act(async () => {
      setReport(null);
      setProgress({ since: Date.now(), done: [] });
      try {
        const result = await runAll((o) => setProgress((p) => ({ ...p, done: [...p.done, o] })));
        setReport(result);
        result.outcomes.forEach((o) => o.result && ran(o.watchId, o.result));
      } catch (e) {
        if (e.status === 409) throw new Error('A run-all is already in progress. Its results will show in each watch’s history.');
        throw e;
      } finally {
        setProgress(null);
      }
    });

  const q = query.trim().toLowerCase();
  // failing watches first, the others in the service's order
  const shown = (watches || [])
    .filter((w) => !q || w.name.toLowerCase().includes(q) || w.condition.toLowerCase().includes(q) || w.id.toLowerCase().includes(q))
    .map((w, i) => [w, i])
    .sort(([a, i], [b, j]) => failing(runs[b.id]) - failing(runs[a.id]) || i - j)
    .map(([w]) => w);
  return h(
    Page,
    {
      title: 'Watches',
      actions: [
        h(Link, { href: '/new-watch', class: 'button primary' }, h(Icon, { name: 'plus' }), 'New watch'),
        h(Link, { href: '/assist', class: 'button secondary' }, h(Icon, { name: 'sparkle' }), 'Draft with AI'),
        h(Button, { busy: all.busy, onClick: startAll, disabled: !watches?.length }, h(Icon, { name: 'repeat' }), all.busy ? 'Running all…' : 'Run all'),
      ],
    },
    progress
      ? h(
          'p',
          { role: 'status', class: 'progress' },
          `Running all enabled watches… ${progress.done.length} finished`,
          h(Elapsed, { since: progress.since }),
        )
      : null,
    all.error ? h('div', { class: 'error', role: 'alert' }, explain(all.error)) : null,
    report ? h(RunAllReport, { result: report, names }) : null,
    list.error ? h(ErrorMessage, { error: list.error }) : null,
    !watches && !list.error
      ? h(Loading, { what: 'Loading your watches…' })
      : watches && watches.length === 0
        ? h(
            Empty,
            null,
            h('p', null, 'You have no watches yet.'),
            h('p', null, h(Link, { href: '/assist' }, 'Describe what to watch'), ' and let the assistant draft it, or ', h(Link, { href: '/new-watch' }, 'write one yourself'), '.'),
          )
        : watches
          ? [
              h(Glance, { watches, runs }),
              h(RecentAlerts, { watches, runs }),
              h(
                'section',
                { class: 'watch-section', 'aria-labelledby': 'your-watches' },
                h('h2', { id: 'your-watches' }, 'Your watches'),
                h(
                  'div',
                  { class: 'search', role: 'search' },
                  h('label', { for: 'watch-search' }, 'Search watches'),
                  h('input', { id: 'watch-search', type: 'search', value: query, onInput: (e) => setQuery(e.target.value) }),
                ),
                shown.length
                  ? h(
                      'ul',
                      { class: 'watches' },
                      shown.map((w) =>
                        h(WatchRow, {
                          key: w.id,
                          watch: w,
                          runs: runs[w.id],
                          onRan: (result) => ran(w.id, result),
                          onChanged: (changed) => setWatches((ws) => ws.map((x) => (x.id === changed.id ? changed : x))),
                        }),
                      ),
                    )
                  : h(Empty, null, h('p', null, 'No watch matches this search.')),
              ),
            ]
          : null,
  );
}
