// Create and edit a watch: the watch form (lib/watchform.js) on a page of its own; editing also
// deletes.
import { h } from 'preact';
import { del, enc, get } from '../lib/api.js';
import { navigate, Link } from '../lib/router.js';
import { Button, ErrorMessage, Loading, Page, useAction, useLoad } from '../lib/ui.js';
import { BLANK, WatchForm, editable } from '../lib/watchform.js';

export function NewWatch() {
  return h(
    Page,
    { title: 'New watch' },
    h(WatchForm, { initial: BLANK, creating: true, onSaved: (w) => navigate(`/watch/${enc(w.id)}`) }),
  );
}

export function EditWatch({ id }) {
  const watch = useLoad(() => get(`/watches/${enc(id)}`), [id]);
  const remove = useAction();
  if (watch.error)
    return h(
      Page,
      { title: 'Edit watch' },
      h(ErrorMessage, { error: watch.error }),
      h(Link, { href: '/' }, 'Back to your watches'),
    );
  if (!watch.data) return h(Page, { title: 'Edit watch' }, h(Loading));
  const deleteWatch = () =>
    remove.act(async () => {
      if (!window.confirm(`Delete the watch “${watch.data.name}”? Its run history is kept.`)) return;
      await del(`/watches/${enc(id)}`);
      navigate('/');
    });
  return h(
    Page,
    { title: `Edit ${watch.data.name}` },
    h(WatchForm, {
      initial: editable(watch.data),
      onSaved: (w) => navigate(`/watch/${enc(w.id)}`),
      extra: h(Button, { kind: 'danger', busy: remove.busy, onClick: deleteWatch }, 'Delete watch'),
    }),
    h(ErrorMessage, { error: remove.error }),
  );
}
