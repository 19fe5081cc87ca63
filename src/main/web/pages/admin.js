// Administration (administrators only; the service refuses everyone else with 403 anyway):
// accounts, the key pools, and the models asked for verdicts and assistance.
import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { del, enc, get, post, put } from '../lib/api.js';
import { Link } from '../lib/router.js';
import { when } from '../lib/time.js';
import {
  Button,
  Empty,
  ErrorMessage,
  Loading,
  Page,
  PlainList,
  Select,
  Table,
  TextField,
  explain,
  issuesAt,
  loaded,
  useAction,
  useLoad,
} from '../lib/ui.js';

const SECTIONS = [
  ['/administration/accounts', 'Accounts'],
  ['/administration/keys', 'Keys'],
  ['/administration/model', 'Models'],
  ['/administration/audit', 'Audit log'],
];

function AdminPage({ title, path, children }) {
  return h(
    Page,
    { title },
    h(
      'nav',
      { 'aria-label': 'Administration', class: 'subnav' },
      h(
        'ul',
        { class: 'row plain-row' },
        SECTIONS.map(([href, text]) =>
          h('li', null, h(Link, { href, 'aria-current': href === path ? 'page' : undefined }, text)),
        ),
      ),
    ),
    children,
  );
}

// The quotas an administrator may override per account, with their words.
const QUOTAS = [
  ['maxWatches', 'Watches'],
  ['maxSourcesPerWatch', 'Sources per watch'],
  ['minIntervalMinutes', 'Shortest interval (minutes)'],
  ['modelCallsPerDay', 'Model calls a day'],
  ['modelTokensPerMonth', 'Model tokens a month'],
  ['modelCostPerMonth', 'Model cost a month'],
];

/** An account's quotas: its overrides as a form (empty: the operator's default), with its usage. */
function QuotaForm({ id, onDone }) {
  const report = useLoad(() => get(`/admin/users/${enc(id)}/quotas`), [id]);
  const [form, setForm] = useState(null);
  const save = useAction();
  useEffect(
    () =>
      report.data &&
      setForm(
        Object.fromEntries(
          QUOTAS.map(([k]) => [k, report.data.overrides?.[k] == null ? '' : String(report.data.overrides[k])]),
        ),
      ),
    [report.data],
  );
  if (report.error) return h(ErrorMessage, { error: report.error });
  if (!form) return h(Loading);
  const r = report.data;
  const submit = () =>
    save.act(async () => {
      const body = Object.fromEntries(
        QUOTAS.map(([k]) => [
          k,
          form[k].trim() === '' ? null : Number.isFinite(Number(form[k])) ? Number(form[k]) : form[k],
        ]),
      );
      await put(`/admin/users/${enc(id)}/quotas`, body);
      onDone(`Quotas of ${id} saved.`);
    });
  return h(
    'form',
    { class: 'form quota-form', onSubmit: (e) => (e.preventDefault(), submit()) },
    h('h3', null, `Quotas of ${id}`),
    h(
      'p',
      { class: 'meta' },
      `Uses ${r.usage.watches} watches, ${r.usage.modelCallsToday} model calls today, ${r.usage.modelTokensThisMonth} tokens this month.`,
    ),
    QUOTAS.map(([k, text]) =>
      h(TextField, {
        key: k,
        label: text,
        inputmode: 'decimal',
        value: form[k],
        onInput: (v) => setForm((f) => ({ ...f, [k]: v })),
        issues: issuesAt(save.error, [k]),
        hint: `Empty: the default, ${r.quotas[k] == null && r.overrides?.[k] == null ? 'no limit' : r.overrides?.[k] == null ? r.quotas[k] : 'the operator’s'}.`,
      }),
    ),
    h(ErrorMessage, { error: save.error }),
    h(
      'div',
      { class: 'actions' },
      h(Button, { type: 'submit', kind: 'primary', busy: save.busy }, 'Save quotas'),
      h(Button, { onClick: () => onDone(null) }, 'Close'),
    ),
  );
}

