// The history of a watch's definition: its versions, newest first, what each changed, and Restore.
import { h } from 'preact';
import { useState } from 'preact/hooks';
import { enc, get, post } from '../lib/api.js';
import { Link } from '../lib/router.js';
import { when } from '../lib/time.js';
import { Button, Empty, ErrorMessage, Loading, Page, PlainList, Table, loaded, useAction, useLoad } from '../lib/ui.js';

const CHANGES = {
  created: 'Created',
  replaced: 'Changed',
  enabled: 'Resumed',
  disabled: 'Paused',
  deleted: 'Deleted',
  restored: 'Restored',
};

// Who made a change, in words; changes recorded before actors were kept name nobody.
export function actorText(actor) {
  if (!actor) return 'not recorded';
  switch (actor.kind) {
    case 'owner':
      return 'you';
    case 'admin':
      return `an administrator (${actor.account})`;
    case 'import':
      return 'an import';
    case 'cli':
      return 'the command line';
    default:
      return actor.kind;
  }
}

// A field's value as text: strings as they are, the rest as JSON (never HTML).
const shown = (value) =>
  value === undefined || value === null ? '—' : typeof value === 'string' ? value : JSON.stringify(value);

function Differences({ id, version }) {
  const one = useLoad(() => get(`/watches/${enc(id)}/versions/${version}`), [id, version]);
  if (one.error) return h(ErrorMessage, { error: one.error });
  if (!one.data) return h(Loading);
  return h(Table, {
    class: 'differences',
    wrap: false,
    rows: one.data.differences,
    rowKey: (d) => d.field,
    empty: h('p', { class: 'muted' }, 'No field changed.'),
    columns: [
      { header: 'Field', heading: true, cell: (d) => d.field },
      { header: 'Before', class: 'pre before', cell: (d) => shown(d.before) },
      { header: 'After', class: 'pre after', cell: (d) => shown(d.after) },
    ],
  });
}

function Version({ id, v, newest, onRestored }) {
  const [open, setOpen] = useState(false);
  const restore = useAction();
  const restoreIt = () =>
    restore.act(async () => {
      await post(`/watches/${enc(id)}/versions/${v.version}/restore`);
      onRestored();
    });
  return h(
    'li',
    { class: 'card version', 'data-version': v.version },
    h(
      'div',
      { class: 'row' },
      h(
        'div',
        { class: 'watch-main' },
        h('strong', null, `Version ${v.version}: ${CHANGES[v.change] ?? v.change}`),
        v.restoredFrom ? ` from version ${v.restoredFrom}` : null,
        h(
          'div',
          { class: 'muted' },
          `${when(v.at)} · by ${actorText(v.actor)}${v.changed.length ? ` · ${v.changed.join(', ')}` : ''}`,
        ),
      ),
      h(Button, { onClick: () => setOpen(!open), 'aria-expanded': open }, open ? 'Hide differences' : 'Differences'),
      newest || v.change === 'deleted'
        ? null
        : h(
            Button,
            { kind: 'primary', busy: restore.busy, onClick: restoreIt, 'aria-label': `Restore version ${v.version}` },
            'Restore',
          ),
    ),
    h(ErrorMessage, { error: restore.error }),
    open ? h(Differences, { id, version: v.version }) : null,
  );
}

export function Versions({ id }) {
  const list = useLoad(() => get(`/watches/${enc(id)}/versions`), [id]);
  return h(
    Page,
    {
      title: 'Versions',
      actions: [h(Link, { href: `/watch/${enc(id)}`, class: 'button secondary' }, 'Back to the watch')],
    },
    h(
      'p',
      null,
      'Every change to this watch, newest first. Restoring a version makes it current again as a new version; the others stay.',
    ),
    h(ErrorMessage, { error: list.error }),
    loaded(list, ({ versions }) =>
      h(PlainList, {
        items: versions,
        empty: h(Empty, null, h('p', null, 'No versions recorded yet.')),
        item: (v, i) =>
          h(Version, {
            key: v.version,
            id,
            v,
            newest: i === 0 && v.change !== 'deleted',
            onRestored: () => list.reload(),
          }),
      }),
    ),
  );
}
