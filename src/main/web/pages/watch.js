// One watch: its state in one line, what it is, run it now, test it (a dry run), explain it, what its
// model calls took this month, how often it is right, and its run history (pages/history.js); a
// deleted watch's history stays readable at its address.
import { h } from 'preact';
import { useState } from 'preact/hooks';
import { api, enc, get, post } from '../lib/api.js';
import { describe } from '../lib/cron.js';
import { Icon } from '../lib/icons.js';
import { TIERS } from '../lib/outcomes.js';
import { Link } from '../lib/router.js';
import { when } from '../lib/time.js';
import { Button, ErrorMessage, Facts, Loading, Page, loaded, useAction, useLoad } from '../lib/ui.js';
import { qualitySentence } from '../lib/quality.js';
import { sourceWhat } from '../lib/sources.js';
import { spent } from '../lib/usage.js';
import { DryRunReport } from '../lib/dryrun.js';
import { loadRuns, RunHistory, StateLine } from '../lib/history.js';
import { ChannelTests } from '../lib/channels.js';

const tierName = (t) => (TIERS.find(([v]) => v === t) || [t, t])[1];

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
  const runs = useLoad(() => loadRuns(id), [id, fresh]);
  if (watch.error?.status === 404) return h(DeletedWatch, { id, runs });
  if (watch.error)
    return h(
      Page,
      { title: 'Watch' },
      h(ErrorMessage, { error: watch.error }),
      h(Link, { href: '/' }, 'Back to your watches'),
    );
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
        h(
          Button,
          { kind: 'primary', busy: run.busy, onClick: runNow },
          h(Icon, { name: 'play' }),
          run.busy ? 'Running…' : 'Run now',
        ),
        h(Button, { busy: trial.busy, onClick: testNow }, trial.busy ? 'Testing…' : 'Test now'),
        h(Link, { href: `/watch/${enc(id)}/edit`, class: 'button secondary' }, h(Icon, { name: 'pencil' }), 'Edit'),
        h(
          Link,
          { href: `/watch/${enc(id)}/revise`, class: 'button secondary' },
          h(Icon, { name: 'sparkle' }),
          'Revise with AI',
        ),
        h(Link, { href: `/watch/${enc(id)}/versions`, class: 'button secondary' }, 'Versions'),
        h(Button, { busy: explain.busy, onClick: explainIt }, 'Explain'),
      ],
    },
    h(StateLine, { watch: w, runs: runs.data?.runs }),
    run.busy
      ? h('p', { class: 'progress', role: 'status' }, 'Running: collecting the sources and asking the model…')
      : null,
    trial.busy
      ? h(
          'p',
          { class: 'progress', role: 'status' },
          'Testing: collecting the sources and asking the model, sending nothing…',
        )
      : null,
    h(ErrorMessage, { error: run.error || explain.error || trial.error }),
    tested ? h(DryRunReport, { answer: tested }) : null,
    explanation
      ? h(
          'div',
          { class: 'report', role: 'status' },
          h('h2', null, 'In plain words'),
          h('p', { class: 'pre' }, explanation),
        )
      : null,
    h(Facts, {
      items: [
        ['Condition', w.condition],
        ['Schedule', `${describe(w.schedule, w.timeZone)} (${w.schedule})${w.enabled ? '' : ', paused'}`],
        [
          'Sources',
          h(
            'ul',
            null,
            w.sources.map((s) =>
              h(
                'li',
                null,
                `${sourceWhat(s)}${s.trust ? ` · ${tierName(s.trust)}` : ''}${s.recencyDays ? ` · last ${s.recencyDays} days` : ''}`,
              ),
            ),
          ),
        ],
        [
          'Threshold',
          `${Math.round(w.threshold * 100)}%${w.weakThreshold !== undefined ? `, weak alerts from ${Math.round(w.weakThreshold * 100)}%` : ''}`,
        ],
        ['Channels', w.channels.length ? h(ChannelTests, { watchId: id, channels: w.channels }) : 'none'],
        [
          'Quiet hours',
          w.quietHours
            ? `${w.quietHours.start}–${w.quietHours.end}${w.quietHours.timeZone ? ` (${w.quietHours.timeZone})` : ''}`
            : 'none',
        ],
        ['Digest', w.digest ?? 'none'],
        ['Model use this month', usage.data ? spent(usage.data.month) : null],
        ['How often it is right', quality.data ? qualitySentence(quality.data) : null],
      ],
    }),
    h('h2', null, 'Runs'),
    h(Runs, { id, runs, onFeedback: () => setRated((n) => n + 1) }),
  );
}

function Runs({ id, runs, onFeedback, readOnly }) {
  if (runs.error) return h(ErrorMessage, { error: runs.error });
  if (!runs.data) return h(Loading, { what: 'Loading the run history…' });
  // a new first page (after "Run now") starts the rows, their filters and their paging afresh
  return h(RunHistory, {
    key: runs.data.runs[0]?.runId || 'none',
    watchId: id,
    first: runs.data,
    onFeedback,
    readOnly,
  });
}

/** A deleted watch: its definition is gone, its run history is kept and read at the same address. */
function DeletedWatch({ id, runs }) {
  if (runs.error || !runs.data)
    return h(
      Page,
      { title: 'Watch' },
      runs.error
        ? [h(ErrorMessage, { error: runs.error }), h(Link, { href: '/' }, 'Back to your watches')]
        : h(Loading),
    );
  return h(
    Page,
    { title: `Deleted watch ${id}` },
    h('p', { class: 'notice' }, 'This watch was deleted: it no longer runs, and its run history is kept here.'),
    h('h2', null, 'Runs'),
    h(Runs, { id, runs, readOnly: true }),
  );
}

export function Statistics() {
  const stats = useLoad(() => get('/collection/stats'));
  return h(
    Page,
    { title: 'Collection statistics' },
    h(ErrorMessage, { error: stats.error }),
    loaded(stats, (s) =>
      h(
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
            [
              'Extraction rate',
              s.extractionRate !== undefined ? `${Math.round(s.extractionRate * 100)}%` : 'no page yet',
            ],
          ],
        }),
      ),
    ),
  );
}
