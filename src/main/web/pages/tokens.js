// Personal API tokens for scripts and integrations: each with its scopes and an expiry, its secret
// shown once (docs/accounts.md, "Personal API tokens").
import { h } from 'preact';
import { useState } from 'preact/hooks';
import { del, enc, get, post } from '../lib/api.js';
import { when } from '../lib/time.js';
import {
  Button,
  Empty,
  ErrorMessage,
  Page,
  PlainList,
  Select,
  TextField,
  issuesAt,
  loaded,
  useAction,
  useLoad,
} from '../lib/ui.js';

// [scope, what a person reads, administrators only]
const SCOPES = [
  ['read', 'Read: everything of yours it can look at'],
  ['watches', 'Change: create, change, run and delete watches, feedback, trust rules, channels and devices'],
  ['admin', 'Administer: the administration routes', true],
];

const LIFETIMES = [
  ['30', '30 days'],
  ['90', '90 days'],
  ['365', '1 year'],
];

function Token({ token, onRevoked }) {
  const revoke = useAction();
  return h(
    'li',
    { class: 'card row' },
    h(
      'div',
      { class: 'watch-main' },
      h('strong', null, token.name),
      h('p', { class: 'meta' }, `Scopes: ${token.scopes.join(', ')}`),
      h(
        'p',
        { class: 'meta' },
        token.expiresAt ? `Expires ${when(token.expiresAt)}` : 'Never expires: revoke it and make a new one',
      ),
      h('p', { class: 'meta' }, token.lastUsedAt ? `Last used ${when(token.lastUsedAt)}` : 'Not used yet'),
    ),
    h(
      Button,
      {
        kind: 'danger',
        busy: revoke.busy,
        onClick: () => revoke.act(async () => (await del(`/account/tokens/${enc(token.id)}`), onRevoked())),
        'aria-label': `Revoke ${token.name}`,
      },
      'Revoke',
    ),
    h(ErrorMessage, { error: revoke.error }),
  );
}

export function Tokens({ who }) {
  const list = useLoad(() => get('/account/tokens'));
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState(['read', 'watches']);
  const [days, setDays] = useState('90');
  const [made, setMade] = useState(null);
  const make = useAction();
  const toggle = (scope, on) => setScopes((s) => (on ? [...s, scope] : s.filter((x) => x !== scope)));
  const submit = () =>
    make.act(async () => {
      const expiresAt = new Date(Date.now() + Number(days) * 86400000).toISOString();
      setMade(await post('/account/tokens', { name: name.trim(), scopes, expiresAt }));
      setName('');
      list.reload();
    });
  return h(
    Page,
    { title: 'API tokens' },
    h(
      'p',
      null,
      'A token lets a script act as you, within its scopes, until it expires or you revoke it. Send it as "Authorization: Bearer <token>".',
    ),
    made
      ? h(
          'div',
          { class: 'notice', role: 'status' },
          h('p', null, `Your new token "${made.details.name}". Copy it now: it is not shown again.`),
          h('p', null, h('code', { class: 'secret' }, made.token)),
        )
      : null,
    h(ErrorMessage, { error: list.error }),
    loaded(list, ({ tokens }) =>
      h(PlainList, {
        items: tokens,
        empty: h(Empty, null, h('p', null, 'No API tokens yet.')),
        item: (t) => h(Token, { key: t.id, token: t, onRevoked: () => list.reload() }),
      }),
    ),
    h('h2', null, 'Make a token'),
    h(
      'form',
      { class: 'form', onSubmit: (e) => (e.preventDefault(), submit()) },
      h(TextField, {
        label: 'Token name',
        value: name,
        onInput: setName,
        issues: issuesAt(make.error, ['name']),
        hint: 'What uses it, e.g. backup script',
      }),
      h(
        'fieldset',
        null,
        h('legend', null, 'Scopes'),
        SCOPES.filter(([, , adminOnly]) => !adminOnly || who.role === 'admin').map(([scope, text]) =>
          h(
            'div',
            null,
            h(
              'label',
              { class: 'switch' },
              h('input', {
                type: 'checkbox',
                checked: scopes.includes(scope),
                onChange: (e) => toggle(scope, e.target.checked),
              }),
              h('span', null, text),
            ),
          ),
        ),
        issuesAt(make.error, ['scopes']).length
          ? h(
              'ul',
              { class: 'issues' },
              issuesAt(make.error, ['scopes']).map((i) => h('li', null, i.message)),
            )
          : null,
      ),
      h(Select, { label: 'Expires after', value: days, onChange: setDays, options: LIFETIMES }),
      h(ErrorMessage, { error: make.error }),
      h(
        Button,
        { type: 'submit', kind: 'primary', busy: make.busy, disabled: !name.trim() || scopes.length === 0 },
        'Make token',
      ),
    ),
  );
}
