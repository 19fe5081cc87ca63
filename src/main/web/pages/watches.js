// The watch list: schedules in words, next run, last outcome; run one or all of them now.
import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, enc, events, get, put } from '../lib/api.js';
import { describe, nextTimes } from '../lib/cron.js';
import { Outcome, failureReason } from '../lib/outcomes.js';
import { Link } from '../lib/router.js';
import { when, duration } from '../lib/time.js';
import { Button, Empty, ErrorMessage, Loading, Page, explain, useAction, useLoad } from '../lib/ui.js';
import { editable } from '../lib/watchform.js';

function Elapsed({ since }) {
  const [, tick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, []);
  return h('span', null, ` (${Math.round((Date.now() - since) / 1000)} s)`);
}

function WatchRow({ watch, last, onChanged }) {
  const toggle = useAction();
  const run = useAction();
  const [running, setRunning] = useState(null);
  const [result, setResult] = useState(null);
  // the switch shows the person's choice while the service takes it, and goes back only if refused
  const [pending, setPending] = useState(null);
  const next = watch.enabled ? nextTimes(watch.schedule, 1, new Date(), watch.timeZone)[0] : null;
  const shown = result || last;
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
        setResult(r.body.result);
      } finally {
        setRunning(null);
      }
    });
  return h(
    'li',
    { class: 'watch' },
    h(
      'div',
      { class: 'watch-main' },
      h('h2', null, h(Link, { href: `/watch/${enc(watch.id)}` }, watch.name)),
      h('p', { class: 'meta' }, describe(watch.schedule, watch.timeZone), next ? ` · next run ${when(next)}` : watch.enabled ? '' : ' · paused'),
      h(
        'p',
        { class: 'meta' },
        shown
          ? [h(Outcome, { outcome: shown.outcome }), ` ${when(shown.startedAt)}`, shown.durationMs !== undefined ? ` · took ${duration(shown.durationMs)}` : '']
          : 'Not run yet',
      ),
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
      h(Button, { busy: run.busy, onClick: runNow }, run.busy ? 'Running…' : 'Run now', h('span', { class: 'visually-hidden' }, `: ${watch.name}`)),
      h(Link, { href: `/watch/${enc(watch.id)}/edit`, class: 'button secondary', 'aria-label': `Edit ${watch.name}` }, 'Edit'),
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
          o.status === 'ran' && o.result ? h(Outcome, { outcome: o.result.outcome }) : o.status,
          o.error ? ` — ${o.error}` : '',
        ),
      ),
    ),
  );
}

export function WatchList() {
  const list = useLoad(() => get('/watches'));
  const [watches, setWatches] = useState(null);
  const [last, setLast] = useState({});
  const [query, setQuery] = useState('');
  const all = useAction();
  const [progress, setProgress] = useState(null);
  const [report, setReport] = useState(null);

  useEffect(() => {
    if (!list.data) return;
    setWatches(list.data.watches);
    list.data.watches.forEach((w) =>
      get(`/watches/${enc(w.id)}/runs?limit=1`).then(
        (r) => r.runs[0] && setLast((l) => ({ ...l, [w.id]: r.runs[0] })),
        () => {},
      ),
    );
  }, [list.data]);

  const names = Object.fromEntries((watches || []).map((w) => [w.id, w.name]));
  const startAll = () =>
    all.act(async () => {
      setReport(null);
      setProgress({ since: Date.now(), done: [] });
      try {
        const result = await runAll((o) => setProgress((p) => ({ ...p, done: [...p.done, o] })));
        setReport(result);
        result.outcomes.forEach((o) => o.result && setLast((l) => ({ ...l, [o.watchId]: o.result })));
      } catch (e) {
        if (e.status === 409) throw new Error('A run-all is already in progress. Its results will show in each watch’s history.');
        throw e;
      } finally {
        setProgress(null);
      }
    });

  const q = query.trim().toLowerCase();
  const shown = (watches || []).filter(
    (w) => !q || w.name.toLowerCase().includes(q) || w.condition.toLowerCase().includes(q) || w.id.toLowerCase().includes(q),
  );
  return h(
    Page,
    {
      title: 'Watches',
      actions: [
        h(Link, { href: '/new-watch', class: 'button primary' }, 'New watch'),
        h(Link, { href: '/assist', class: 'button secondary' }, 'Draft with AI'),
        h(Button, { busy: all.busy, onClick: startAll, disabled: !watches?.length }, all.busy ? 'Running all…' : 'Run all'),
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
                        last: last[w.id],
                        onChanged: (changed) => setWatches((ws) => ws.map((x) => (x.id === changed.id ? changed : x))),
                      }),
                    ),
                  )
                : h(Empty, null, h('p', null, 'No watch matches this search.')),
            ]
          : null,
  );
}