/** What an administrator can do to one account, with the row's busy flag and error. */
function useAccountActions(u, { onChanged, onDone }) {
  const act = useAction();
  const base = `/admin/users/${enc(u.id)}`;
  const change = (work, said) =>
    act.act(async () => {
      const changed = await work();
      onChanged(changed);
      onDone(said);
    });
  return {
    busy: act.busy,
    error: act.error,
    disable: () =>
      change(() => post(`${base}/disable`), `${u.id} is disabled: it cannot sign in and its watches do not run.`),
    enable: () => change(() => post(`${base}/enable`), `${u.id} is enabled again.`),
    role: (r) =>
      change(
        () => put(`${base}/role`, { role: r }),
        `${u.id} is now ${r === 'admin' ? 'an administrator' : 'a user'}.`,
      ),
    reset: () =>
      act.act(async () => {
        await post(`${base}/reset-password`);
        onDone(`A link to choose a new password was mailed to ${u.email}.`);
      }),
    remove: () =>
      act.act(async () => {
        if (
          !window.confirm(
            `Delete the account ${u.id} (${u.email})? Its watches, trust rules, devices and feedback are removed; its run history is kept.`,
          )
        )
          return;
        await del(base);
        onChanged(null);
        onDone(`${u.id} is deleted.`);
      }),
  };
}

/** The accounts table's columns: who each account is, and what an administrator can do to it. */
const accountColumns = ({ me, mail, onQuotas }) => [
  { header: 'Id', cell: (u) => [u.id, u.id === me ? ' (you)' : ''] },
  { header: 'Email', cell: (u) => u.email },
  {
    header: 'Role',
    cell: (u, act) =>
      h(
        'select',
        {
          'aria-label': `Role of ${u.id}`,
          value: u.role,
          disabled: act.busy,
          onChange: (e) => act.role(e.target.value),
        },
        h('option', { value: 'user' }, 'User'),
        h('option', { value: 'admin' }, 'Administrator'),
      ),
  },
  {
    header: 'State',
    cell: (u) => [
      u.disabled
        ? h('span', { class: 'badge key-dead' }, 'disabled')
        : h('span', { class: 'badge key-active' }, 'active'),
      u.emailVerified ? '' : ' · unverified',
    ],
  },
  {
    header: 'Actions',
    class: 'row-actions',
    cell: (u, act) => [
      u.disabled
        ? h(Button, { busy: act.busy, onClick: act.enable, 'aria-label': `Enable ${u.id}` }, 'Enable')
        : h(Button, { busy: act.busy, onClick: act.disable, 'aria-label': `Disable ${u.id}` }, 'Disable'),
      // the reset is a mailed link: without SMTP only the command line can issue one
      mail
        ? h(Button, { busy: act.busy, onClick: act.reset, 'aria-label': `Reset password of ${u.id}` }, 'Reset password')
        : null,
      h(Button, { onClick: () => onQuotas(u.id), 'aria-label': `Quotas of ${u.id}` }, 'Quotas'),
      h(Button, { kind: 'danger', busy: act.busy, onClick: act.remove, 'aria-label': `Delete ${u.id}` }, 'Delete'),
      act.error ? h('p', { class: 'error', role: 'alert' }, explain(act.error)) : null,
    ],
  },
];

