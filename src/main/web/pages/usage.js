// What the caller's model calls took: a bar a day (plain HTML and CSS, no chart library) and a
// table per watch, over the days chosen.
import { h } from 'preact';
import { useState } from 'preact/hooks';
import { get } from '../lib/api.js';
import { Link } from '../lib/router.js';
import { ErrorMessage, Page, Select, Table, loaded, useLoad } from '../lib/ui.js';
import { budgets, cost, spent, tokens } from '../lib/usage.js';

const PERIODS = [
  ['7', 'The last 7 days'],
  ['30', 'The last 30 days'],
  ['90', 'The last 90 days'],
  ['366', 'The last year'],
];

const dayName = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
const day = (date) => dayName.format(new Date(`${date}T00:00:00Z`));

function Chart({ days }) {
  const most = Math.max(1, ...days.map((d) => d.inputTokens + d.outputTokens));
  return h(
    'figure',
    { class: 'usage-chart' },
    h(
      'ol',
      { class: 'bars', 'aria-label': 'Tokens per day' },
      days.map((d) => {
        const used = d.inputTokens + d.outputTokens;
        const label = `${day(d.date)}: ${tokens(used)} tokens in ${d.calls} calls, cost ${cost(d.cost)}`;
        return h(
          'li',
          { key: d.date, title: label },
          h('span', { class: 'bar', style: `height: ${(100 * used) / most}%` }),
          h('span', { class: 'visually-hidden' }, label),
        );
      }),
    ),
    h(
      'figcaption',
      { class: 'meta' },
      `Tokens per UTC day, ${day(days[0].date)} to ${day(days[days.length - 1].date)}; the tallest bar is ${tokens(most)} tokens.`,
    ),
  );
}

// The month's budgets (modelTokensPerMonth, modelCostPerMonth) with the use against each; none
// when the administrator set none.
function Budgets({ report }) {
  const rows = budgets(report);
  if (!rows.length) return h('p', { class: 'meta budgets-none' }, 'No monthly budget is set for your account.');
  return h(
    'section',
    { class: 'budgets', 'aria-labelledby': 'budgets-title' },
    h('h2', { id: 'budgets-title' }, 'Budgets of the month'),
    h(
      'ul',
      { class: 'budget-list' },
      rows.map((b) =>
        h(
          'li',
          { key: b.key, class: b.spent ? 'budget spent' : 'budget' },
          h('span', { class: 'budget-name' }, `${b.name}: `),
          b.share == null
            ? null
            : h('meter', {
                min: 0,
                max: 1,
                low: 0.8,
                high: 0.95,
                optimum: 0,
                value: b.share,
                'aria-label': `${b.name} budget used`,
              }),
          ' ',
          h(
            'span',
            { class: 'budget-text' },
            b.text,
            b.share == null ? '' : ` (${Math.round(100 * (b.use / b.limit))}%)`,
          ),
          h(
            'span',
            { class: 'meta' },
            b.spent
              ? ` — spent: scheduled runs call no model and tests, backtests and assistance are refused until ${b.resets} (UTC).`
              : ` — resets ${b.resets} (UTC).`,
          ),
        ),
      ),
    ),
  );
}

export function Usage() {
  const [days, setDays] = useState('30');
  const usage = useLoad(() => get(`/account/usage?days=${days}`), [days]);
  const watches = useLoad(() => get('/watches'));
  const quotas = useLoad(() => get('/quotas'));
  const nameOf = (id) => watches.data?.watches.find((w) => w.id === id)?.name;
  return h(
    Page,
    { title: 'Model usage' },
    h(
      'p',
      null,
      'What the model calls of your watches and of AI assistance took. Costs are in the unit your administrator priced the model in.',
    ),
    h(Select, { label: 'Period', value: days, onChange: setDays, options: PERIODS }),
    h(ErrorMessage, { error: usage.error }),
    loaded(usage, (u) => [
      h('p', { class: 'usage-total' }, h('strong', null, 'This month: '), spent(u.month)),
      quotas.data ? h(Budgets, { report: quotas.data }) : null,
      h('p', null, h('strong', null, 'In the period: '), spent(u.total)),
      h(Chart, { days: u.days }),
      h('h2', null, 'Per watch'),
      h(Table, {
        rows: u.watches,
        rowKey: (w) => w.watchId,
        empty: h('p', { class: 'meta' }, 'No model call in the period.'),
        columns: [
          {
            header: 'Watch',
            cell: (w) =>
              w.watchId
                ? nameOf(w.watchId)
                  ? h(Link, { href: `/watch/${encodeURIComponent(w.watchId)}` }, nameOf(w.watchId))
                  : `${w.watchId} (deleted)`
                : 'Drafts (no watch)',
          },
          { header: 'Calls', cell: (w) => tokens(w.calls) },
          { header: 'Input tokens', cell: (w) => tokens(w.inputTokens) },
          { header: 'Output tokens', cell: (w) => tokens(w.outputTokens) },
          { header: 'Cost', cell: (w) => cost(w.cost) },
        ],
      }),
    ]),
  );
}
