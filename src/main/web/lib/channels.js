// Channels by kind: each kind the service delivers to (docs/channels.md), the fields it needs, what
// it needs beyond them (a confirmation, an administrator's allowance, the operator's configuration),
// and "Send a test" through the service's test route, before a watch is saved and after.
import { h } from 'preact';
import { useState } from 'preact/hooks';
import { enc, get, post } from './api.js';
import { session } from './session.js';
import { Button, ErrorMessage, Select, TextField, issuesAt, useAction, useLoad } from './ui.js';

/** How answers show a credential (docs/channels.md): sent back as shown, the stored one is kept. */
const MASK = '••••';

// A credential goes in a URL's user part, percent-encoding what would end it there.
const credential = (text, keepColon = false) =>
  text.replace(keepColon ? /[%@/]/g : /[%@:/]/g, (c) => encodeURIComponent(c));
const decoded = (text) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/** "https://token@host/path" as its credential and the URL without it. */
function userPart(url) {
  const m = /^(https?:\/\/)([^@/]*)@(.*)$/.exec(url);
  return m ? { token: decoded(m[2]), url: m[1] + m[3] } : { token: '', url };
}

/** "https://host/path" with {@code token} in its user part, when there is one. */
function withUserPart(url, token, keepColon) {
  const m = /^(https?:\/\/)(.*)$/.exec(url.trim());
  if (!token.trim() || !m) return url.trim();
  return `${m[1]}${credential(token.trim(), keepColon)}@${m[2]}`;
}

const urlKind = (kind, title, label, placeholder, needs) => ({
  kind,
  title,
  fields: [{ name: 'url', label, placeholder, type: 'url' }],
  parse: (rest) => ({ url: rest }),
  compose: (v) => `${kind}:${(v.url || '').trim()}`,
  needs,
});