export function Accounts({ who }) {
  const list = useLoad(() => get('/admin/users'));
  const [users, setUsers] = useState(null);
  const [quotasOf, setQuotasOf] = useState(null);
  const [said, setSaid] = useState(null);
  const status = useLoad(() => get('/config/status', { anonymous: true }));
  const mail = status.data?.email;
  useEffect(() => list.data && setUsers(list.data.users), [list.data]);
  const [form, setForm] = useState({ id: '', email: '', role: 'user', password: '' });
  const create = useAction();
  const set = (k) => (v) => setForm((f) => ({ ...f, [k]: v }));
  const submit = () =>
    create.act(async () => {
      const made = await post('/admin/users', form);
      setForm({ id: '', email: '', role: 'user', password: '' });
      setUsers((us) => [...(us || []), made]);
    });
  return h(
    AdminPage,
    { title: 'Accounts', path: '/administration/accounts' },
    h(ErrorMessage, { error: list.error }),
    said ? h('p', { class: 'notice', role: 'status' }, said) : null,
    status.data && !mail
      ? h(
          'p',
          { class: 'meta' },
          'This instance sends no mail, so passwords are reset on the command line: ',
          h('code', null, 'java -jar periscope.jar users reset-password ID'),
          ' prints a one-time password.',
        )
      : null,
    loaded({ data: users, error: list.error }, () =>
      h(Table, {
        class: 'accounts',
        rows: users,
        rowKey: (u) => u.id,
        rowClass: (u) => (u.disabled ? 'disabled' : undefined),
        columns: accountColumns({ me: who?.id, mail, onQuotas: setQuotasOf }),
        useRow: (u) =>
          useAccountActions(u, {
            onDone: setSaid,
            onChanged: (changed) =>
              setUsers((us) =>
                changed ? us.map((x) => (x.id === u.id ? changed : x)) : us.filter((x) => x.id !== u.id),
              ),
          }),
      }),
    ),
    quotasOf
      ? h(QuotaForm, { key: quotasOf, id: quotasOf, onDone: (text) => (setQuotasOf(null), text && setSaid(text)) })
      : null,
    h('h2', null, 'Create an account'),
    h(
      'form',
      { class: 'form', onSubmit: (e) => (e.preventDefault(), submit()) },
      h(TextField, { label: 'Account id', value: form.id, onInput: set('id'), issues: issuesAt(create.error, ['id']) }),
      h(TextField, {
        label: 'Email',
        type: 'email',
        value: form.email,
        onInput: set('email'),
        issues: issuesAt(create.error, ['email']),
      }),
      h(Select, {
        label: 'Role',
        value: form.role,
        onChange: set('role'),
        options: [
          ['user', 'User'],
          ['admin', 'Administrator'],
        ],
      }),
      h(TextField, {
        label: 'Password',
        type: 'password',
        autocomplete: 'new-password',
        value: form.password,
        onInput: set('password'),
        issues: issuesAt(create.error, ['password']),
      }),
      h(ErrorMessage, { error: create.error }),
      h(Button, { type: 'submit', kind: 'primary', busy: create.busy }, 'Create account'),
    ),
  );
}

/** A 422 or 502 of a key probe: what the provider said about the key. */
function keyRefusal(error) {
  if (error?.status === 422) return `The provider rejected this key: ${error.message}`;
  if (error?.status === 502) return `The provider could not be asked: ${error.message}`;
  return explain(error);
}

function KeyRow({ k, onChanged }) {
  const [limit, setLimit] = useState(k.dailyLimit ?? '');
  const act = useAction();
  const base = `/admin/keys/${enc(k.pool)}/${enc(k.id)}`;
  const probe = () => act.act(async () => onChanged(await post(`${base}/probe`)));
  const saveLimit = () =>
    act.act(async () =>
      onChanged(await put(`${base}/daily-limit`, { dailyLimit: limit === '' ? null : Number(limit) })),
    );
  const remove = () =>
    act.act(async () => {
      if (!window.confirm(`Remove the key ${k.label}?`)) return;
      await del(base);
      onChanged(null);
    });
  return h(
    'li',
    { class: 'card' },
    h(
      'p',
      null,
      h('strong', null, `${k.pool}: ${k.label}`),
      ' · ',
      h('span', { class: `badge key-${k.status}` }, k.status),
      k.cooldownUntil ? ` until ${when(k.cooldownUntil)}` : '',
    ),
    h(
      'p',
      { class: 'meta' },
      `Used today: ${k.usedToday}${k.dailyLimit ? ` of ${k.dailyLimit}` : ' (no daily limit)'}`,
      k.lastProblem ? ` · last problem: ${k.lastProblem}` : '',
    ),
    h(
      'form',
      { class: 'row', onSubmit: (e) => (e.preventDefault(), saveLimit()) },
      h(TextField, {
        label: `Daily limit of ${k.label}`,
        type: 'number',
        min: 1,
        value: limit,
        onInput: setLimit,
        hint: 'Empty: no limit',
      }),
      h(Button, { type: 'submit', busy: act.busy }, 'Set limit'),
      h(Button, { busy: act.busy, onClick: probe }, 'Probe'),
      h(Button, { kind: 'danger', busy: act.busy, onClick: remove }, 'Remove'),
    ),
    act.error ? h('p', { class: 'error', role: 'alert' }, keyRefusal(act.error)) : null,
  );
}

