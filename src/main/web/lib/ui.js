// Shared pieces of every page. Everything shown is a Preact text node: no HTML from data, ever.
import { h } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api.js';
import { forPerson } from './forms.js';

/** What a refusal means for the person: which integration is missing, when to retry, … */
export function explain(error) {
  if (!(error instanceof ApiError)) return String(error?.message || error);
  if (error.status === 503)
    return `Not available on this service: ${error.message}. An administrator has to configure it.`;
  if (error.status === 429 && error.quota) return `${error.message}.`;
  if (error.status === 429) {
    const wait = error.retryAfter ? ` Try again in ${error.retryAfter} seconds.` : ' Try again in a minute.';
    return `Too many requests.${wait}`;
  }
  if (error.status === 403) return 'Only administrators may do this.';
  return error.message;
}

export function ErrorMessage({ error }) {
  if (!error) return null;
  const issues = error.issues?.filter((i) => !i.path || i.path.length === 0) || [];
  return h(
    'div',
    { class: 'error', role: 'alert' },
    h('p', null, explain(error)),
    issues.length
      ? h(
          'ul',
          null,
          issues.map((i) => h('li', null, i.message)),
        )
      : null,
  );
}

/**
 * A link out to a page a source named: a link only for an http(s) URL, else its text alone, so a
 * `javascript:` or `data:` URL from a feed is never something to click.
 */
export function ExternalLink({ url, children }) {
  let web = false;
  try {
    web = ['http:', 'https:'].includes(new URL(url).protocol);
  } catch {
    web = false;
  }
  return web
    ? h('a', { href: url, rel: 'noopener noreferrer', target: '_blank' }, children)
    : h('span', null, children);
}

export const Loading = ({ what = 'Loading…' }) => h('p', { class: 'loading', role: 'status' }, what);

export const Empty = ({ children }) => h('div', { class: 'empty' }, children);

/** What a load shows: show(data) once it answers, Loading until then, nothing if it failed (its error shows apart). */
export const loaded = (state, show) => (state.data ? show(state.data) : state.error ? null : h(Loading));

let ids = 0;
const useId = () => useRef(`f${++ids}`).current;

/** The service's issues that name this path (['sources', 0, 'value']) or a path under it. */
export function issuesAt(error, path) {
  if (!error?.issues) return [];
  const key = JSON.stringify(path);
  return error.issues.filter((i) => Array.isArray(i.path) && JSON.stringify(i.path.slice(0, path.length)) === key);
}

/** A labelled control with its hint and the service's issues next to it. */
export function Field({ label, hint, issues = [], children, render }) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const issueId = issues.length ? `${id}-issues` : undefined;
  const describedBy = [hintId, issueId].filter(Boolean).join(' ') || undefined;
  return h(
    'div',
    { class: issues.length ? 'field invalid' : 'field' },
    h('label', { for: id }, label),
    render({ id, 'aria-describedby': describedBy, 'aria-invalid': issues.length ? 'true' : undefined }),
    hint ? h('p', { class: 'hint', id: hintId }, hint) : null,
    issues.length
      ? h(
          'ul',
          { class: 'issues', id: issueId },
          issues.map((i) => h('li', null, forPerson(label, i.message))),
        )
      : null,
    children,
  );
}

export function TextField({ label, value, onInput, type = 'text', hint, issues, ...rest }) {
  return h(Field, {
    label,
    hint,
    issues,
    render: (a) => h('input', { ...a, ...rest, type, value, onInput: (e) => onInput(e.target.value) }),
  });
}

export function TextArea({ label, value, onInput, hint, issues, rows = 3 }) {
  return h(Field, {
    label,
    hint,
    issues,
    render: (a) => h('textarea', { ...a, rows, value, onInput: (e) => onInput(e.target.value) }),
  });
}

export function Select({ label, value, onChange, options, hint, issues }) {
  return h(Field, {
    label,
    hint,
    issues,
    render: (a) =>
      h(
        'select',
        { ...a, value, onChange: (e) => onChange(e.target.value) },
        options.map(([v, text]) => h('option', { value: v }, text)),
      ),
  });
}

/** Loads once (and again on reload()), with loading and error states. */
export function useLoad(load, deps = []) {
  const [state, setState] = useState({ loading: true });
  const run = useCallback(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => live && setState({ data }),
      (error) => live && setState({ error }),
    );
    return () => {
      live = false;
    };
  }, deps);
  useEffect(run, [run]);
  return { ...state, reload: run };
}

/** An action's busy flag and error, for buttons that call the service. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const act = async (work) => {
    setBusy(true);
    setError(null);
    try {
      return await work();
    } catch (e) {
      setError(e);
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, act };
}

export function Page({ title, actions, children }) {
  useEffect(() => {
    document.title = `${title} · Periscope`;
    const heading = document.querySelector('main h1');
    if (heading) heading.focus({ preventScroll: true });
  }, [title]);
  return h(
    'section',
    { class: 'page' },
    h(
      'div',
      { class: 'page-head' },
      h('h1', { tabIndex: -1 }, title),
      actions ? h('div', { class: 'actions' }, actions) : null,
    ),
    children,
  );
}

export const Button = ({ busy, children, kind = 'secondary', ...props }) =>
  h(
    'button',
    {
      type: 'button',
      ...props,
      class: `button ${kind}`,
      disabled: busy || props.disabled,
      'aria-busy': busy ? 'true' : undefined,
    },
    children,
  );

/** Facts as a definition list; a fact without a value is left out. */
export function Facts({ items }) {
  return h(
    'dl',
    { class: 'facts' },
    items
      .filter(([, v]) => v !== null && v !== undefined && v !== '')
      .flatMap(([k, v]) => [h('dt', null, k), h('dd', null, v)]),
  );
}

/** A list of cards, one `item(it, index)` (an li) each, or `empty` when there is none. */
export const PlainList = ({ items, item, empty }) =>
  items.length === 0 ? empty : h('ul', { class: 'plain' }, items.map(item));

/**
 * A table with a header row. Each column has a `header`, a `cell(row, state, index)` giving what its cell
 * shows as Preact children (so what a person or a feed wrote is a text node, never HTML), an optional
 * `class`, and `heading: true` when its cell names the row (a th). `useRow(row)` is a hook called once
 * per row, for what its cells share (an action's busy flag and error): its answer is their `state`.
 * With no row, `empty` stands instead when given. The table scrolls sideways in its wrap unless `wrap`
 * is false.
 */
export function Table({ columns, rows, rowKey = (row, i) => i, rowClass, useRow, empty, class: kind, wrap = true }) {
  if (rows.length === 0 && empty !== undefined) return empty;
  const table = h(
    'table',
    { class: kind },
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        columns.map((c) => h('th', { scope: 'col' }, c.header)),
      ),
    ),
    h(
      'tbody',
      null,
      rows.map((row, index) => h(TableRow, { key: rowKey(row, index), row, index, columns, rowClass, useRow })),
    ),
  );
  return wrap ? h('div', { class: 'table-wrap' }, table) : table;
}

const noRowState = () => undefined;

function TableRow({ row, index, columns, rowClass, useRow = noRowState }) {
  const state = useRow(row);
  return h(
    'tr',
    { class: rowClass?.(row) || undefined },
    columns.map((c) =>
      h(c.heading ? 'th' : 'td', { scope: c.heading ? 'row' : undefined, class: c.class }, c.cell(row, state, index)),
    ),
  );
}
