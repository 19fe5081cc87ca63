// A candidate condition and thresholds tried on a watch's past runs before they are saved: the
// backtest runs as a job on the service; its runs arrive as they are judged again.
import { h } from 'preact';
import { useState } from 'preact/hooks';
import { enc, events, get, post } from './api.js';
import { Outcome } from './outcomes.js';
import { when } from './time.js';
import { spent } from './usage.js';
import { Button, ErrorMessage, Table } from './ui.js';

const FEEDBACK = { useful: 'Useful', wrong: 'Wrong', missed: 'Missed' };

/** The backtest job of {@code candidate} on the watch, followed to its end; onRun per run tried. */
async function backtest(id, candidate, onRun) {
  const { job } = await post(`/watches/${enc(id)}/backtest?async=true`, candidate);
  const jobPath = `/watches/${enc(id)}/backtest/jobs/${enc(job.id)}`;
  try {
    await events(`${jobPath}/events`, (event, data) => {
      if (event === 'run' && data) onRun(data);
      return event !== 'done';
    });
  } catch {
    // no stream: ask for the job until it ends
    for (;;) {
      const { job: now } = await get(jobPath);
      if (now.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  const { job: finished } = await get(jobPath);
  if (finished.status === 'failed') throw new Error(finished.error || 'the backtest failed');
  return finished;
}

/** The summary as a person reads it. */
function sentence(s) {
  const parts = [`${s.changed} of ${s.replayed} runs judged again would change`];
  parts.push(`${s.alertsCandidate} would alert where ${s.alertsRecorded} did`);
  const feedback = [];
  if (s.usefulLost) feedback.push(`${s.usefulLost} marked useful would no longer alert`);
  if (s.wrongAlerting) feedback.push(`${s.wrongAlerting} marked wrong would alert`);
  if (s.missedFound) feedback.push(`${s.missedFound} marked missed now would`);
  const skipped = [];
  if (s.notReplayable) skipped.push(`${s.notReplayable} recorded before runs kept what they judged`);
  if (s.failed) skipped.push(`${s.failed} got no verdict`);
  return `${parts.join('; ')}.${feedback.length ? ` Against your feedback: ${feedback.join(', ')}.` : ''}${skipped.length ? ` Not judged again: ${skipped.join(', ')}.` : ''}`;
}

/** "Backtest this revision": the button, then the comparison. */
export function Backtest({ id, candidate }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const [tried, setTried] = useState(0);
  const [result, setResult] = useState(null);
  const start = async () => {
    setBusy(true);
    setError(null);
    setResult(null);
    setTried(0);
    try {
      setResult(await backtest(id, candidate, () => setTried((n) => n + 1)));
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return h(
    'section',
    { class: 'backtest', 'aria-label': 'Backtest' },
    h(Button, { busy, onClick: start }, busy ? `Backtesting… ${tried} runs` : 'Backtest this revision'),
    h(ErrorMessage, { error }),
    result
      ? h(
          'div',
          { role: 'status' },
          h('h2', null, 'Backtest on past runs'),
          result.total === 0
            ? h('p', null, 'This watch has no past run that asked the model: nothing to compare.')
            : [
                h('p', { class: 'backtest-summary' }, sentence(result.summary)),
                h('p', { class: 'muted' }, spent(result.usage)),
                h(Table, {
                  class: 'diff',
                  rows: result.runs,
                  rowKey: (r) => r.runId,
                  rowClass: (r) => (r.changed ? 'changed' : null),
                  columns: [
                    { header: 'Run', heading: true, cell: (r) => when(r.startedAt) },
                    { header: 'Recorded', cell: (r) => h(Outcome, { outcome: r.recorded.outcome }) },
                    {
                      header: 'With the revision',
                      cell: (r) =>
                        r.candidate
                          ? [
                              h(Outcome, { outcome: r.candidate.outcome }),
                              r.changed ? h('span', { class: 'muted' }, ' changed') : null,
                            ]
                          : r.status === 'failed'
                            ? `no verdict: ${r.error}`
                            : 'not kept (an older run)',
                    },
                    { header: 'Your feedback', cell: (r) => FEEDBACK[r.feedback] || '' },
                  ],
                }),
              ],
        )
      : null,
  );
}