/** What an empty pool, or one without a usable key, breaks. */
const POOLS = [
  [
    'model',
    'Model',
    'runs cannot judge new items (they end in error), and drafting, revising and explaining with AI are off',
  ],
  [
    'search',
    'Search',
    'search sources fail on every run and search previews are off; drafts that propose a search are warned about',
  ],
];

function PoolWarnings({ keys }) {
  return POOLS.map(([pool, name, breaks]) => {
    const pooled = keys.filter((k) => k.pool === pool);
    if (pooled.some((k) => k.status === 'active')) return null;
    return h(
      'p',
      { key: pool, class: 'notice pool-empty', 'data-pool': pool },
      h('strong', null, pooled.length ? `${name} pool: no usable key. ` : `${name} pool is empty. `),
      `Until a key is added here, ${breaks}.`,
    );
  });
}

export function Keys() {
  const list = useLoad(() => get('/admin/keys'));
  const [keys, setKeys] = useState(null);
  const [pool, setPool] = useState('model');
  const [key, setKey] = useState('');
  const add = useAction();
  useEffect(() => list.data && setKeys(list.data.keys), [list.data]);
  const submit = () =>
    add.act(async () => {
      const added = await post(`/admin/keys/${enc(pool)}`, { key });
      setKey('');
      setKeys((ks) => [...(ks || []), added]);
    });
  return h(
    AdminPage,
    { title: 'Keys', path: '/administration/keys' },
    h(ErrorMessage, { error: list.error }),
    keys ? h(PoolWarnings, { keys }) : null,
    loaded({ data: keys, error: list.error }, () =>
      h(PlainList, {
        items: keys,
        empty: h(Empty, null, h('p', null, 'No key yet.')),
        item: (k) =>
          h(KeyRow, {
            key: `${k.pool}/${k.id}`,
            k,
            onChanged: (changed) =>
              setKeys((ks) =>
                changed ? ks.map((x) => (x.pool === k.pool && x.id === k.id ? changed : x)) : ks.filter((x) => x !== k),
              ),
          }),
      }),
    ),
    h('h2', null, 'Add a key'),
    h('p', null, 'The provider is asked first; a key it rejects is not added.'),
    h(
      'form',
      { class: 'form', onSubmit: (e) => (e.preventDefault(), submit()) },
      h(Select, {
        label: 'Pool',
        value: pool,
        onChange: setPool,
        options: [
          ['model', 'Model'],
          ['search', 'Search'],
        ],
      }),
      h(TextField, {
        label: 'Key',
        type: 'password',
        autocomplete: 'off',
        value: key,
        onInput: setKey,
        issues: issuesAt(add.error, ['key']),
      }),
      add.error ? h('p', { class: 'error', role: 'alert' }, keyRefusal(add.error)) : null,
      h(Button, { type: 'submit', kind: 'primary', busy: add.busy, disabled: !key }, 'Add key'),
    ),
  );
}

// A model's price per million tokens, as typed: the three amounts of the service's ModelPrice.
const PRICES = [
  ['inputPerMillion', 'input price'],
  ['cachedInputPerMillion', 'cached input price'],
  ['outputPerMillion', 'output price'],
];

/** A model as the form holds it: its price's amounts as text ('' for none). */
function choiceForm(choice) {
  return {
    ...choice,
    price: Object.fromEntries(PRICES.map(([k]) => [k, choice.price?.[k] == null ? '' : String(choice.price[k])])),
  };
}

/**
 * The model as the service takes it: no price when every amount is empty; an amount that is not a
 * number goes as typed, so the service names the field that is wrong.
 */
function choiceBody({ price, ...choice }) {
  const typed = PRICES.map(([k]) => [k, price[k].trim()]).filter(([, v]) => v !== '');
  if (!typed.length) return choice;
  return {
    ...choice,
    price: Object.fromEntries(typed.map(([k, v]) => [k, Number.isFinite(Number(v)) ? Number(v) : v])),
  };
}