/** Every kind, in the order the picker offers them; {@code needs} says what it needs beyond its fields. */
export const KINDS = [
  {
    kind: 'telegram',
    title: 'Telegram: the operator’s chat',
    exact: 'telegram',
    fields: [],
    compose: () => 'telegram',
    needs: (s) => [
      'The chat the operator configured; open to every account unless the operator closed it.',
      s && !s.telegram ? 'Telegram is not configured on this instance: nothing can be sent here.' : null,
    ],
  },
  {
    kind: 'telegram-chat',
    title: 'Telegram: another chat',
    prefix: 'telegram',
    fields: [{ name: 'chat', label: 'Telegram chat id', placeholder: '-1001234567890' }],
    parse: (rest) => ({ chat: rest }),
    compose: (v) => `telegram:${(v.chat || '').trim()}`,
    needs: (s) => [
      session()?.role === 'admin'
        ? 'As an administrator you may name any chat the bot is in.'
        : 'Needs an administrator’s allowance: only a chat an administrator opened to you can be used.',
      s && !s.telegram ? 'Telegram is not configured on this instance: nothing can be sent here.' : null,
    ],
  },
  {
    kind: 'email',
    title: 'E-mail',
    fields: [{ name: 'address', label: 'E-mail address', placeholder: 'you@example.org', type: 'email' }],
    parse: (rest) => ({ address: rest }),
    compose: (v) => `email:${(v.address || '').trim()}`,
    needs: (s) => [
      'Your own verified address, or an address that agreed: it is mailed a link and takes alerts once that link is opened.',
      s && !s.email ? 'Mail is not configured on this instance: nothing can be sent here.' : null,
    ],
    confirm: true,
  },
  urlKind('webhook', 'Webhook (a JSON POST)', 'Webhook URL', 'https://hooks.example.org/periscope', () => [
    'A public http(s) address; each delivery is signed with the endpoint’s own secret (Standard Webhooks).',
  ]),
  {
    kind: 'ntfy',
    title: 'ntfy',
    fields: [
      { name: 'url', label: 'ntfy topic URL', placeholder: 'https://ntfy.sh/my-alerts', type: 'url' },
      { name: 'token', label: 'Access token or user:password (optional)', placeholder: 'tk_…', secret: true },
    ],
    parse: (rest) => userPart(rest),
    compose: (v) => `ntfy:${withUserPart(v.url || '', v.token || '', true)}`,
    needs: () => ['A protected topic needs its token; it is sent as a header and shown masked.'],
  },
  urlKind('slack', 'Slack', 'Slack incoming webhook URL', 'https://hooks.slack.com/services/T000/B000/XXXX', () => [
    'The incoming webhook of a Slack app; its last part is a secret and is shown masked.',
  ]),
  urlKind('discord', 'Discord', 'Discord webhook URL', 'https://discord.com/api/webhooks/123/abc', () => [
    'A channel’s webhook from Discord’s integration settings; its last part is a secret and is shown masked.',
  ]),
  {
    kind: 'push',
    title: 'Push to your browsers',
    exact: 'push',
    fields: [],
    compose: () => 'push',
    needs: () => ['Every browser you registered on the Devices page.'],
  },
  {
    kind: 'gotify',
    title: 'Gotify',
    fields: [
      { name: 'url', label: 'Gotify server URL', placeholder: 'https://gotify.example.org', type: 'url' },
      { name: 'token', label: 'Gotify application token', placeholder: 'AbCdEf123', secret: true },
    ],
    parse: (rest) => userPart(rest),
    compose: (v) => `gotify:${withUserPart(v.url || '', v.token || '')}`,
    needs: () => ['An application token made in Gotify; it is sent as a header and shown masked.'],
  },
  {
    kind: 'matrix',
    title: 'Matrix',
    fields: [
      { name: 'url', label: 'Matrix homeserver URL', placeholder: 'https://matrix.example.org', type: 'url' },
      { name: 'room', label: 'Matrix room id', placeholder: '!abcdef:example.org' },
      { name: 'token', label: 'Matrix access token', placeholder: 'syt_…', secret: true },
    ],
    parse: (rest) => {
      const { token, url } = userPart(rest);
      const cut = url.lastIndexOf('/');
      return cut > url.indexOf('//') + 1
        ? { token, url: url.slice(0, cut), room: url.slice(cut + 1) }
        : { token, url, room: '' };
    },
    compose: (v) =>
      `matrix:${withUserPart(`${(v.url || '').trim().replace(/\/+$/, '')}/${(v.room || '').trim()}`, v.token || '')}`,
    needs: () => ['A room id (!…:server), not an alias; the token’s user must have joined the room.'],
  },
  {
    kind: 'pushover',
    title: 'Pushover',
    fields: [
      { name: 'user', label: 'Pushover user key', placeholder: 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG', secret: true },
      { name: 'app', label: 'Pushover application token', placeholder: 'azGDORePK8gMaC0QOYAMyEEuzJnyUi', secret: true },
    ],
    parse: (rest) => {
      const at = rest.lastIndexOf('@');
      return at < 0 ? { user: rest, app: '' } : { user: rest.slice(0, at), app: rest.slice(at + 1) };
    },
    compose: (v) => `pushover:${(v.user || '').trim()}@${(v.app || '').trim()}`,
    needs: () => ['Your user key and an application token from pushover.net; both are shown masked.'],
  },
  urlKind('apprise', 'Apprise API', 'Apprise notify URL', 'https://apprise.example.org/notify/my-config', () => [
    'A self-hosted Apprise API server’s notify endpoint; it passes the alert to the services its configuration names.',
  ]),
];

/** Anything the picker does not know, kept as written so that nothing is lost. */
const WRITTEN = {
  kind: 'written',
  title: 'Written as an identifier',
  fields: [{ name: 'id', label: 'Channel identifier', placeholder: 'kind:target' }],
  compose: (v) => (v.id || '').trim(),
  needs: () => [],
};

const kindOf = (name) => KINDS.find((k) => k.kind === name) || WRITTEN;

/** A channel identifier as its kind and field values. */
export function parseChannel(id) {
  if (!id) return { kind: '', values: {} };
  for (const k of KINDS) {
    if (k.exact && id === k.exact) return { kind: k.kind, values: {} };
    const prefix = `${k.prefix || k.kind}:`;
    if (!k.exact && id.startsWith(prefix)) return { kind: k.kind, values: k.parse(id.slice(prefix.length)) };
  }
  return { kind: 'written', values: { id } };
}

export const composeChannel = ({ kind, values }) => (kind ? kindOf(kind).compose(values) : '');

/** The service's answer to a test send, one line per channel (or device). */
function TestResults({ results }) {
  return h(
    'div',
    { role: 'status' },
    h(
      'ul',
      { class: 'test-results' },
      results.map((r, i) =>
        h(
          'li',
          { key: i, class: r.ok ? 'sent' : 'not-sent' },
          `${r.channel}${r.device ? ` (${r.device})` : ''}: ${r.ok ? 'test alert sent' : `not sent — ${r.error || 'unknown error'}`}`,
        ),
      ),
    ),
  );
}

/** A 400's issues as sentences; the test route names the channel at ["channels", 0]. */
const refusal = (error) =>
  error?.issues?.length ? { ...error, message: error.issues.map((i) => i.message).join('; '), issues: [] } : error;

/**
 * "Send a test" for one channel: through the watch's route when the channel carries a masked
 * credential of a saved watch (the service alone knows it), else the channel itself.
 */
function SendTest({ id, watchId, index }) {
  const send = useAction();
  const [results, setResults] = useState(null);
  const test = () =>
    send.act(async () => {
      setResults(null);
      if (watchId && id.includes(MASK)) {
        const all = await post(`/watches/${enc(watchId)}/channels/test`);
        setResults(all.results.filter((r) => r.channel === id));
      } else {
        setResults((await post('/channels/test', { channels: [id] })).results);
      }
    });
  return h(
    'div',
    { class: 'send-test' },
    h(
      Button,
      { onClick: test, busy: send.busy, disabled: !id },
      send.busy ? 'Sending…' : 'Send a test',
      h('span', { class: 'visually-hidden' }, ` to channel ${index + 1}`),
    ),
    h(ErrorMessage, { error: refusal(send.error) }),
    results ? h(TestResults, { results }) : null,
  );
}

/** "Ask this address to confirm": mails the address the link that lets it take alerts. */
function ConfirmAddress({ address }) {
  const ask = useAction();
  const [asked, setAsked] = useState(null);
  const go = () =>
    ask.act(async () => {
      await post('/channels/email-addresses', { address: address.trim() });
      setAsked(address.trim());
    });
  return h(
    'div',
    { class: 'confirm-address' },
    h(Button, { onClick: go, busy: ask.busy, disabled: !address.trim() }, 'Ask this address to confirm'),
    h(ErrorMessage, { error: refusal(ask.error) }),
    asked ? h('p', { class: 'meta', role: 'status' }, `A confirmation link was mailed to ${asked}.`) : null,
  );
}

function ChannelRow({ row, index, issues, status, watchId, onChange, onRemove }) {
  const kind = kindOf(row.kind);
  const set = (name, v) => onChange({ ...row, values: { ...row.values, [name]: v } });
  const needs = row.kind ? kind.needs(status).filter(Boolean) : [];
  const id = composeChannel(row);
  return h(
    'fieldset',
    { class: 'channel' },
    h('legend', null, `Channel ${index + 1}`),
    h(Select, {
      label: 'Kind',
      value: row.kind,
      onChange: (k) => onChange({ kind: k, values: {} }),
      options: [
        ['', 'Choose a kind…'],
        ...KINDS.map((k) => [k.kind, k.title]),
        ...(row.kind === 'written' ? [['written', WRITTEN.title]] : []),
      ],
      issues: row.kind && kind.fields.length ? [] : issues,
    }),
    row.kind
      ? kind.fields.map((f, i) =>
          h(TextField, {
            key: f.name,
            label: f.label,
            type: f.type === 'email' ? 'email' : 'text',
            inputMode: f.type === 'url' ? 'url' : undefined,
            placeholder: f.placeholder,
            autocomplete: 'off',
            spellcheck: false,
            value: row.values[f.name] || '',
            onInput: (v) => set(f.name, v),
            issues: i === 0 ? issues : [],
          }),
        )
      : null,
    needs.length
      ? h(
          'ul',
          { class: 'hint needs' },
          needs.map((n) => h('li', null, n)),
        )
      : null,
    kind.confirm && row.values.address ? h(ConfirmAddress, { address: row.values.address }) : null,
    h(
      'div',
      { class: 'actions' },
      row.kind ? h(SendTest, { id, watchId, index }) : null,
      h(Button, { kind: 'danger', onClick: onRemove }, `Remove channel ${index + 1}`),
    ),
  );
}

/**
 * A watch's channels, each by kind with its own fields; {@code onChange} gets the identifiers the
 * service takes. {@code watchId} names a saved watch, whose masked credentials are tested through it.
 */
export function ChannelFields({ channels, onChange, error, watchId, device }) {
  const [rows, setRows] = useState(() => channels.map(parseChannel));
  const status = useLoad(() => get('/config/status', { anonymous: true }).catch(() => null));
  const update = (next) => {
    setRows(next);
    onChange(next.map(composeChannel));
  };
  return h(
    'fieldset',
    { class: 'channels' },
    h('legend', null, 'Channels'),
    h('p', { class: 'hint' }, 'Where alerts go. Pick a kind for each channel; each says what it needs.'),
    rows.map((row, i) =>
      h(ChannelRow, {
        key: i,
        row,
        index: i,
        status: status.data,
        watchId,
        issues: issuesAt(error, ['channels', i]),
        onChange: (r) => update(rows.map((x, j) => (j === i ? r : x))),
        onRemove: () => update(rows.filter((_, j) => j !== i)),
      }),
    ),
    (error?.issues || [])
      .filter((i) => JSON.stringify(i.path) === '["channels"]')
      .map((i) => h('p', { class: 'issues' }, i.message)),
    h(
      'div',
      { class: 'actions' },
      h(Button, { onClick: () => update([...rows, { kind: '', values: {} }]) }, 'Add a channel'),
      device && !rows.some((r) => r.kind === 'push')
        ? h(Button, { onClick: () => update([...rows, { kind: 'push', values: {} }]) }, 'Alert this browser (push)')
        : null,
    ),
  );
}

/** A saved watch's channels with "Send a test" to each of them at once, the answer beside each. */
export function ChannelTests({ watchId, channels }) {
  const send = useAction();
  const [results, setResults] = useState(null);
  const test = () =>
    send.act(async () => {
      setResults(null);
      setResults((await post(`/watches/${enc(watchId)}/channels/test`)).results);
    });
  return h(
    'div',
    { class: 'channel-tests' },
    h(
      'ul',
      { class: 'plain-list' },
      channels.map((c) =>
        h('li', { key: c }, c, results ? h(TestResults, { results: results.filter((r) => r.channel === c) }) : null),
      ),
    ),
    h(Button, { onClick: test, busy: send.busy }, send.busy ? 'Sending…' : 'Send a test to each channel'),
    h(ErrorMessage, { error: refusal(send.error) }),
  );
}
