// Trust rules: how far the person believes a domain's items (a rule wins over a source's tier).
import { h } from 'preact';
import { useState } from 'preact/hooks';
import { del, enc, get, put } from '../lib/api.js';
import { TIERS } from '../lib/outcomes.js';
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

function Rule({ rule, onChanged }) {
  const act = useAction();
  const path = `/trust-rules/${enc(rule.pattern)}`;
  return h(
    'li',
    { class: 'card row' },
    h('div', { class: 'watch-main' }, h('strong', null, rule.pattern)),
    h(Select, {
      label: `Tier of ${rule.pattern}`,
      value: rule.tier,
      options: TIERS,
      onChange: (tier) => act.act(async () => onChanged(await put(path, { tier }))),
    }),
    h(
      Button,
      {
        kind: 'danger',
        busy: act.busy,
        onClick: () => act.act(async () => (await del(path), onChanged(null))),
        'aria-label': `Delete the rule for ${rule.pattern}`,
      },
      'Delete',
    ),
    h(ErrorMessage, { error: act.error }),
  );
}

export function TrustRules() {
  const list = useLoad(() => get('/trust-rules'));
  const [pattern, setPattern] = useState('');
  const [tier, setTier] = useState('established');
  const add = useAction();
  const submit = () =>
    add.act(async () => {
      await put(`/trust-rules/${enc(pattern.trim())}`, { tier });
      setPattern('');
      list.reload();
    });
  return h(
    Page,
    { title: 'Trust rules' },
    h(
      'p',
      null,
      'Tell Periscope how far to believe what a domain publishes. A rule for example.org covers it and its subdomains; *.example.org covers the subdomains only.',
    ),
    h(ErrorMessage, { error: list.error }),
    loaded(list, ({ rules }) =>
      h(PlainList, {
        items: rules,
        empty: h(Empty, null, h('p', null, 'No trust rules yet.')),
        item: (r) => h(Rule, { key: r.pattern, rule: r, onChanged: () => list.reload() }),
      }),
    ),
    h('h2', null, 'Add a rule'),
    h(
      'form',
      { class: 'form', onSubmit: (e) => (e.preventDefault(), submit()) },
      h(TextField, {
        label: 'Domain pattern',
        value: pattern,
        onInput: setPattern,
        issues: issuesAt(add.error, ['pattern']),
        hint: 'example.org or *.example.org',
      }),
      h(Select, { label: 'Trust tier', value: tier, onChange: setTier, options: TIERS }),
      h(ErrorMessage, { error: add.error }),
      h(Button, { type: 'submit', kind: 'primary', busy: add.busy, disabled: !pattern.trim() }, 'Add rule'),
    ),
  );
}