function ChoiceFields({ legend, choice, onChange, error, at }) {
  const set = (k) => (v) => onChange({ ...choice, [k]: v });
  const setPrice = (k) => (v) => onChange({ ...choice, price: { ...choice.price, [k]: v } });
  return h(
    'fieldset',
    null,
    h('legend', null, legend),
    h(Select, {
      label: `${legend}: provider`,
      value: choice.provider,
      onChange: set('provider'),
      options: [
        ['openai', 'OpenAI-compatible'],
        ['anthropic', 'Anthropic'],
      ],
    }),
    h(TextField, {
      label: `${legend}: base URL`,
      value: choice.baseUrl,
      onInput: set('baseUrl'),
      issues: issuesAt(error, [at, 'baseUrl']),
    }),
    h(TextField, {
      label: `${legend}: model`,
      value: choice.model,
      onInput: set('model'),
      issues: issuesAt(error, [at, 'model']),
    }),
    PRICES.map(([k, text]) =>
      h(TextField, {
        label: `${legend}: ${text}`,
        inputmode: 'decimal',
        value: choice.price[k],
        onInput: setPrice(k),
        hint:
          k === 'cachedInputPerMillion'
            ? 'Per million tokens read from the provider’s prompt cache; empty: as input.'
            : 'Per million tokens, in the unit you choose (for example US dollars).',
        issues: issuesAt(error, [at, 'price', k]),
      }),
    ),
  );
}

export function Models() {
  const current = useLoad(() => get('/admin/model'));
  const [form, setForm] = useState(null);
  const save = useAction();
  useEffect(
    () =>
      current.data &&
      setForm({ verdicts: choiceForm(current.data.verdicts), assistance: choiceForm(current.data.assistance) }),
    [current.data],
  );
  const submit = () =>
    save.act(async () => {
      await put('/admin/model', { verdicts: choiceBody(form.verdicts), assistance: choiceBody(form.assistance) });
      current.reload();
    });
  const reset = () =>
    save.act(async () => {
      await del('/admin/model');
      current.reload();
    });
  const c = current.data;
  return h(
    AdminPage,
    { title: 'Models', path: '/administration/model' },
    h(ErrorMessage, { error: current.error }),
    loaded({ data: form, error: current.error }, () =>
      h(
        'form',
        { class: 'form', onSubmit: (e) => (e.preventDefault(), submit()) },
        h(
          'p',
          { role: 'status' },
          c.source === 'admin'
            ? `Set by ${c.changedBy} on ${when(c.changedAt)}.`
            : 'From the service’s environment (MODEL_PROVIDER, MODEL_BASE_URL, MODEL_NAME).',
        ),
        h(ChoiceFields, {
          legend: 'Verdicts',
          at: 'verdicts',
          choice: form.verdicts,
          error: save.error,
          onChange: (v) => setForm({ ...form, verdicts: v }),
        }),
        h(ChoiceFields, {
          legend: 'Assistance',
          at: 'assistance',
          choice: form.assistance,
          error: save.error,
          onChange: (v) => setForm({ ...form, assistance: v }),
        }),
        h(ErrorMessage, { error: save.error }),
        h(
          'div',
          { class: 'actions' },
          h(Button, { type: 'submit', kind: 'primary', busy: save.busy }, 'Save models'),
          c.source === 'admin'
            ? h(Button, { busy: save.busy, onClick: reset }, 'Back to the environment’s models')
            : null,
        ),
      ),
    ),
  );
}

const ACTIONS = {
  create: 'created',
  disable: 'disabled',
  enable: 'enabled',
  'set-role': 'set the role of',
  'reset-password': 'reset the password of',
  delete: 'deleted',
  invite: 'invited',
};

/** Who did what to which account, newest first. */
export function Audit() {
  const log = useLoad(() => get('/admin/audit?limit=200'));
  return h(
    AdminPage,
    { title: 'Audit log', path: '/administration/audit' },
    h(ErrorMessage, { error: log.error }),
    loaded(log, ({ entries }) =>
      h(Table, {
        rows: entries,
        empty: h(Empty, null, h('p', null, 'No administrator has acted yet.')),
        columns: [
          { header: 'When', cell: (e) => when(e.at) },
          { header: 'Who', cell: (e) => e.by },
          { header: 'What', cell: (e) => ACTIONS[e.action] || e.action },
          { header: 'Account', cell: (e) => e.target },
          { header: 'Detail', cell: (e) => e.detail || '' },
        ],
      }),
    ),
  );
}
