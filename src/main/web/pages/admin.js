// Administration (administrators only; the service refuses everyone else with 403 anyway):
// accounts, the key pools, and the models asked for verdicts and assistance.
import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { del, enc, get, post, put } from '../lib/api.js';
import { Link } from '../lib/router.js';
import { when } from '../lib/time.js';
import { Button, Empty, ErrorMessage, Loading, Page, Select, TextField, explain, issuesAt, useAction, useLoad } from '../lib/ui.js';

const SECTIONS = [
  ['/administration/accounts', 'Accounts'],
  ['/administration/keys', 'Keys'],
  ['/administration/model', 'Models'],
];

function AdminPage({ title, path, children }) {
  return h(
    Page,
    { title },
    h('nav', { 'aria-label': 'Administration' }, h('ul', { class: 'row plain-row' }, SECTIONS.map(([href, text]) => h('li', null, h(Link, { href, 'aria-current': href === path ? 'page' : undefined }, text))))),
    children,
  );
}

export function Accounts() {
  const list = useLoad(() => get('/admin/users'));
  const [form, setForm] = useState({ id: '', email: '', role: 'user', password: '' });
  const create = useAction();
  const set = (k) => (v) => setForm((f) => ({ ...f, [k]: v }));
  const submit = () =>
    create.act(async () => {
      await post('/admin/users', form);
      setForm({ id: '', email: '', role: 'user', password: '' });
      list.reload();
    });
  return h(
    AdminPage,
    { title: 'Accounts', path: '/administration/accounts' },
    h(ErrorMessage, { error: list.error }),
    !list.data
      ? list.error ? null : h(Loading)
      : h(
          'div',
          { class: 'table-wrap' },
          h(
            'table',
            null,
            h('thead', null, h('tr', null, ['Id', 'Email', 'Role', 'Verified'].map((c) => h('th', { scope: 'col' }, c)))),
            h('tbody', null, list.data.users.map((u) => h('tr', { key: u.id }, h('td', null, u.id), h('td', null, u.email), h('td', null, u.role), h('td', null, u.emailVerified ? 'yes' : 'no')))),
          ),
        ),
    h('h2', null, 'Create an account'),
    h(
      'form',
      { class: 'form', onSubmit: (e) => (e.preventDefault(), submit()) },
      h(TextField, { label: 'Account id', value: form.id, onInput: set('id'), issues: issuesAt(create.error, ['id']) }),
      h(TextField, { label: 'Email', type: 'email', value: form.email, onInput: set('email'), issues: issuesAt(create.error, ['email']) }),
      h(Select, { label: 'Role', value: form.role, onChange: set('role'), options: [['user', 'User'], ['admin', 'Administrator']] }),
      h(TextField, { label: 'Password', type: 'password', autocomplete: 'new-password', value: form.password, onInput: set('password'), issues: issuesAt(create.error, ['password']) }),
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
  const saveLimit = () => act.act(async () => onChanged(await put(`${base}/daily-limit`, { dailyLimit: limit === '' ? null : Number(limit) })));
  const remove = () =>
    act.act(async () => {
      if (!window.confirm(`Remove the key ${k.label}?`)) return;
      await del(base);
      onChanged(null);
    });
  return h(
    'li',
    { class: 'card' },
    h('p', null, h('strong', null, `${k.pool}: ${k.label}`), ' · ', h('span', { class: `badge key-${k.status}` }, k.status), k.cooldownUntil ? ` until ${when(k.cooldownUntil)}` : ''),
    h('p', { class: 'meta' }, `Used today: ${k.usedToday}${k.dailyLimit ? ` of ${k.dailyLimit}` : ' (no daily limit)'}`, k.lastProblem ? ` · last problem: ${k.lastProblem}` : ''),
    h(
      'form',
      { class: 'row', onSubmit: (e) => (e.preventDefault(), saveLimit()) },
      h(TextField, { label: `Daily limit of ${k.label}`, type: 'number', min: 1, value: limit, onInput: setLimit, hint: 'Empty: no limit' }),
      h(Button, { type: 'submit', busy: act.busy }, 'Set limit'),
      h(Button, { busy: act.busy, onClick: probe }, 'Probe'),
      h(Button, { kind: 'danger', busy: act.busy, onClick: remove }, 'Remove'),
    ),
    act.error ? h('p', { class: 'error', role: 'alert' }, keyRefusal(act.error)) : null,
  );
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
    !keys
      ? list.error ? null : h(Loading)
      : keys.length === 0
        ? h(Empty, null, h('p', null, 'No key yet: without a model key there are no verdicts and no assistance.'))
        : h(
            'ul',
            { class: 'plain' },
            keys.map((k) =>
              h(KeyRow, {
                key: `${k.pool}/${k.id}`,
                k,
                onChanged: (changed) => setKeys((ks) => (changed ? ks.map((x) => (x.pool === k.pool && x.id === k.id ? changed : x)) : ks.filter((x) => x !== k))),
              }),
            ),
          ),
    h('h2', null, 'Add a key'),
    h('p', null, 'The provider is asked first; a key it rejects is not added.'),
    h(
      'form',
      { class: 'form', onSubmit: (e) => (e.preventDefault(), submit()) },
      h(Select, { label: 'Pool', value: pool, onChange: setPool, options: [['model', 'Model'], ['search', 'Search']] }),
      h(TextField, { label: 'Key', type: 'password', autocomplete: 'off', value: key, onInput: setKey, issues: issuesAt(add.error, ['key']) }),
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
  return { ...choice, price: Object.fromEntries(PRICES.map(([k]) => [k, choice.price?.[k] == null ? '' : String(choice.price[k])])) };
}

/**
 * The model as the service takes it: no price when every amount is empty; an amount that is not a
 * number goes as typed, so the service names the field that is wrong.
 */
function choiceBody({ price, ...choice }) {
  const typed = PRICES.map(([k]) => [k, price[k].trim()]).filter(([, v]) => v !== '');
  if (!typed.length) return choice;
  return { ...choice, price: Object.fromEntries(typed.map(([k, v]) => [k, Number.isFinite(Number(v)) ? Number(v) : v])) };
}

function ChoiceFields({ legend, choice, onChange, error, at }) {
  const set = (k) => (v) => onChange({ ...choice, [k]: v });
  const setPrice = (k) => (v) => onChange({ ...choice, price: { ...choice.price, [k]: v } });
  return h(
    'fieldset',
    null,
    h('legend', null, legend),
    h(Select, { label: `${legend}: provider`, value: choice.provider, onChange: set('provider'), options: [['openai', 'OpenAI-compatible'], ['anthropic', 'Anthropic']] }),
    h(TextField, { label: `${legend}: base URL`, value: choice.baseUrl, onInput: set('baseUrl'), issues: issuesAt(error, [at, 'baseUrl']) }),
    h(TextField, { label: `${legend}: model`, value: choice.model, onInput: set('model'), issues: issuesAt(error, [at, 'model']) }),
    PRICES.map(([k, text]) =>
      h(TextField, {
        label: `${legend}: ${text}`,
        inputmode: 'decimal',
        value: choice.price[k],
        onInput: setPrice(k),
        hint: k === 'cachedInputPerMillion' ? 'Per million tokens read from the provider’s prompt cache; empty: as input.' : 'Per million tokens, in the unit you choose (for example US dollars).',
        issues: issuesAt(error, [at, 'price', k]),
      }),
    ),
  );
}

export function Models() {
  const current = useLoad(() => get('/admin/model'));
  const [form, setForm] = useState(null);
  const save = useAction();
  useEffect(() => current.data && setForm({ verdicts: choiceForm(current.data.verdicts), assistance: choiceForm(current.data.assistance) }), [current.data]);
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
    !form
      ? current.error ? null : h(Loading)
      : h(
          'form',
          { class: 'form', onSubmit: (e) => (e.preventDefault(), submit()) },
          h('p', { role: 'status' }, c.source === 'admin' ? `Set by ${c.changedBy} on ${when(c.changedAt)}.` : 'From the service’s environment (MODEL_PROVIDER, MODEL_BASE_URL, MODEL_NAME).'),
          h(ChoiceFields, { legend: 'Verdicts', at: 'verdicts', choice: form.verdicts, error: save.error, onChange: (v) => setForm({ ...form, verdicts: v }) }),
          h(ChoiceFields, { legend: 'Assistance', at: 'assistance', choice: form.assistance, error: save.error, onChange: (v) => setForm({ ...form, assistance: v }) }),
          h(ErrorMessage, { error: save.error }),
          h('div', { class: 'actions' }, h(Button, { type: 'submit', kind: 'primary', busy: save.busy }, 'Save models'), c.source === 'admin' ? h(Button, { busy: save.busy, onClick: reset }, 'Back to the environment’s models') : null),
        ),
  );
}
